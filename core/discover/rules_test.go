package discover

import (
	"strings"
	"testing"
)

func TestSensitive(t *testing.T) {
	tests := []struct {
		rel  string
		want bool
	}{
		// keyword rule: whole words, last word or short stem
		{"tokenizer.py", false},
		{"tokenizer.json", false},
		{"tokenizer_config.json", false},
		{"secretary.go", false},
		{"secretary.yaml", false},
		{"passwordless.md", false},
		{"secrets.yaml", true},
		{"config/secrets.yml", true},
		{"aws_credentials.json", true},
		{"api_token.txt", true},
		{"apiToken.txt", true},
		{"token.json", true},
		{"tokens", true},
		{"db-password.txt", true},
		{"passwd", true},
		{"private_key.txt", true},
		{"PrivateKey.json", true},
		{"api-key.txt", true},
		{"client_secret_1234.json", true},
		{"secrets_prod.yaml", true},
		{"secrets.prod.yaml", true},
		{"credentials.yml.enc", true},
		{"token_cache.json", true},
		{"password_reset_email.html", false},
		{"special_tokens_map.json", false},
		{"deploy_token_rotation_notes.txt", false},
		{".secrets", true},
		// source files are exempt from the keyword rule only
		{"go/token/token.go", false},
		{"auth/password.py", false},
		{"pkg/secrets.rs", false},
		{"docs/tokens.md", false},
		{"scripts/set_token.sh", true},
		// dotenv
		{".env", true},
		{".env.local", true},
		{".env.production", true},
		{"app/.env.test", true},
		{".env.example", false},
		{".env.sample", false},
		{".env.template", false},
		{"prod.env", true},
		{".envrc", true},
		{"environment.go", false},
		{"env.go", false},
		// key and cert files
		{"server.pem", true},
		{"tls/server.key", true},
		{"store.p12", true},
		{"store.pfx", true},
		{"app.jks", true},
		{"release.keystore", true},
		{"ca.crt", true},
		{"key.go", false},
		{"keyboard.ts", false},
		{"id_rsa", true},
		{"id_rsa.pub", true},
		{"deploy/id_ed25519", true},
		{".netrc", true},
		{".npmrc", true},
		{".pgpass", true},
		{".git-credentials", true},
		{"terraform.tfstate", true},
		// directories
		{".ssh/config", true},
		{"home/.aws/config", true},
		{"home/.gnupg/pubring.kbx", true},
		{"secrets/db.yaml", true},
		{"credentials/prod.json", true},
		{"k8s/secrets/controller/main.go", false},
		{"ssh/config.go", false},
		{"main.go", false},
		{"README.md", false},
	}
	for _, tt := range tests {
		why, got := Sensitive(tt.rel)
		if got != tt.want {
			t.Errorf("Sensitive(%q) = %v (%s), want %v", tt.rel, got, why, tt.want)
		}
		if got && why == "" {
			t.Errorf("Sensitive(%q): no reason given", tt.rel)
		}
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string]string{
		"apiToken":          "api token",
		"API_TOKEN":         "api token",
		"client_secret_123": "client secret",
		"tokenizer":         "tokenizer",
		"a.b-c d":           "a b c d",
		"":                  "",
		"123":               "",
	} {
		if got := strings.Join(splitWords(in, nil), " "); got != want {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLockfilesAndNoise(t *testing.T) {
	for _, n := range []string{"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "Cargo.lock", "go.sum", "poetry.lock", "Pipfile.lock", "composer.lock", "Gemfile.lock", "bun.lockb"} {
		if !IsLockfile(n) {
			t.Errorf("IsLockfile(%q) = false", n)
		}
	}
	for _, n := range []string{"package.json", "go.mod", "Cargo.toml", "lock.go"} {
		if IsLockfile(n) {
			t.Errorf("IsLockfile(%q) = true", n)
		}
	}
	for _, n := range []string{".git", "node_modules", "venv", ".venv", "__pycache__", "dist", "build", "target", "out",
		"site-packages", ".tox", ".eggs", ".mypy_cache", ".pytest_cache", ".ruff_cache", "synaptic-out", ".synaptic",
		"coverage", ".next", ".nuxt", ".turbo", ".angular", ".idea", ".cache", ".parcel-cache", ".svelte-kit",
		".terraform", ".serverless", ".worktrees", "my_venv", "pkg.egg-info"} {
		if !isNoiseDir(n, false) {
			t.Errorf("isNoiseDir(%q) = false", n)
		}
	}
	for _, n := range []string{"env", ".env", "test_env", "src", "venvs", "builder", "internal"} {
		if isNoiseDir(n, false) {
			t.Errorf("isNoiseDir(%q) = true without a venv marker", n)
		}
	}
	if !isNoiseDir("env", true) {
		t.Error("env with pyvenv.cfg not pruned")
	}
}

func TestIsBinary(t *testing.T) {
	long := strings.Repeat("héllo wörld\n", 1000) // > 8 KiB, multi-byte runes
	tests := []struct {
		name    string
		content []byte
		want    bool
	}{
		{"empty", nil, false},
		{"ascii", []byte("package main\n\nfunc main() {}\n"), false},
		{"utf8", []byte("// 日本語のコメント\nx := 1\n"), false},
		{"nul", []byte("abc\x00def"), true},
		{"nul after 8KiB", append([]byte(strings.Repeat("a", sniffLen)), 0), false},
		{"utf16", []byte("\xff\xfeh\x00i\x00"), true},
		{"ansi log", []byte("\x1b[31mred\x1b[0m\n\tok\r\n"), false},
		{"controls", []byte("\x01\x02\x03\x04abc"), true},
		{"latin1 text", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve\n"), false},
		{"random high bytes", []byte("\x8f\x9a\xc3\xff\xfe\x80\x81\x82abc"), true},
		{"cut rune at window", []byte(long), false},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), true},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.content); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
