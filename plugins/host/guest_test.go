package host

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

var buildMu sync.Mutex

// buildGuest builds the Go guest in testdata/<name> for wasip1 and returns
// the module bytes. Builds are cached under os.UserCacheDir() keyed by the
// sources (guest + sdk) and the Go version, so reruns skip the ~1-3 s build.
func buildGuest(t testing.TB, name string) []byte {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	h := sha256.New()
	fmt.Fprintln(h, runtime.Version())
	for _, dir := range []string{filepath.Join("testdata", name), "../../sdk/abi", "../../sdk/extract"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		slices.Sort(files)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(h, "%s %d\n", f, len(b))
			h.Write(b)
		}
	}
	key := hex.EncodeToString(h.Sum(nil))[:24]
	cacheDir := filepath.Join(t.TempDir(), "testwasm")
	if base, err := os.UserCacheDir(); err == nil {
		cacheDir = filepath.Join(base, "synaptic", "testwasm")
	}
	cached := filepath.Join(cacheDir, name+"-"+key+".wasm")
	if b, err := os.ReadFile(cached); err == nil {
		return b
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found; cannot build test guests")
	}
	out := filepath.Join(t.TempDir(), name+".wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", out, "./testdata/"+name)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build guest %s: %v\n%s", name, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if os.MkdirAll(cacheDir, 0o755) == nil {
		tmp := cached + ".tmp" + fmt.Sprint(os.Getpid())
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, cached)
		}
	}
	return b
}

// writePlugin makes a plugin folder holding module and a plugin.toml with
// extra appended, and loads its manifest.
func writePlugin(t testing.TB, module []byte, extra string) *manifest.Manifest {
	t.Helper()
	return writePluginABI(t, module, 1, extra)
}

// writePluginABI is writePlugin with abi = v.
func writePluginABI(t testing.TB, module []byte, v int, extra string) *manifest.Manifest {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.wasm"), module, 0o644); err != nil {
		t.Fatal(err)
	}
	toml := `name = "hostile"
version = "0.0.1"
kind = "extractor"
abi = ` + fmt.Sprint(v) + `
module = "p.wasm"
` + extra + `
[[languages]]
name = "fake"
extensions = [".fake"]
`
	if err := os.WriteFile(filepath.Join(dir, manifest.FileName), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fakeGrammar is a three-symbol grammar; fakeFile is "func main" parsed
// with it: a source_file root holding one identifier.
var fakeGrammar = abi.Grammar{
	Language: "fake", Name: "fake",
	Kinds:  []string{"end", "source_file", "identifier"},
	Named:  []bool{false, true, true},
	Fields: []string{"", "name"},
}

var fakeSource = []byte("func main")

func fakeRecords() []byte {
	rec := func(dst []byte, w ...uint32) []byte {
		for _, v := range w {
			dst = binary.LittleEndian.AppendUint32(dst, v)
		}
		return dst
	}
	var b []byte
	b = rec(b, 1|abi.FlagNamed<<24, 0, 9, 0, 0, 1, 2)
	b = rec(b, 2|1<<16|abi.FlagNamed<<24, 5, 9, 0, 0, 0, 1)
	return b
}

// rawModule assembles a minimal wasm module by hand: one exported memory of
// one page and the given exported functions. It lets tests break the ABI in
// ways a Go guest built with the sdk cannot.
type rawFunc struct {
	name            string
	params, results []byte // value types: 0x7f i32, 0x7e i64
	body            []byte // instructions, without the final end
}

const (
	i32 = 0x7f
	i64 = 0x7e
)

func rawModule(funcs ...rawFunc) []byte {
	vec := func(items ...[]byte) []byte {
		b := binary.AppendUvarint(nil, uint64(len(items)))
		for _, it := range items {
			b = append(b, it...)
		}
		return b
	}
	section := func(id byte, body []byte) []byte {
		return append(binary.AppendUvarint([]byte{id}, uint64(len(body))), body...)
	}
	name := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	var types, fidx, exps, codes [][]byte
	for i, f := range funcs {
		ty := append([]byte{0x60}, binary.AppendUvarint(nil, uint64(len(f.params)))...)
		ty = append(ty, f.params...)
		ty = append(binary.AppendUvarint(ty, uint64(len(f.results))), f.results...)
		types = append(types, ty)
		fidx = append(fidx, binary.AppendUvarint(nil, uint64(i)))
		exps = append(exps, append(name(f.name), 0x00, byte(i)))
		code := append([]byte{0x00}, f.body...) // no locals
		code = append(code, 0x0b)
		codes = append(codes, append(binary.AppendUvarint(nil, uint64(len(code))), code...))
	}
	exps = append(exps, append(name("memory"), 0x02, 0x00))
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, section(1, vec(types...))...)
	m = append(m, section(3, vec(fidx...))...)
	m = append(m, section(5, vec([]byte{0x00, 0x01}))...)
	m = append(m, section(7, vec(exps...))...)
	m = append(m, section(10, vec(codes...))...)
	return m
}

func i32Const(v int32) []byte { return sleb([]byte{0x41}, int64(v)) }
func i64Const(v int64) []byte { return sleb([]byte{0x42}, v) }

// sleb appends v in signed LEB128, wasm's encoding of constants.
func sleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// abiFuncs returns the four ABI exports: version returns v, in_buf 1024,
// init an empty OK result (zeroed memory at 4096 reads as StatusOK) and
// extract the given body.
func abiFuncs(v int32, extract []byte) []rawFunc {
	return []rawFunc{
		{abi.ExportVersion, nil, []byte{i32}, i32Const(v)},
		{abi.ExportInBuf, []byte{i32}, []byte{i32}, i32Const(1024)},
		{abi.ExportInit, []byte{i32}, []byte{i64}, i64Const(4096<<32 | 1)},
		{abi.ExportExtract, []byte{i32}, []byte{i64}, extract},
	}
}
