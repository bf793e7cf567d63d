package main_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCLISearchText: search_text through the real binary, on a freshly
// extracted repository: attribution to the enclosing function, output
// directories skipped, bad patterns refused with a clear message.
func TestCLISearchText(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "search_text", "pattern=price.WithTax", "literal=true")
	if !strings.Contains(out, "cart/cart.go:15:10 sum += price.WithTax(it.Cents)") || !strings.Contains(out, "[.Total() method]") {
		t.Errorf("search_text price.WithTax:\n%s", out)
	}
	out = run(t, root, false, "call", "--json", "search_text", `pattern=x / 1\d+`)
	var st struct {
		Total        int  `json:"total"`
		Truncated    bool `json:"truncated"`
		FilesScanned int  `json:"files_scanned"`
		Hits         []struct {
			File string `json:"file"`
			Line int    `json:"line"`
			Node *struct {
				Label string `json:"label"`
			} `json:"node"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if st.Total != 1 || st.Hits[0].File != "price/price.go" || st.Hits[0].Node == nil || st.Hits[0].Node.Label != "round()" {
		t.Errorf("structured %+v:\n%s", st, out)
	}
	// graph.json and the report under synaptic-out/ hold "WithTax" too.
	out = run(t, root, false, "call", "search_text", "pattern=WithTax")
	if strings.Contains(out, "synaptic-out") {
		t.Errorf("searched synaptic output:\n%s", out)
	}
	out = run(t, root, true, "call", "search_text", "pattern=(unclosed")
	if !strings.Contains(out, "not a valid RE2 regular expression") {
		t.Errorf("bad regex:\n%s", out)
	}
}
