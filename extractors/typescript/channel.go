package main

import (
	"bytes"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Channel methods: which end of a channel a member call is.
var (
	sendMethods   = map[string]bool{"emit": true, "send": true, "invoke": true, "sendSync": true, "dispatchEvent": true, "sendToHost": true}
	handleMethods = map[string]bool{"on": true, "once": true, "addListener": true, "prependListener": true, "addEventListener": true, "handle": true, "handleOnce": true}
)

// lifecycleEvents are connection plumbing, not application messages: a
// socket's "connect" or a stream's "error" names no channel of the app.
var lifecycleEvents = map[string]bool{
	"connect": true, "connection": true, "disconnect": true, "disconnecting": true, "error": true, "close": true,
	"open": true, "end": true, "data": true, "ready": true, "reconnect": true, "connect_error": true,
	"newListener": true, "removeListener": true,
}

// domEvents are the browser's own events: a handler of "click" is reached
// by the browser, not by a dispatchEvent in the repository.
var domEvents = map[string]bool{
	"click": true, "dblclick": true, "input": true, "change": true, "submit": true, "keydown": true, "keyup": true,
	"keypress": true, "mousedown": true, "mouseup": true, "mousemove": true, "mouseover": true, "mouseout": true,
	"mouseenter": true, "mouseleave": true, "focus": true, "blur": true, "load": true, "unload": true,
	"beforeunload": true, "resize": true, "scroll": true, "DOMContentLoaded": true, "message": true,
	"touchstart": true, "touchend": true, "touchmove": true, "wheel": true, "contextmenu": true,
	"pointerdown": true, "pointerup": true, "pointermove": true, "visibilitychange": true, "popstate": true,
	"hashchange": true, "storage": true, "drop": true, "dragover": true, "dragstart": true, "animationend": true,
	"transitionend": true, "abort": true,
}

// channelCall records obj.emit("name") / obj.on("name", handler) and their
// IPC and socket forms as channel sites. The kind comes from the receiver:
// ipcMain/ipcRenderer/webContents are Electron IPC, a socket or io is
// socket.io; other receivers are an event bus, recorded only in files that
// use EventEmitter or CustomEvent (.on("x") alone is too common to trust).
func (w *walker) channelCall(call, fn extract.Node) {
	t, l := w.t, w.l
	if fn == extract.None || w.kind(fn) != l.memberExpression {
		return
	}
	obj, prop := t.Child(fn, l.fObject), t.Child(fn, l.fProperty)
	if obj == extract.None || prop == extract.None {
		return
	}
	role := abi.ChannelRole("")
	switch pb := w.bytes(prop); {
	case sendMethods[string(pb)]:
		role = abi.ChannelSend
	case handleMethods[string(pb)]:
		role = abi.ChannelHandle
	default:
		return // most member calls: no allocation before this point
	}
	method := string(w.bytes(prop))
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return
	}
	first, second := w.args2(args)
	name := ""
	if method == "dispatchEvent" {
		name = w.customEventName(first)
	} else if first != extract.None {
		name = w.literal(first)
	}
	if name == "" {
		return
	}
	kind := w.channelKind(string(w.bytes(obj)), method)
	switch {
	case kind == "":
		return
	case kind == abi.ChannelWS && lifecycleEvents[name], kind == abi.ChannelEvent && (lifecycleEvents[name] || domEvents[name]):
		return
	}
	site := abi.ChannelSite{From: w.caller, Kind: kind, Role: role, Name: name, Line: t.StartLine(call)}
	if role == abi.ChannelHandle && second != extract.None {
		site.Handler = w.handlerName(second)
	}
	w.f.ChannelSite(site)
}

// channelKind classifies a receiver; "" when it is no channel.
func (w *walker) channelKind(recv, method string) abi.ChannelKind {
	last := recv[strings.LastIndexByte(recv, '.')+1:]
	switch {
	case last == "ipcMain" || last == "ipcRenderer" || last == "webContents":
		return abi.ChannelIPC
	case last == "socket" || last == "io" || strings.HasSuffix(last, "Socket") || last == "ws":
		if method == "invoke" || method == "addEventListener" || method == "dispatchEvent" {
			return ""
		}
		return abi.ChannelWS
	case method == "invoke" || method == "handle" || method == "handleOnce" || method == "sendSync":
		return "" // IPC verbs on anything else
	}
	if w.eventGate == 0 {
		w.eventGate = -1
		if bytes.Contains(w.src, []byte("EventEmitter")) || bytes.Contains(w.src, []byte("CustomEvent")) {
			w.eventGate = 1
		}
	}
	if w.eventGate < 0 {
		return ""
	}
	return abi.ChannelEvent
}

// args2 returns a call's first two arguments (None when absent).
func (w *walker) args2(args extract.Node) (first, second extract.Node) {
	first, second = extract.None, extract.None
	for a := range w.t.NamedChildren(args) {
		if w.kind(a) == w.l.comment {
			continue
		}
		if first == extract.None {
			first = a
			continue
		}
		second = a
		break
	}
	return first, second
}

// customEventName is "n" in dispatchEvent(new CustomEvent("n", …)).
func (w *walker) customEventName(arg extract.Node) string {
	if arg == extract.None || w.kind(arg) != w.l.newExpression {
		return ""
	}
	c := w.t.Child(arg, w.l.fConstructor)
	if c == extract.None || string(w.bytes(c)) != "CustomEvent" && string(w.bytes(c)) != "Event" {
		return ""
	}
	args := w.t.Child(arg, w.l.fArguments)
	if args == extract.None {
		return ""
	}
	first, _ := w.args2(args)
	if first == extract.None {
		return ""
	}
	return w.literal(first)
}

// handlerName is the function a handler argument names: f, or m in
// this.m / obj.m; "" for an inline callback or anything computed.
func (w *walker) handlerName(arg extract.Node) string {
	switch w.kind(arg) {
	case w.l.identifier:
		return string(w.bytes(arg))
	case w.l.memberExpression:
		if p := w.t.Child(arg, w.l.fProperty); p != extract.None {
			return string(w.bytes(p))
		}
	}
	return ""
}
