package main

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// The project entry point reads the build files that name include
// directories — compile_commands.json (-I, -iquote, -isystem) and
// CMakeLists.txt (include_directories, target_include_directories) — and
// answers them as the project info: one repository-relative directory a
// line, sorted. #include keys are then tried in those directories, after
// the including file's own and before the repository root.

func init() { extract.RegisterProject(project) }

// conventionalInclude is searched after the declared include directories:
// most C projects keep their public headers there.
const conventionalInclude = "include"

// project computes the include directories of the tree.
func project(in *abi.ProjectInput) ([]byte, error) {
	dirs := map[string]bool{}
	for _, f := range in.Files {
		switch path.Base(f.Path) {
		case "compile_commands.json":
			compileCommands(in.Root, f, dirs)
		case "CMakeLists.txt":
			cmakeIncludes(f, dirs)
		}
	}
	out := make([]string, 0, len(dirs))
	for d := range dirs {
		out = append(out, d)
	}
	slices.Sort(out)
	info := strings.Join(out, "\n")
	if len(info) > abi.MaxProjectInfo {
		info = info[:strings.LastIndexByte(info[:abi.MaxProjectInfo], '\n')+1]
	}
	return []byte(info), nil
}

// includeDirs is the project info read back: the declared include
// directories, then the conventional one.
func includeDirs(info []byte) []string {
	var dirs []string
	for _, l := range strings.Split(string(info), "\n") {
		if l != "" && l != conventionalInclude {
			dirs = append(dirs, l)
		}
	}
	return append(dirs, conventionalInclude)
}

// addDir records a directory, given relative to the extraction root, if
// it stays inside the root.
func addDir(dirs map[string]bool, d string) {
	d = path.Clean(d)
	if d == "." || d == "" || d == ".." || strings.HasPrefix(d, "../") || strings.HasPrefix(d, "/") {
		return
	}
	dirs[d] = true
}

// compileCommand is one entry of compile_commands.json.
type compileCommand struct {
	Directory string   `json:"directory"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// compileCommands reads the -I flags of a compilation database.
func compileCommands(root string, f abi.ProjectFile, dirs map[string]bool) {
	var cmds []compileCommand
	if json.Unmarshal(f.Data, &cmds) != nil {
		return // not a compilation database: nothing to learn
	}
	for _, c := range cmds {
		args := c.Arguments
		if len(args) == 0 {
			args = strings.Fields(c.Command)
		}
		for i := 0; i < len(args); i++ {
			d, ok := includeFlag(args, &i)
			if !ok {
				continue
			}
			if !path.IsAbs(d) {
				d = path.Join(c.Directory, d)
			}
			if rel, ok := strings.CutPrefix(path.Clean(d), strings.TrimSuffix(root, "/")+"/"); ok {
				addDir(dirs, rel)
			}
		}
	}
}

// includeFlag reads -Idir, -I dir, -iquote dir, -isystem dir at args[*i].
func includeFlag(args []string, i *int) (string, bool) {
	a := args[*i]
	for _, flag := range []string{"-I", "-iquote", "-isystem"} {
		if a == flag && *i+1 < len(args) {
			*i++
			return args[*i], true
		}
		if v, ok := strings.CutPrefix(a, flag); ok && v != "" && flag == "-I" {
			return v, true
		}
	}
	return "", false
}

// cmakeInclude matches include_directories(…) and
// target_include_directories(target …).
var cmakeInclude = regexp.MustCompile(`(?is)\b(target_)?include_directories\s*\(([^)]*)\)`)

// cmakeKeywords are the arguments that name no directory.
var cmakeKeywords = map[string]bool{"PUBLIC": true, "PRIVATE": true, "INTERFACE": true, "SYSTEM": true, "BEFORE": true, "AFTER": true}

// cmakeIncludes reads the include directories a CMakeLists.txt declares,
// relative to its own directory. Arguments built from variables other than
// the source-directory ones are skipped: their value is not here.
func cmakeIncludes(f abi.ProjectFile, dirs map[string]bool) {
	base := path.Dir(f.Path)
	for _, m := range cmakeInclude.FindAllSubmatch(f.Data, -1) {
		args := strings.Fields(string(m[2]))
		if len(m[1]) > 0 && len(args) > 0 {
			args = args[1:] // the target
		}
		for _, a := range args {
			a = strings.Trim(a, `"`)
			if inner, ok := strings.CutPrefix(a, "$<BUILD_INTERFACE:"); ok {
				a = strings.TrimSuffix(inner, ">")
			}
			for _, v := range []string{"${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}"} {
				a = strings.ReplaceAll(a, v, base)
			}
			if cmakeKeywords[a] || a == "" || strings.ContainsAny(a, "$<>") || path.IsAbs(a) {
				continue
			}
			addDir(dirs, path.Join(base, a))
		}
	}
}

// includeKeys are the repository paths an #include may name, in the
// order a compiler searches: next to the including file (quoted form
// only), the include directories, then the repository root.
func includeKeys(from, spec string, quoted bool, incDirs []string) []string {
	var keys []string
	add := func(k string) {
		k = path.Clean(k)
		if k != "." && !strings.HasPrefix(k, "../") && k != ".." && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if quoted {
		add(path.Join(path.Dir(from), spec))
	}
	for _, d := range incDirs {
		add(path.Join(d, spec))
	}
	add(spec)
	return keys
}

// isTestFile reports a test file by the usual C and C++ conventions: a
// name like foo_test.cc, foo_unittest.cc, test_foo.c, or a test(s)/
// directory.
func isTestFile(p string) bool {
	name := strings.TrimSuffix(path.Base(p), path.Ext(p))
	if strings.HasSuffix(name, "_test") || strings.HasSuffix(name, "_unittest") || strings.HasSuffix(name, "_tests") ||
		strings.HasPrefix(name, "test_") {
		return true
	}
	for _, part := range strings.Split(path.Dir(p), "/") {
		if part == "test" || part == "tests" || part == "testing" {
			return true
		}
	}
	return false
}
