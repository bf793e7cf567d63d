package query

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestLoggerFromEnv(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if l := loggerFrom(env(nil)); l != nil {
		t.Error("logger without SYNAPTIC_QUERY_LOG")
	}
	if l, ok := loggerFrom(env(map[string]string{EnvQueryLog: "/tmp/q.jsonl"})).(*FileLogger); !ok || l.Path != "/tmp/q.jsonl" {
		t.Errorf("logger = %#v", l)
	}
	for _, v := range []string{"1", "true", "yes"} {
		if l := loggerFrom(env(map[string]string{EnvQueryLog: "/tmp/q.jsonl", EnvQueryLogDisable: v})); l != nil {
			t.Errorf("DISABLE=%s still logs", v)
		}
	}
	if l := loggerFrom(env(map[string]string{EnvQueryLog: "/tmp/q.jsonl", EnvQueryLogDisable: "0"})); l == nil {
		t.Error("DISABLE=0 turned logging off")
	}
}

func TestEngineLogsEachQueryAsJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub-missing-ok.jsonl")
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := authGraph().engine(WithLogger(&FileLogger{Path: path}))
	e.opts.now = func() time.Time { return fixed }
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			e.Query(context.Background(), Request{Question: "login", TokenBudget: 500, ContextFilter: []string{"auth/"}})
		})
	}
	wg.Wait()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var got Entry
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatalf("line %d not JSON: %v: %s", n, err, sc.Text())
		}
		if got.Question != "login" || got.TokenBudget != 500 || got.Mode != "bfs" || !got.Time.Equal(fixed) ||
			len(got.Seeds) == 0 || got.Nodes == 0 || len(got.Top) == 0 || got.ContextFilter[0] != "auth/" {
			t.Errorf("entry %+v", got)
		}
		n++
	}
	if n != 8 {
		t.Errorf("%d lines, want 8", n)
	}
}

func TestLogFailureNeverFailsQuery(t *testing.T) {
	e := authGraph().engine(WithLogger(&FileLogger{Path: filepath.Join(t.TempDir(), "no", "such", "dir", "q.jsonl")}))
	if r := e.Query(context.Background(), Request{Question: "login"}); len(r.Ranked) == 0 {
		t.Error("query failed with an unwritable log")
	}
}
