package tools

import "time"

// FreshnessMetaKey is the _meta key of every tool result that says how
// current the served graph is.
const FreshnessMetaKey = "synaptic/freshness"

// Freshness says how current the served graph is (serve's auto-freshen):
// an assistant can tell an answer from a graph that lags its edits.
type Freshness struct {
	// GraphBuilt is when the served graph was made (extracted, patched or
	// loaded), RFC 3339 UTC.
	GraphBuilt string `json:"graph_built"`
	// Commit is the git commit graph.json says it was built at, if any.
	Commit string `json:"built_at_commit,omitempty"`
	// PendingFiles are changed files the served graph does not include
	// yet (a catch-up over the patch threshold runs in the background).
	PendingFiles int `json:"pending_files"`
	// ProvisionalFiles were patched in; links from other packages into
	// them are re-resolved in the background.
	ProvisionalFiles int `json:"provisional_files"`
}

// FreshnessAt fills GraphBuilt from t.
func FreshnessAt(t time.Time) Freshness {
	return Freshness{GraphBuilt: t.UTC().Format(time.RFC3339)}
}
