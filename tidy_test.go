package synaptic_test

import (
	"os/exec"
	"testing"
)

// TestGoModTidy fails when go.mod or go.sum is not what `go mod tidy`
// writes: a dependency imported directly but marked // indirect, one no
// longer used, or a missing sum. It changes nothing (go mod tidy -diff).
func TestGoModTidy(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: go mod tidy may need the module proxy")
	}
	out, err := exec.Command("go", "mod", "tidy", "-diff").CombinedOutput()
	if err != nil {
		t.Fatalf("go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result\n%s", out)
	}
}
