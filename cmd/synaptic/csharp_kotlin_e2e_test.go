package main_test

import (
	"strings"
	"testing"
)

// TestExtractCSharpAndKotlin: the built binary extracts C# and Kotlin with
// their built-in plugins and links calls across files through usings and
// imports: a method called on a typed local, and a constructor call
// naming a class of another namespace or package.
func TestExtractCSharpAndKotlin(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"App/Models/Order.cs": "namespace App.Models;\n\npublic class Order\n{\n    public void Ship() { }\n}\n",
		"App/Services/OrderService.cs": "using App.Models;\n\nnamespace App.Services;\n\npublic class OrderService\n{\n" +
			"    private readonly Order last = new Order();\n" +
			"    public void Run()\n    {\n        var o = new Order();\n        o.Ship();\n        last.Ship();\n    }\n}\n",
		"app/models/Item.kt": "package app.models\n\nclass Item {\n    fun ship() {}\n}\n",
		"app/Main.kt":        "package app\n\nimport app.models.Item\n\nclass Main(private val first: Item) {\n    fun run() {\n        val i = Item()\n        i.ship()\n        first.ship()\n    }\n}\n",
	})
	out := run(t, root, false, "extract", ".")
	for _, want := range []string{"4 files", "csharp 2", "kotlin 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
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
	for _, e := range []struct{ from, fromLabel, to, toLabel string }{
		{"App/Services/OrderService.cs", ".Run()", "App/Models/Order.cs", ".Ship()"},
		{"App/Services/OrderService.cs", ".Run()", "App/Models/Order.cs", "Order"},
		{"app/Main.kt", ".run()", "app/models/Item.kt", ".ship()"},
		{"app/Main.kt", ".run()", "app/models/Item.kt", "Item"},
	} {
		if src, dst := id(e.from, e.fromLabel), id(e.to, e.toLabel); !hasEdge(g, src, "calls", dst) {
			t.Errorf("no calls edge %s %s -> %s %s", e.from, e.fromLabel, e.to, e.toLabel)
		}
	}
}
