package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// runModule evaluates a whole third-party module as its authors laid it
// out: the module is copied into a temporary git repository with its own
// go.mod (its dependencies come from the module cache or the proxy), and
// every package of it that has tests is scored, in the module's own test
// conventions. The module's directory is left untouched.
func runModule(bin, modDir string, per int, depths []int, keep, verbose bool) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	modDir, err = filepath.Abs(modDir)
	if err != nil {
		return err
	}
	repo, err := os.MkdirTemp("", "testselect-mod")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(repo)
	}
	pkgs, err := copyModule(modDir, repo)
	if err != nil {
		return err
	}
	corpusTag = filepath.Base(modDir)
	return evaluate(repo, bin, "packages of "+filepath.Base(modDir), pkgs, per, depths, verbose)
}

// copyModule copies modDir into dst (writable: the module cache is
// read-only) and returns the directories holding both code and tests,
// sorted. Nested modules, vendor and hidden directories are left out.
func copyModule(modDir, dst string) ([]string, error) {
	hasCode, hasTest := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(modDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(modDir, p)
		if d.IsDir() {
			base := d.Name()
			if rel != "." && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "vendor") {
				return filepath.SkipDir
			}
			if rel != "." && isFile(filepath.Join(p, "go.mod")) {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if strings.HasSuffix(p, ".go") && !underTestdata(dir) {
			if strings.HasSuffix(p, "_test.go") {
				hasTest[dir] = true
			} else {
				hasCode[dir] = true
			}
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	var pkgs []string
	for dir := range hasTest {
		if hasCode[dir] {
			pkgs = append(pkgs, dir)
		}
	}
	slices.Sort(pkgs)
	return pkgs, err
}

func underTestdata(dir string) bool {
	return slices.Contains(strings.Split(dir, "/"), "testdata")
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
