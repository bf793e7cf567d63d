// Command testselect measures affected_tests' test selection by mutation:
// it copies real packages of $(go env GOROOT)/src into a temporary git
// repository (one module), extracts it with bin/synaptic, then breaks one
// function at a time (a panic as its first statement), asks
// `synaptic affected-tests` which tests the edit reaches, runs the
// package's real tests and compares.
//
// Safe-selection recall = failing tests predicted ÷ failing tests;
// selection = predicted tests ÷ the package's suite. A panic aborts a test
// binary, so the tests are rerun with the failed ones skipped until the
// binary finishes: every test that fails is found, not only the first.
//
//	go run ./eval/testselect -bin bin/synaptic -per 6
//
// Running the tests takes most of the time and does not depend on
// synaptic: -cache FILE keeps every package's and mutant's test outcome
// (keyed by the Go version, package, mutant and offset), so a rerun after a
// change to the selection only runs affected-tests.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
)

// module is the temp module's path; a copied package P is module/P.
const module = "evalmod"

// mutantMark is the injected statement: a panic names the mutant.
const mutantMark = `panic("synaptic-mutant");`

var defaultPkgs = "encoding/csv,text/tabwriter,container/list,container/ring,encoding/hex,encoding/base32,html," +
	"text/scanner,encoding/pem,mime/quotedprintable,image/color,encoding/ascii85,text/template/parse,go/token"

func main() {
	bin := flag.String("bin", "bin/synaptic", "the synaptic binary")
	pkgs := flag.String("pkgs", defaultPkgs, "comma-separated GOROOT/src packages (no internal/ imports)")
	per := flag.Int("per", 6, "mutants per package (functions sampled evenly by position)")
	depths := flag.String("depths", "3,5", "affected_tests depths to score")
	keep := flag.Bool("keep", false, "keep the temp repository")
	verbose := flag.Bool("v", false, "print every mutant")
	cacheFile := flag.String("cache", "", "keep test outcomes in this JSON file and reuse them")
	mod := flag.String("module", "", "evaluate a whole Go module instead (a directory, e.g. one of $(go env GOMODCACHE)): every package of it with tests")
	pyMods := flag.String("python", "", "evaluate these CPython modules instead (comma-separated; needs Debian's libpython3.11-testsuite), e.g. textwrap,shlex")
	summary := flag.String("summary", "", "append this run's sums per depth to FILE (one JSON object a line), for -total")
	corpus := flag.String("corpus", "", "the corpus's name in the -summary file (default: what the run evaluates, e.g. \"packages of GOROOT/src\")")
	total := flag.String("total", "", "print the pooled table of a -summary FILE (every corpus, all Go, all) and exit")
	python := flag.String("python-bin", "/usr/bin/python3.11", "the interpreter of the CPython test suite (-python)")
	stdlib := flag.String("stdlib", "/usr/lib/python3.11", "its standard library, with test/ (-python)")
	flag.Parse()
	if *total != "" {
		all, err := readSummary(*total)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testselect:", err)
			os.Exit(1)
		}
		printTotal(os.Stdout, all)
		return
	}
	summaryFile, corpusName = *summary, *corpus
	outcomes = loadCache(*cacheFile)
	var err error
	switch {
	case *pyMods != "":
		err = runPython(*bin, strings.Split(*pyMods, ","), pyEnv{python: *python, stdlib: *stdlib}, *per, parseDepths(*depths), *keep, *verbose)
	case *mod != "":
		err = runModule(*bin, *mod, *per, parseDepths(*depths), *keep, *verbose)
	default:
		err = run(*bin, strings.Split(*pkgs, ","), *per, parseDepths(*depths), *keep, *verbose)
	}
	if cerr := saveCache(*cacheFile); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testselect:", err)
		os.Exit(1)
	}
}

func parseDepths(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		var d int
		if _, err := fmt.Sscan(f, &d); err == nil && d > 0 {
			out = append(out, d)
		}
	}
	return out
}

// summaryFile and corpusName are -summary and -corpus.
var summaryFile, corpusName string

// score accumulates one depth's figures.
type score struct {
	failing, predictedFailing int     // micro recall
	recallSum, selectSum      float64 // macro averages
	mutants                   int     // killed mutants scored
	selectAll                 float64 // selection over every mutant, killed or not
	all                       int
	perfect                   int     // mutants whose every failing test was predicted
	oracleSum                 float64 // failing ÷ suite: what a perfect selector would pick
	// extra counts, by how the selection found them, the selected tests
	// that pass with the mutant (killed mutants only).
	extra map[string]int
}

func run(bin string, pkgs []string, per int, depths []int, keep, verbose bool) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	goroot, err := output("", "go", "env", "GOROOT")
	if err != nil {
		return err
	}
	repo, err := os.MkdirTemp("", "testselect")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(repo)
	} else {
		fmt.Println("repository:", repo)
	}
	var copied []string
	for _, p := range pkgs {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if err := copyPackage(filepath.Join(strings.TrimSpace(goroot), "src", p), filepath.Join(repo, p), p); err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", p, err)
			continue
		}
		copied = append(copied, p)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module "+module+"\n\ngo 1.24\n"), 0o644); err != nil {
		return err
	}
	return evaluate(repo, bin, "packages of GOROOT/src", copied, per, depths, verbose)
}

// evaluate commits repo as the base, extracts it, and scores every
// package of pkgs (repo-relative directories).
func evaluate(repo, bin, what string, pkgs []string, per int, depths []int, verbose bool) error {
	ignore, _ := os.ReadFile(filepath.Join(repo, ".gitignore"))
	os.WriteFile(filepath.Join(repo, ".gitignore"), append(ignore, "synaptic-out/\n*.test\n"...), 0o644)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=eval", "-c", "user.email=eval@localhost", "commit", "-q", "-m", "base"}} {
		if _, err := output(repo, "git", args...); err != nil {
			return err
		}
	}
	if _, err := output(repo, bin, "extract", ".", "--quiet"); err != nil {
		return err
	}
	scores := make([]score, len(depths))
	start := time.Now()
	evaluated := 0
	for _, p := range pkgs {
		suite, err := cachedRun(repo, p, "baseline")
		if err != nil || len(suite.Passed) == 0 {
			fmt.Fprintf(os.Stderr, "skip %s: baseline tests do not pass (%v)\n", p, err)
			continue
		}
		muts, err := lang.mutants(repo, p, per)
		if err != nil {
			return err
		}
		evaluated++
		for _, m := range muts {
			if err := evalMutant(repo, bin, p, m, suite, depths, scores, verbose); err != nil {
				fmt.Fprintf(os.Stderr, "%s %s: %v\n", p, m.name, err)
			}
		}
	}
	fmt.Printf("test selection by mutation: %d %s evaluated (of %d), %.0fs\n", evaluated, what, len(pkgs), time.Since(start).Seconds())
	if summaryFile != "" {
		name := corpusName
		if name == "" {
			name = what
		}
		if err := appendSummary(summaryFile, name, lang.name(), depths, scores); err != nil {
			return err
		}
	}
	for k, d := range depths {
		s := scores[k]
		if s.mutants == 0 {
			fmt.Printf("depth %d: no killed mutant\n", d)
			continue
		}
		fmt.Printf("depth %d: %d killed mutants (%d scored in all): recall %.3f (micro, %d/%d failing tests), %.3f (mean per mutant), %d/%d mutants fully covered; selected %.1f%% of the suite on killed mutants (the failing tests alone are %.1f%%), %.1f%% on all\n",
			d, s.mutants, s.all, float64(s.predictedFailing)/float64(s.failing), s.predictedFailing, s.failing,
			s.recallSum/float64(s.mutants), s.perfect, s.mutants, 100*s.selectSum/float64(s.mutants), 100*s.oracleSum/float64(s.mutants), 100*s.selectAll/float64(s.all))
		if verbose && len(s.extra) > 0 {
			fmt.Printf("  selected tests that pass, by how they were found: %s\n", byCount(s.extra))
		}
	}
	return nil
}

// copyPackage copies a package's .go files and testdata, rewriting the
// package's own import path in its external tests to the module's.
func copyPackage(src, dst, importPath string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if rel != "." && !strings.HasPrefix(rel, "testdata") {
				return filepath.SkipDir // subpackages are their own packages
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(rel, "testdata") && !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".go") && !strings.HasPrefix(rel, "testdata") {
			b = bytes.ReplaceAll(b, []byte(`"`+importPath+`"`), []byte(`"`+module+"/"+importPath+`"`))
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}

type mutant struct {
	file string // relative to the package dir
	name string
	at   int    // byte offset where text goes (just past the body's { in Go)
	text string // the injected statement
}

// language is what differs between the Go and the Python evaluations:
// how mutants are found, how a package's tests run, and how a predicted
// test row names one of them.
type language interface {
	mutants(repo, pkg string, n int) ([]mutant, error)
	run(repo, pkg string) (result, error)
	testName(pkg string, t predictedTest) string
	dir(pkg string) string // the repo-relative directory of pkg's code
	name() string          // the language, for -summary
}

// lang is the language of this run.
var lang language = goLang{}

// goLang evaluates Go packages.
type goLang struct{}

func (goLang) mutants(repo, pkg string, n int) ([]mutant, error) {
	return mutants(filepath.Join(repo, pkg), n)
}

func (goLang) dir(pkg string) string { return pkg }

func (goLang) name() string { return "go" }

func (goLang) run(repo, pkg string) (result, error) { return testsThatRun(repo, pkg) }

// testName keeps pkg's top-level test functions.
func (goLang) testName(pkg string, t predictedTest) string {
	if filepath.ToSlash(filepath.Dir(t.File)) != pkg {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(t.Label, "."), "()")
}

// spread picks up to n of all, evenly by position.
func spread(all []mutant, n int) []mutant {
	if len(all) <= n {
		return all
	}
	out := make([]mutant, 0, n)
	for k := 0; k < n; k++ {
		out = append(out, all[k*len(all)/n])
	}
	return out
}

// mutants picks up to n functions with a non-empty body, evenly by
// position across the package's non-test files.
func mutants(dir string, n int) ([]mutant, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	sort.Strings(files)
	var all []mutant
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if hasBuildConstraint(af) {
			continue
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || len(fd.Body.List) == 0 || fd.Name.Name == "init" {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			all = append(all, mutant{file: filepath.Base(f), name: name, at: fset.Position(fd.Body.Lbrace).Offset + 1, text: mutantMark})
		}
	}
	return spread(all, n), nil
}

func hasBuildConstraint(f *ast.File) bool {
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

func evalMutant(repo, bin, pkg string, m mutant, suite result, depths []int, scores []score, verbose bool) error {
	path := filepath.Join(repo, lang.dir(pkg), m.file)
	orig, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	mutated := slices.Concat(orig[:m.at], []byte(m.text), orig[m.at:])
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		return err
	}
	defer os.WriteFile(path, orig, 0o644)
	res, err := cachedRun(repo, pkg, fmt.Sprintf("%s %s@%d", m.file, m.name, m.at))
	if err != nil {
		return err
	}
	var failing []string
	for _, t := range res.Failed {
		if suite.Passed[t] { // a test that passes unmutated
			failing = append(failing, t)
		}
	}
	for k, d := range depths {
		predicted, err := predict(repo, bin, pkg, d)
		if err != nil {
			return err
		}
		sel := 0
		for t := range predicted {
			if suite.Passed[t] {
				sel++
			}
		}
		killed := !res.InitCrash && len(failing) > 0
		over := map[string]int{} // this mutant's selected tests that pass, by how they were found
		if killed {
			fails := map[string]bool{}
			for _, t := range failing {
				fails[t] = true
			}
			s := &scores[k]
			if s.extra == nil {
				s.extra = map[string]int{}
			}
			for t, via := range predicted {
				if suite.Passed[t] && !fails[t] {
					s.extra[viaKind(via)]++
					over[viaKind(via)]++
				}
			}
		}
		frac := float64(sel) / float64(len(suite.Passed))
		s := &scores[k]
		s.all++
		s.selectAll += frac
		if res.InitCrash || len(failing) == 0 {
			if verbose && k == 0 {
				fmt.Printf("  %-22s %-28s not killed%s; %d selected\n", pkg, m.name, map[bool]string{true: " (crash before any test)"}[res.InitCrash], sel)
			}
			continue
		}
		hit := 0
		var missed []string
		for _, t := range failing {
			if _, ok := predicted[t]; ok {
				hit++
			} else {
				missed = append(missed, t)
			}
		}
		s.mutants++
		s.failing += len(failing)
		s.predictedFailing += hit
		s.recallSum += float64(hit) / float64(len(failing))
		s.selectSum += frac
		s.oracleSum += float64(len(failing)) / float64(len(suite.Passed))
		if hit == len(failing) {
			s.perfect++
		}
		if verbose {
			fmt.Printf("  depth %d %-22s %-28s %d/%d failing predicted, %d/%d selected, missed %v; passing selected by: %s\n", d, pkg, m.name, hit, len(failing), sel, len(suite.Passed), missed, byCount(over))
		}
	}
	return nil
}

// viaKind is the kind of a selected test's via_relation: what found it
// ("calls", "dispatch", "fallback: same file as", …), its details cut.
func viaKind(via string) string {
	switch {
	case strings.HasPrefix(via, "fallback: "), strings.HasPrefix(via, "named after"):
		if i := strings.LastIndex(via, " "); i > 0 {
			return via[:i]
		}
	case strings.Contains(via, "(dispatch on "):
		return "dispatch"
	case strings.Contains(via, "calls on it unlinked"):
		return "holds, calls unlinked"
	case strings.Contains(via, "(receiver type unknown)"):
		return "unlinked member call"
	case strings.Contains(via, "(through test helpers)"):
		return "through test helpers"
	}
	return "static: " + via
}

// byCount renders counts largest first.
func byCount(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// predict runs affected-tests on the working change and returns the
// predicted top-level test names of pkg, each with how it was found
// (its via_relation).
func predict(repo, bin, pkg string, depth int) (map[string]string, error) {
	out, err := output(repo, bin, "affected-tests", "--json", "--base", "HEAD", "--depth", fmt.Sprint(depth))
	if err != nil {
		return nil, err
	}
	var r struct{ Tests []predictedTest }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		return nil, fmt.Errorf("affected-tests output: %v", err)
	}
	got := map[string]string{}
	for _, t := range r.Tests {
		if name := lang.testName(pkg, t); name != "" {
			if _, dup := got[name]; !dup {
				got[name] = t.ViaRelation
			}
		}
	}
	return got, nil
}

// predictedTest is one row of affected-tests --json.
type predictedTest struct {
	Label, Qualified, File string
	ViaRelation            string `json:"via_relation"`
}

// result is one package's test outcome, top-level tests only.
type result struct {
	Passed    map[string]bool `json:"passed"`
	Failed    []string        `json:"failed"`
	InitCrash bool            `json:"init_crash"` // the binary died before reporting any test
}

// outcomes are the cached test outcomes, by cacheKey.
var outcomes = map[string]result{}

// corpusTag tells apart packages of the same path in different corpora
// (every module has a ".").
var corpusTag string

func cacheKey(pkg, what string) string {
	if corpusTag != "" {
		pkg = corpusTag + ":" + pkg
	}
	return runtime.Version() + " " + pkg + " " + what
}

// cachedRun is testsThatRun through the cache; what names the tree state
// (the baseline, or one mutant).
func cachedRun(repo, pkg, what string) (result, error) {
	if r, ok := outcomes[cacheKey(pkg, what)]; ok {
		return r, nil
	}
	r, err := lang.run(repo, pkg)
	if err == nil {
		outcomes[cacheKey(pkg, what)] = r
	}
	return r, err
}

func loadCache(path string) map[string]result {
	m := map[string]result{}
	if path == "" {
		return m
	}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			fmt.Fprintf(os.Stderr, "testselect: ignoring the cache %s: %v\n", path, err)
			return map[string]result{}
		}
	}
	return m
}

func saveCache(path string) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(outcomes, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

var statusLine = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+)`)

// maxReruns bounds the skip-and-rerun loop after panics.
const maxReruns = 40

// testsThatRun builds pkg's test binary and runs it, rerunning with the
// failed tests skipped while a panic cuts the run short.
func testsThatRun(repo, pkg string) (result, error) {
	dir := filepath.Join(repo, pkg)
	exe := filepath.Join(dir, "pkg.test")
	defer os.Remove(exe)
	if out, err := output(repo, "go", "test", "-c", "-o", exe, "./"+pkg); err != nil {
		return result{}, fmt.Errorf("build: %v %s", err, out)
	}
	res := result{Passed: map[string]bool{}}
	var skip []string
	for range maxReruns {
		args := []string{"-test.v", "-test.count=1", "-test.timeout=60s"}
		if len(skip) > 0 {
			args = append(args, "-test.skip", "^("+strings.Join(skip, "|")+")$")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Dir = dir
		out, _ := cmd.CombinedOutput()
		cancel()
		reported, newFail := 0, 0
		for _, line := range strings.Split(string(out), "\n") {
			m := statusLine.FindStringSubmatch(line)
			if m == nil || strings.Contains(m[2], "/") {
				continue
			}
			reported++
			switch m[1] {
			case "PASS", "SKIP":
				res.Passed[m[2]] = true
			case "FAIL":
				if !slices.Contains(res.Failed, m[2]) {
					res.Failed = append(res.Failed, m[2])
					newFail++
				}
			}
		}
		panicked := bytes.Contains(out, []byte("\npanic: ")) || bytes.HasPrefix(out, []byte("panic: "))
		if !panicked {
			return res, nil
		}
		if reported == 0 && len(skip) == 0 {
			res.InitCrash = true
			return res, nil
		}
		if newFail == 0 {
			return res, nil // a panic outside any test (an example's output, TestMain)
		}
		skip = append(skip[:0], res.Failed...)
	}
	return res, nil
}

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GOFLAGS=-mod=mod", "GOWORK=off")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}
