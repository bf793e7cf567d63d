package main_test

import (
	"bytes"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chromium finds the headless browser `.ci/run` installs (Debian package
// chromium); the viewer test needs it.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: apt-get install chromium (.ci/run does)")
	return ""
}

func browse(t *testing.T, browser string, extra ...string) []byte {
	t.Helper()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=20000", "--window-size=1400,900"}, extra...)
	cmd := exec.Command(browser, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, errb.String())
	}
	return out.Bytes()
}

// TestViewerInChromium loads the viewer in a real headless Chromium,
// searches, expands a node and reads its source (driven by the page's
// URL state), asserts on the DOM, and takes a screenshot.
func TestViewerInChromium(t *testing.T) {
	browser := chromium(t)
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	// The banner follows the ready file startHTTP waits for, so the line
	// may not be read yet (the flake under load).
	waitFor(t, 10*time.Second, "serve to announce the viewer (built without its library? run make)", func() bool {
		return strings.Contains(s.stderr.String(), "[synaptic] viewer on "+s.base+"/")
	})
	page := s.base + "/#" + url.Values{"q": {"tax"}, "expand": {"WithTax"}, "source": {"1"}}.Encode()
	dom := string(browse(t, browser, "--dump-dom", page))
	for _, want := range []string{
		`data-state="ready"`,
		`data-ref="WithTax()"`,        // a search result
		`>.Total()</a>`,               // the caller, in the expanded graph
		`>round()</a>`,                // the callee
		`func WithTax(cents int) int`, // source, through the jail
		`nodes · `,                    // graph stats in the header
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`data-nodes="(\d+)"`).FindStringSubmatch(dom); m == nil {
		t.Error("the graph element has no data-nodes")
	} else if n, _ := strconv.Atoi(m[1]); n < 3 {
		t.Errorf("graph has %d nodes, want at least WithTax, Total and round", n)
	}
	if t.Failed() {
		t.Logf("DOM:\n%s", dom)
	}

	shot := filepath.Join(os.Getenv("SYNAPTIC_ARTIFACTS"), "viewer.png")
	if os.Getenv("SYNAPTIC_ARTIFACTS") == "" {
		shot = filepath.Join(t.TempDir(), "viewer.png")
	} else if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
		t.Fatal(err)
	}
	browse(t, browser, "--screenshot="+shot, page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot %s: %v", shot, err)
	}
	colors := map[uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colors[r>>12<<8|g>>12<<4|bl>>12] = true
		}
	}
	if b.Dx() != 1400 || len(colors) < 8 {
		t.Errorf("screenshot %s is %v with %d colours: blank?", shot, b, len(colors))
	}
	t.Logf("viewer screenshot: %s", shot)
}

// TestViewerAPI: the page's API is the catalog, behind the same guards
// and the get_source jail.
func TestViewerAPI(t *testing.T) {
	_, graphPath := serveFixture(t)
	s := startHTTP(t, serveEnv(), "--graph", graphPath)
	code, body, _ := httpDo(t, "POST", s.base+"/view/api/call/get_source", "", []byte(`{"file":"../../../../etc/passwd"}`))
	if code != 200 || !strings.Contains(string(body), `"isError":true`) || strings.Contains(string(body), "root:") {
		t.Errorf("get_source outside the jail: %d %s", code, body)
	}
	code, body, _ = httpDo(t, "POST", s.base+"/view/api/call/get_node", "", []byte(`{"label":"WithTax"}`))
	if code != 200 || !strings.Contains(string(body), `"found":true`) {
		t.Errorf("get_node: %d %s", code, body)
	}
	for _, tc := range []struct {
		path, body string
		headers    []string
		want       int
	}{
		{"/view/api/call/no_such_tool", `{}`, nil, 404},
		{"/view/api/call/get_node", `{"label":3}`, nil, 400},
		{"/view/api/call/get_node", `{"label":"x"}`, []string{"Content-Type", "text/plain"}, 415},
	} {
		if code, body, _ := httpDo(t, "POST", s.base+tc.path, "", []byte(tc.body), tc.headers...); code != tc.want {
			t.Errorf("%s %s: %d %s, want %d", tc.path, tc.body, code, body, tc.want)
		}
	}
	if code, _, _ := httpDo(t, "GET", s.base+"/", "evil.example", nil); code != 403 {
		t.Errorf("/ with a foreign Host: %d, want 403 (the MCP guards)", code)
	}
	keyed := startHTTP(t, serveEnv(), "--graph", graphPath, "--api-key", "s3cret")
	if code, _, _ := httpDo(t, "GET", keyed.base+"/", "", nil); code != 401 {
		t.Errorf("/ without the key: %d, want 401", code)
	}
	if code, _, _ := httpDo(t, "GET", keyed.base+"/", "", nil, "X-API-Key", "s3cret"); code != 200 {
		t.Errorf("/ with the key: %d, want 200", code)
	}
}
