package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
)

// TestPrintLanguageTimes: extract -v lists the slowest plugin first, ties
// by name, one line per language.
func TestPrintLanguageTimes(t *testing.T) {
	tests := []struct {
		name string
		by   map[string]extract.LanguageTime
		want []string // language names in printed order
	}{
		{"none", nil, nil},
		{"slowest first", map[string]extract.LanguageTime{
			"c":  {Files: 2, Plugin: time.Second},
			"go": {Files: 9, Bytes: 2e6, Plugin: 5 * time.Second},
		}, []string{"go", "c"}},
		{"ties by name", map[string]extract.LanguageTime{
			"rust": {Plugin: time.Second}, "java": {Plugin: time.Second}, "php": {Plugin: time.Second},
		}, []string{"java", "php", "rust"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			printLanguageTimes(&b, tt.by)
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(tt.want) == 0 {
				if b.Len() != 0 {
					t.Fatalf("printed %q for no languages", b.String())
				}
				return
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(tt.want), b.String())
			}
			for i, l := range tt.want {
				if f := strings.Fields(lines[i]); f[0] != l {
					t.Errorf("line %d is %q, want language %s first", i, lines[i], l)
				}
			}
		})
	}
	var b strings.Builder
	printLanguageTimes(&b, map[string]extract.LanguageTime{"go": {Files: 3, Bytes: 1.5e6, ParseCPU: 2 * time.Second, SerializeCPU: time.Second / 2, Plugin: 4 * time.Second, PluginCPU: 3 * time.Second}})
	if want := "go                3 files     1.50 MB: parse 2.00 CPU-s, serialize 0.50 CPU-s, plugin 4.00 s, 3.00 CPU-s"; strings.TrimSpace(b.String()) != want {
		t.Errorf("got %q, want %q", strings.TrimSpace(b.String()), want)
	}
}
