//go:build wasip1

// Command hostile is a test plugin whose behaviour is chosen by the file
// name it is handed: it loops, allocates without bound, panics, traps,
// exits, floods its output, returns over-long strings or words outside the
// fact vocabulary, or behaves well.
package main

import (
	"errors"
	"os"
	"path"
	"strings"
	"unsafe"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

var (
	spin uint64
	keep [][]byte
)

type hostile struct{}

func (hostile) Extract(f *extract.File) error {
	switch strings.TrimSuffix(path.Base(f.Path), path.Ext(f.Path)) {
	case "loop":
		for {
			spin++
		}
	case "bomb":
		for {
			b := make([]byte, 4<<20)
			b[0] = 1
			keep = append(keep, b)
		}
	case "panic":
		panic("boom")
	case "trap":
		// An out-of-bounds load is a real wasm trap, not a Go panic.
		p := (*uint64)(unsafe.Add(unsafe.Pointer(nil), 0xfffffff0))
		spin = *p
	case "exit":
		os.Stderr.WriteString("bye\n")
		os.Exit(3)
	case "huge":
		name := strings.Repeat("x", 1000)
		for i := 0; i < 4000; i++ {
			f.Call(abi.Call{Caller: -1, Name: name, Line: uint32(i)})
		}
	case "longname":
		// A 3 MiB name and a 5 MiB signature, as in the attack report.
		f.Symbol(abi.Symbol{Name: strings.Repeat("n", 3<<20), Kind: abi.KindFunction, Parent: -1,
			Signature: &abi.Signature{Raw: strings.Repeat("s", 5<<20)}})
		return nil
	case "vocab":
		// Words outside sdk/abi's vocabulary, around facts that are fine:
		// the host must drop exactly the bad ones and renumber the rest.
		cls := f.Symbol(abi.Symbol{Name: "Bad", Kind: "klass", Parent: -1})
		m := f.Symbol(abi.Symbol{Name: "ok", Kind: abi.KindMethod, Parent: cls})
		f.Symbol(abi.Symbol{Name: "odd", Kind: abi.KindField, Parent: m, Visibility: "friend"})
		f.Call(abi.Call{Caller: m, Name: "g", Line: 2})
		f.Relation(abi.Relation{From: m, Kind: "uses", Target: "T", Line: 3})
		f.Relation(abi.Relation{From: m, Kind: abi.RelReferences, Target: "T", Context: "somewhere", Line: 4})
		f.Relation(abi.Relation{From: cls, Kind: abi.RelInherits, Target: "Base", Line: 5})
		return nil
	case "grow":
		// Leave a big heap behind so the host recycles the instance.
		keep = append(keep, make([]byte, 16<<20))
	case "error":
		return errors.New("cannot handle " + f.Path)
	case "project":
		// Shows the project info the host passed in Init.
		f.Symbol(abi.Symbol{Name: "project:" + string(extract.Project()), Kind: "module", Parent: -1})
		return nil
	}
	t := f.Tree
	f.SetPackage(f.Language())
	var parent int32 = -1
	for n := range t.NamedChildren(0) {
		parent = f.Symbol(abi.Symbol{Name: t.Text(n), Kind: abi.KindFunction, Parent: -1, Span: t.Span(n),
			Signature: &abi.Signature{Params: []abi.Param{{Name: "a", Type: "int"}}, Return: "error", Raw: "func " + t.Text(n) + "(a int) error"}})
	}
	f.Call(abi.Call{Caller: parent, Name: "println", Receiver: "fmt", Line: 1, Col: 2})
	f.Import(abi.Import{Path: "fmt", Names: []abi.ImportName{{Name: "Println", Alias: "p"}}, Line: 1})
	f.Relation(abi.Relation{From: parent, Kind: abi.RelReferences, Target: "io.Reader", Context: abi.CtxParameterType, Line: 1})
	f.Errorf("kinds=%d", t.Len())
	return nil
}

// project is the project entry point; the base name of the root picks
// its behaviour, as the file name does for Extract.
func project(in *abi.ProjectInput) ([]byte, error) {
	switch path.Base(in.Root) {
	case "loop":
		for {
			spin++
		}
	case "panic":
		panic("project boom")
	case "huge":
		return make([]byte, abi.MaxProjectInfo+1), nil
	case "error":
		return nil, errors.New("go.mod: no module line")
	}
	var b strings.Builder
	for _, f := range in.Files {
		b.WriteString(f.Path + "=" + string(f.Data) + ";")
	}
	extract.ProjectSummary("%d project files", len(in.Files))
	extract.ProjectWarning("nothing to fix in %s", path.Base(in.Root))
	return []byte(b.String()), nil
}

func init() {
	extract.Register(hostile{})
	extract.RegisterProject(project)
}

func main() {}
