package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// MaxModuleBytes caps a plugin's .wasm module: our largest Go guest is
// ~3 MiB; a module behind /dev/zero or a huge file must not fill memory.
const MaxModuleBytes = 256 << 20

// maxManifestBytes caps plugin.toml.
const maxManifestBytes = 1 << 20

// ReadModule reads m's module from its plugin folder. It opens the module
// relative to the folder, so a module that is (or sits behind) a symlink
// out of the folder is refused, and it never blocks: a FIFO or a device is
// refused after open, an oversized file at MaxModuleBytes.
func ReadModule(m *Manifest) ([]byte, error) {
	b, err := safefile.ReadIn(m.Dir, m.Module, MaxModuleBytes)
	var notReg *safefile.NotRegularError
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("module %s not found; build the plugin (GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o %s) or fix module in %s",
			m.Module, m.Module, FileName)
	case errors.As(err, &notReg):
		return nil, fmt.Errorf("module %s is a %s, not a regular file; put the built .wasm file there", m.Module, safefile.Kind(notReg.Mode))
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, fmt.Errorf("module %s is over the %d MiB module limit; is it really a plugin?", m.Module, MaxModuleBytes>>20)
	case safefile.EscapesRoot(err):
		return nil, fmt.Errorf("module %s leads outside the plugin folder %s (a symlink out of it); copy the module into the folder", m.Module, m.Dir)
	}
	return nil, fmt.Errorf("read module %s: %w", filepath.Join(m.Dir, m.Module), err)
}
