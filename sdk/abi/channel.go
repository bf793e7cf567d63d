package abi

import "fmt"

// ChannelKind is the runtime channel a message travels on.
type ChannelKind string

// Channel kinds: the graph names their nodes "event #n", "ipc #n", "ws #n".
const (
	ChannelEvent ChannelKind = "event" // EventEmitter on/emit, DOM addEventListener/dispatchEvent(new CustomEvent)
	ChannelIPC   ChannelKind = "ipc"   // Electron ipcMain/ipcRenderer, webContents.send
	ChannelWS    ChannelKind = "ws"    // WebSocket / socket.io message names
	// ChannelHTTP is an HTTP route: Name is "METHOD /path" ("*" for a
	// method the source does not say), computed path parts written "{}"
	// and parameters in the framework's own syntax (<id>, :id, {id});
	// the host canonicalizes both sides before matching.
	ChannelHTTP ChannelKind = "http"
	// ChannelExec is a subprocess running a script: Name is the script's
	// path as the source spells it (relative to the file's directory or
	// the repository root); the host links it to that file (invokes).
	ChannelExec ChannelKind = "exec"
	// ChannelNative is a call into another language through an FFI: Name
	// is "family:symbol" (cgo C.f, a ctypes library's lib.f, a JNI native
	// method's Java_pkg_Cls_m), linked to the one function of that
	// plugin family so named (binds_native).
	ChannelNative ChannelKind = "native"
	// ChannelLibrary is a native library or addon loaded by name
	// (ctypes.CDLL, System.loadLibrary, require of a .node file): Name is
	// the library as written; loaders of one library meet on its node.
	ChannelLibrary ChannelKind = "library"
)

// ChannelRole says which end of a channel a site is.
type ChannelRole string

// Channel roles.
const (
	ChannelSend   ChannelRole = "send"   // emit, send, invoke, dispatchEvent
	ChannelHandle ChannelRole = "handle" // on, once, handle, addEventListener
)

// ChannelSite is one end of a runtime channel: a sender, or a handler
// registration. Senders and handlers of the same kind and name meet on
// one channel node, so a handler that only the channel reaches still
// shows its callers.
type ChannelSite struct {
	From int32 // enclosing symbol, -1 at file level
	Kind ChannelKind
	Role ChannelRole
	Name string // the channel/event name, a string literal in the source
	// Handler names the registered function when it is passed by name
	// (ipcMain.handle("save", onSave)); "" for an inline callback, whose
	// body belongs to From.
	Handler string
	Line    uint32
}

// channelSectionTag starts the channel section, written after the
// dynamic-sites section and only when there are channel sites.
const channelSectionTag = 'C'

func appendChannelSection(b []byte, f *Facts) []byte {
	if len(f.Channels) == 0 {
		return b
	}
	b = append(b, channelSectionTag)
	b = appendUvarint(b, uint64(len(f.Channels)))
	for i := range f.Channels {
		c := &f.Channels[i]
		b = appendVarint(b, int64(c.From))
		b = appendString(b, string(c.Kind))
		b = appendString(b, string(c.Role))
		b = appendString(b, c.Name)
		b = appendString(b, c.Handler)
		b = appendUvarint(b, uint64(c.Line))
	}
	return b
}

func decodeChannelSection(d *Decoder, f *Facts) {
	if !d.openSection(channelSectionTag) {
		return
	}
	if n := d.Len(6); n > 0 {
		f.Channels = make([]ChannelSite, n)
	}
	for i := range f.Channels {
		f.Channels[i] = ChannelSite{From: d.Int32(), Kind: ChannelKind(d.String()), Role: ChannelRole(d.String()),
			Name: d.String(), Handler: d.String(), Line: d.Uint32()}
	}
}

func (f *Facts) validateChannels() error {
	n := int32(len(f.Symbols))
	for i, c := range f.Channels {
		if c.From < -1 || c.From >= n {
			return fmt.Errorf("abi: channel site %d has enclosing symbol %d out of range", i, c.From)
		}
		switch c.Kind {
		case ChannelEvent, ChannelIPC, ChannelWS, ChannelHTTP, ChannelExec, ChannelNative, ChannelLibrary:
		default:
			return fmt.Errorf("abi: channel site %d has unknown kind %q (want event, ipc, ws, http, exec, native or library)", i, c.Kind)
		}
		if c.Role != ChannelSend && c.Role != ChannelHandle {
			return fmt.Errorf("abi: channel site %d has unknown role %q (want send or handle)", i, c.Role)
		}
		if c.Role == ChannelHandle && (c.Kind == ChannelExec || c.Kind == ChannelNative || c.Kind == ChannelLibrary) {
			return fmt.Errorf("abi: channel site %d is a %s handler; %s sites are senders only (the host finds the other end)", i, c.Kind, c.Kind)
		}
		if c.Name == "" {
			return fmt.Errorf("abi: channel site %d has no name", i)
		}
	}
	return nil
}
