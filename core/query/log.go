package query

import (
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Entry is one logged query, a JSONL line.
type Entry struct {
	Time          time.Time `json:"time"`
	Question      string    `json:"question"`
	Mode          string    `json:"mode"`
	Full          bool      `json:"full,omitempty"`
	TokenBudget   int       `json:"token_budget"`
	ContextFilter []string  `json:"context_filter,omitempty"`
	Since         string    `json:"since,omitempty"`
	RecencyMode   string    `json:"recency_mode,omitempty"`
	Seeds         []string  `json:"seeds"`
	Nodes         int       `json:"nodes"`
	Top           []string  `json:"top"`
	Truncated     bool      `json:"truncated,omitempty"`
	ElapsedMS     float64   `json:"elapsed_ms"`
}

// Logger records queries. Implementations must be safe for concurrent use;
// logging must never fail a query, so Log returns nothing.
type Logger interface {
	Log(Entry)
}

// Env variables of the query log.
const (
	EnvQueryLog        = "SYNAPTIC_QUERY_LOG"
	EnvQueryLogDisable = "SYNAPTIC_QUERY_LOG_DISABLE"
)

// LoggerFromEnv returns a FileLogger on $SYNAPTIC_QUERY_LOG, or nil when it
// is unset or SYNAPTIC_QUERY_LOG_DISABLE=1 (any value but "", "0", "false").
func LoggerFromEnv() Logger {
	return loggerFrom(os.Getenv)
}

func loggerFrom(getenv func(string) string) Logger {
	path := getenv(EnvQueryLog)
	switch getenv(EnvQueryLogDisable) {
	case "", "0", "false", "FALSE", "False":
	default:
		return nil
	}
	if path == "" {
		return nil
	}
	return &FileLogger{Path: path}
}

// FileLogger appends each entry as one JSON line to Path. The file is opened
// per entry (O_APPEND), so rotation or deletion by another process is
// harmless and concurrent servers do not interleave within a line.
type FileLogger struct {
	Path string
	mu   sync.Mutex
}

// Log appends e; errors are dropped on purpose (see Logger).
func (l *FileLogger) Log(e Entry) {
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.Write(line)
	_ = f.Close()
}
