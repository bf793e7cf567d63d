package graph

import (
	sdkextract "github.com/synaptic-graph/synaptic/sdk/extract"
)

// IsTestPath reports whether a repo-relative path is a test file by the
// cross-language conventions (a test, tests, __tests__ or testing folder;
// x_test.go, test_x.py, x.test.ts, x.spec.js, conftest.py, FooTest.java;
// not a bare spec/ folder). The rule is the SDK's, so a plugin that adopts
// it and the host never disagree about which files are tests.
func IsTestPath(p string) bool { return sdkextract.ConventionalTestPath(p) }

// IsTestNode reports whether n is test code: marked by its language's own
// test markers at extraction (Go TestX(t *testing.T) in a _test.go file,
// pytest test_* functions and Test* classes, JUnit @Test methods, Rust
// #[test] functions and #[cfg(test)] modules), or defined under a test
// path. A test file's own node counts: Jest/Vitest describe/it callbacks
// and script-style tests call the code from the file's top level.
func IsTestNode(n *Node) bool { return n.IsTest || n.SourceFile != "" && IsTestPath(n.SourceFile) }
