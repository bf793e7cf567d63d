package main_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// edgeCheck is one expected edge between nodes named by file and label.
type edgeCheck struct{ from, fromLabel, rel, to, toLabel string }

// checkEdges extracts root with the built binary and checks that every
// edge of want is in graph.json and that the files of tests (only those)
// are test files.
func checkEdges(t *testing.T, root string, summary []string, want []edgeCheck, tests map[string]bool) {
	t.Helper()
	out := run(t, root, false, "extract", ".")
	for _, w := range summary {
		if !strings.Contains(out, w) {
			t.Errorf("summary lacks %q:\n%s", w, out)
		}
	}
	g := parseGraph(t, root+"/synaptic-out/graph.json")
	id := func(file, label string) string {
		t.Helper()
		for _, n := range g.Nodes {
			if n.SourceFile == file && n.Label == label {
				return n.ID
			}
		}
		t.Fatalf("no node %q in %s", label, file)
		return ""
	}
	for _, e := range want {
		if src, dst := id(e.from, e.fromLabel), id(e.to, e.toLabel); !hasEdge(g, src, e.rel, dst) {
			t.Errorf("no %s edge %s %s -> %s %s", e.rel, e.from, e.fromLabel, e.to, e.toLabel)
		}
	}
	var files struct {
		Nodes []struct {
			Kind       string
			SourceFile string `json:"source_file"`
			IsTest     bool   `json:"_is_test"`
		}
	}
	if err := json.Unmarshal(read(t, root+"/synaptic-out/graph.json"), &files); err != nil {
		t.Fatal(err)
	}
	for _, n := range files.Nodes {
		if want, listed := tests[n.SourceFile]; listed && n.Kind == "file" && n.IsTest != want {
			t.Errorf("%s: is_test %v, want %v", n.SourceFile, n.IsTest, want)
		}
	}
}

// TestExtractJavaV2: the Java plugin on ABI v2 links what the language
// resolves: a single-type import, a static import, a same-package class
// without an import, a Kotlin class of the same package (one JVM
// package), and a typed local's method; JUnit test files are tests.
func TestExtractJavaV2(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"src/main/java/com/shop/model/Order.java": "package com.shop.model;\n\npublic class Order {\n" +
			"    public void ship() {\n        Money m = new Money();\n        m.add();\n    }\n}\n",
		"src/main/java/com/shop/model/Money.kt":    "package com.shop.model\n\nclass Money {\n    fun add() {}\n}\n",
		"src/main/java/com/shop/util/Strings.java": "package com.shop.util;\n\npublic final class Strings {\n    public static String join() { return \"\"; }\n}\n",
		"src/main/java/com/shop/Helper.java":       "package com.shop;\n\nclass Helper {\n    static void help() {}\n}\n",
		"src/main/java/com/shop/Service.java": "package com.shop;\n\nimport com.shop.model.Order;\nimport static com.shop.util.Strings.join;\n\n" +
			"class Service {\n    void run() {\n        Order o = new Order();\n        o.ship();\n        join();\n        Helper.help();\n    }\n}\n",
		"src/test/java/com/shop/ServiceTest.java": "package com.shop;\n\nclass ServiceTest {\n    @Test\n    void runs() {\n        new Service().run();\n    }\n}\n",
	})
	checkEdges(t, root, []string{"6 files", "java 5", "kotlin 1"}, []edgeCheck{
		{"src/main/java/com/shop/Service.java", ".run()", "calls", "src/main/java/com/shop/model/Order.java", ".ship()"},
		{"src/main/java/com/shop/Service.java", ".run()", "calls", "src/main/java/com/shop/model/Order.java", "Order"},
		{"src/main/java/com/shop/Service.java", ".run()", "calls", "src/main/java/com/shop/util/Strings.java", ".join()"},
		{"src/main/java/com/shop/Service.java", ".run()", "calls", "src/main/java/com/shop/Helper.java", ".help()"},
		{"src/main/java/com/shop/model/Order.java", ".ship()", "calls", "src/main/java/com/shop/model/Money.kt", ".add()"},
		{"src/test/java/com/shop/ServiceTest.java", ".runs()", "calls", "src/main/java/com/shop/Service.java", ".run()"},
		{"src/main/java/com/shop/Service.java", "Service.java", "imports_from", "src/main/java/com/shop/model/Order.java", "Order.java"},
	}, map[string]bool{"src/test/java/com/shop/ServiceTest.java": true, "src/main/java/com/shop/Service.java": false})
}

// TestExtractRustV2: the Rust plugin reads Cargo.toml (a dashed package
// name), keys each file by its module path, and links `use` of the
// crate's own name, `use a::{self, T}`, a `mod tax;` child, a Self
// constructor's result and an integration test's import.
func TestExtractRustV2(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"Cargo.toml": "[package]\nname = \"shop-core\"\nversion = \"0.1.0\"\n",
		"src/lib.rs": "pub mod billing;\n\npub fn helper() {}\n",
		"src/billing/mod.rs": "pub mod tax;\n\npub struct Invoice {}\n\nimpl Invoice {\n    pub fn new() -> Self { Invoice {} }\n" +
			"    pub fn total(&self) -> u32 { tax::rate() }\n}\n",
		"src/billing/tax.rs": "pub fn rate() -> u32 { 1 }\n",
		"src/main.rs": "use shop_core::billing::{self, Invoice};\nuse shop_core::billing::tax;\n\n" +
			"fn main() {\n    let i = Invoice::new();\n    i.total();\n    tax::rate();\n    shop_core::helper();\n    let _ = billing::Invoice::new();\n}\n",
		"tests/it.rs": "use shop_core::helper;\n\n#[test]\nfn works() {\n    helper();\n}\n",
	})
	checkEdges(t, root, []string{"5 files", "rust 5"}, []edgeCheck{
		{"src/main.rs", "main()", "calls", "src/billing/mod.rs", ".new()"},
		{"src/main.rs", "main()", "calls", "src/billing/mod.rs", ".total()"},
		{"src/main.rs", "main()", "calls", "src/billing/tax.rs", "rate()"},
		{"src/billing/mod.rs", ".total()", "calls", "src/billing/tax.rs", "rate()"},
		{"tests/it.rs", "works()", "calls", "src/lib.rs", "helper()"},
		{"src/main.rs", "main.rs", "imports_from", "src/billing/mod.rs", "mod.rs"},
		{"src/lib.rs", "lib.rs", "imports_from", "src/billing/mod.rs", "mod.rs"},
	}, map[string]bool{"tests/it.rs": true, "src/billing/mod.rs": false})
}

// TestExtractRustReexports: `pub use` re-exports (one name, a renamed
// one, a glob) are followed, by an imported name and by a call through a
// module path (crate::a::f(), a::g(), the library's name from a binary,
// super::), so every call links to the definition with proof.
func TestExtractRustReexports(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"Cargo.toml": "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
		"src/lib.rs": "pub mod a;\npub mod c;\n\npub fn top() {\n    crate::a::f();\n    a::g();\n    crate::a::h();\n}\n",
		"src/a/mod.rs": "pub mod b;\nmod hidden;\npub use self::b::f;\npub use self::b::g as g;\npub use hidden::*;\n" +
			"pub mod d;\n",
		"src/a/b.rs":      "pub fn f() {}\npub fn g() {}\n",
		"src/a/hidden.rs": "pub fn h() {}\n",
		"src/a/d.rs":      "pub fn up() {\n    super::f();\n    super::super::top();\n}\n",
		"src/c.rs":        "use crate::a::f;\nuse crate::a;\n\npub fn user() {\n    f();\n    a::g();\n}\n",
		"src/main.rs":     "use demo::a::f;\n\nfn main() {\n    f();\n    demo::a::h();\n}\n",
	})
	out := run(t, root, false, "extract", ".")
	g := parseGraph(t, root+"/synaptic-out/graph.json")
	id := func(file, label string) string {
		t.Helper()
		for _, n := range g.Nodes {
			if n.SourceFile == file && n.Label == label {
				return n.ID
			}
		}
		t.Fatalf("no node %q in %s:\n%s", label, file, out)
		return ""
	}
	for _, e := range []edgeCheck{
		{"src/lib.rs", "top()", "calls", "src/a/b.rs", "f()"},
		{"src/lib.rs", "top()", "calls", "src/a/b.rs", "g()"},
		{"src/lib.rs", "top()", "calls", "src/a/hidden.rs", "h()"},
		{"src/c.rs", "user()", "calls", "src/a/b.rs", "f()"},
		{"src/c.rs", "user()", "calls", "src/a/b.rs", "g()"},
		{"src/main.rs", "main()", "calls", "src/a/b.rs", "f()"},
		{"src/main.rs", "main()", "calls", "src/a/hidden.rs", "h()"},
		{"src/a/d.rs", "up()", "calls", "src/a/b.rs", "f()"},
		{"src/a/d.rs", "up()", "calls", "src/lib.rs", "top()"},
	} {
		src, dst := id(e.from, e.fromLabel), id(e.to, e.toLabel)
		found := false
		for _, l := range g.Links {
			if l.Source == src && l.Relation == e.rel && l.Target == dst {
				found = true
				if l.Confidence != "EXTRACTED" {
					t.Errorf("%s %s -> %s %s is %s, want EXTRACTED", e.from, e.fromLabel, e.to, e.toLabel, l.Confidence)
				}
			}
		}
		if !found {
			t.Errorf("no %s edge %s %s -> %s %s", e.rel, e.from, e.fromLabel, e.to, e.toLabel)
		}
	}
	for _, n := range g.Nodes {
		if n.Kind == "module" && n.SourceFile == "" && (strings.HasPrefix(n.Label, "crate") || strings.HasPrefix(n.Label, "super")) {
			t.Errorf("a path root became an external stub: %+v", n)
		}
	}
}
