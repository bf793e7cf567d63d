package resolve

import (
	"context"
	"errors"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestBuildContextStopsWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _, err := BuildContext(ctx, []File{{Path: "a.go", Facts: &abi.Facts{}}})
	if !errors.Is(err, context.Canceled) || g != nil {
		t.Fatalf("BuildContext on a canceled context = (%v, %v), want (nil, context.Canceled)", g, err)
	}
	g, _, err = BuildContext(context.Background(), []File{{Path: "a.go", Facts: &abi.Facts{}}})
	if err != nil || g == nil || len(g.Nodes) == 0 {
		t.Fatalf("BuildContext = (%v, %v), want the file's graph", g, err)
	}
}
