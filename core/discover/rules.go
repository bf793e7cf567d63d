package discover

import (
	"strings"
)

// noiseDirs are directory names pruned wherever they appear, whatever the
// ignore files say: dependency trees, virtual environments, build output,
// caches and tool state. They are pruned even when not gitignored because
// extracting them swamps the graph with code the user did not write. A
// .synapticignore negation naming the directory ("!go/build/") is the one
// way to walk such a directory anyway (git's own metadata excepted).
var noiseDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true,
	"node_modules": true, "bower_components": true,
	"venv": true, ".venv": true, "site-packages": true, "__pycache__": true,
	".tox": true, ".nox": true, ".eggs": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true,
	"dist": true, "build": true, "target": true, "out": true,
	"synaptic-out": true, ".synaptic": true,
	"coverage": true, "lcov-report": true, "storybook-static": true,
	".next": true, ".nuxt": true, ".turbo": true, ".angular": true,
	".idea": true, ".cache": true, ".parcel-cache": true, ".svelte-kit": true,
	".terraform": true, ".serverless": true, ".worktrees": true,
	".gradle": true,
}

// mandatoryNoise are never walked, not even on a .synapticignore request:
// VCS metadata is not source, and .synaptic holds our own plugins and state.
var mandatoryNoise = map[string]bool{".git": true, ".hg": true, ".svn": true, ".synaptic": true}

// isNoiseDir reports whether a directory named name, whose entries are
// entries (nil when unknown), is pruned as noise. Names that are venvs only
// by convention ("env", ".env", "*_env") are pruned only when the directory
// holds pyvenv.cfg or conda-meta, because "env" is also a common package
// name (Go's internal/env, Node's config/env). Any directory holding
// pyvenv.cfg is a virtual environment and is pruned whatever its name.
func isNoiseDir(name string, hasVenvMarker bool) bool {
	if noiseDirs[name] || hasVenvMarker {
		return true
	}
	return strings.HasSuffix(name, "_venv") || strings.HasSuffix(name, ".egg-info")
}

// lockfiles are dependency lock files: generated, large, and without code.
var lockfiles = map[string]bool{
	"package-lock.json": true, "npm-shrinkwrap.json": true, "yarn.lock": true,
	"pnpm-lock.yaml": true, "bun.lockb": true, "bun.lock": true, "deno.lock": true,
	"Cargo.lock": true, "go.sum": true, "go.work.sum": true,
	"poetry.lock": true, "Pipfile.lock": true, "uv.lock": true, "pdm.lock": true,
	"composer.lock": true, "Gemfile.lock": true, "mix.lock": true,
	"pubspec.lock": true, "Podfile.lock": true, "Package.resolved": true,
	"packages.lock.json": true, "flake.lock": true, "gradle.lockfile": true,
	"conan.lock": true, ".terraform.lock.hcl": true, "Cartfile.resolved": true,
	"shard.lock": true, "cabal.project.freeze": true,
}

// IsLockfile reports whether a file name (not a path) is a dependency lock
// file. Exported so callers can explain a SkipLockfile.
func IsLockfile(name string) bool { return lockfiles[name] }

// sensitiveDirsAnywhere make every file below them sensitive: they hold
// keys and cloud credentials by convention, at any depth.
var sensitiveDirsAnywhere = map[string]bool{
	".ssh": true, ".gnupg": true, ".aws": true, ".azure": true, ".gcloud": true,
	".kube": true, ".docker": true, ".password-store": true,
}

// sensitiveDirsParent make the files directly inside them sensitive
// ("secrets/prod.yaml"), but not deeper ones: "secrets" and "credentials"
// are also package names (a secrets/ package of a Kubernetes controller
// holds code), and a package's subpackages rarely hold the secrets.
var sensitiveDirsParent = map[string]bool{
	"secrets": true, ".secrets": true, "credentials": true, ".credentials": true,
}

// sensitiveExts are private key, keystore and certificate containers.
// Certificates (.crt .cer .der) are usually public, but they travel with
// their keys, are rarely useful to a code graph, and a mislabelled key is
// costly, so they are skipped too.
var sensitiveExts = map[string]bool{
	".pem": true, ".key": true, ".p12": true, ".pfx": true, ".jks": true,
	".keystore": true, ".crt": true, ".cer": true, ".der": true, ".p8": true,
	".ppk": true, ".kdbx": true, ".gpg": true, ".pgp": true, ".env": true,
	".tfstate": true, ".tfvars": true,
}

// sensitiveNames are exact (lower-cased) file names that hold credentials.
var sensitiveNames = map[string]bool{
	".env": true, ".envrc": true, ".netrc": true, "_netrc": true,
	".npmrc": true, ".yarnrc": true, ".pypirc": true, ".pgpass": true,
	".git-credentials": true, ".htpasswd": true, ".dockercfg": true,
	"terraform.tfstate.backup": true,
}

// envTemplates are the .env.<suffix> names kept: they are committed
// placeholders documenting configuration, not secrets.
var envTemplates = map[string]bool{
	"example": true, "sample": true, "template": true, "dist": true, "defaults": true,
}

// codeExts are source and documentation extensions exempt from the keyword
// rule (not from the other rules): a file
// named token.go holds code about tokens (Go's own go/token), password.py
// holds code about passwords. Secrets live in data and config files, which
// the keyword rule keeps covering (secrets.yaml, api_token.txt). A source
// file that really holds a secret (a Django secrets.py) is a known miss,
// for .synapticignore.
var codeExts = map[string]bool{
	".go": true, ".py": true, ".pyi": true, ".js": true, ".mjs": true, ".cjs": true,
	".jsx": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true,
	".java": true, ".kt": true, ".kts": true, ".scala": true, ".groovy": true,
	".rs": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".cxx": true,
	".hpp": true, ".hh": true, ".hxx": true, ".cs": true, ".fs": true, ".vb": true,
	".swift": true, ".m": true, ".mm": true, ".rb": true, ".php": true,
	".lua": true, ".dart": true, ".ex": true, ".exs": true, ".erl": true,
	".hs": true, ".ml": true, ".mli": true, ".jl": true, ".zig": true,
	".nim": true, ".clj": true, ".cljs": true, ".vue": true, ".svelte": true,
	".astro": true, ".r": true, ".pl": true, ".pm": true, ".proto": true,
	".md": true, ".rst": true, ".s": true,
}

// keywords mark a credential when they end the file's stem or appear in a
// short one (see sensitiveKeyword). Matching is on whole words, so
// "tokenizer" and "secretary" do not contain "token" or "secret".
var keywords = map[string]bool{
	"credential": true, "credentials": true, "creds": true,
	"secret": true, "secrets": true,
	"passwd": true, "password": true, "passwords": true,
	"privatekey": true, "apikey": true,
	"token": true, "tokens": true,
}

// keywordPairs are two-word keywords ("private_key", "api-key", "PrivateKey").
var keywordPairs = map[[2]string]bool{
	{"private", "key"}: true, {"api", "key"}: true, {"access", "key"}: true,
	{"secret", "key"}: true,
}

// shortWords is the word count up to which a keyword anywhere in the stem
// flags the file ("secrets_prod.yaml", "token_cache.json"); in longer stems
// only the last word counts ("password_reset_email.html" is kept).
const shortWords = 2

// Sensitive reports whether the file at rel (slash-separated, relative to
// the root) likely holds credentials, and why. Exported for tests and for
// callers that explain skips; Walk applies it to every file it sees.
func Sensitive(rel string) (why string, yes bool) {
	dir, name := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dir, name = rel[:i], rel[i+1:]
	}
	if why, ok := sensitiveDir(dir); ok {
		return why, true
	}
	return sensitiveName(name)
}

// sensitiveDir applies the directory rules to the directory dir holding a
// file ("" for the root). Walk calls it once per directory.
func sensitiveDir(dir string) (why string, yes bool) {
	if dir == "" {
		return "", false
	}
	parent := dir[strings.LastIndexByte(dir, '/')+1:]
	if sensitiveDirsParent[strings.ToLower(parent)] {
		return "in a " + parent + "/ directory", true
	}
	for d := range strings.SplitSeq(dir, "/") {
		if sensitiveDirsAnywhere[strings.ToLower(d)] {
			return "under a " + d + "/ directory", true
		}
	}
	return "", false
}

// sensitiveName applies the name rules to a file name.
func sensitiveName(name string) (why string, yes bool) {
	lower := strings.ToLower(name)
	if sensitiveNames[lower] {
		return "credential file name", true
	}
	if rest, ok := strings.CutPrefix(lower, ".env."); ok {
		if envTemplates[rest] {
			return "", false
		}
		return "dotenv file", true
	}
	for _, p := range [...]string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "id_ed448"} {
		if strings.HasPrefix(lower, p) {
			return "SSH key file name", true
		}
	}
	ext := ""
	if i := strings.LastIndexByte(lower, '.'); i > 0 {
		ext = lower[i:]
	}
	if sensitiveExts[ext] {
		return "key or certificate extension " + ext, true
	}
	if codeExts[ext] {
		return "", false
	}
	if kw, ok := sensitiveKeyword(name); ok {
		return "name contains " + kw, true
	}
	return "", false
}

// sensitiveKeyword applies the keyword rule to a file name. The stem is the
// name without leading dots and without its last extension; it is split
// into lower-case words at non-letters and at camelCase humps, and
// all-digit words are dropped ("client_secret_1234.json" is two words). A
// keyword flags the name when it is the last word, or when the stem has at
// most shortWords words.
func sensitiveKeyword(name string) (string, bool) {
	stem := strings.TrimLeft(name, ".")
	if i := strings.LastIndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	var buf [8]string
	words := splitWords(stem, buf[:0])
	n := len(words)
	if n == 0 {
		return "", false
	}
	if n >= 2 && keywordPairs[[2]string{words[n-2], words[n-1]}] {
		return words[n-2] + "_" + words[n-1], true
	}
	if keywords[words[n-1]] {
		return words[n-1], true
	}
	if n <= shortWords {
		for i, w := range words {
			if keywords[w] {
				return w, true
			}
			if i+1 < n && keywordPairs[[2]string{w, words[i+1]}] {
				return w + "_" + words[i+1], true
			}
		}
	}
	return "", false
}

// splitWords splits s into lower-case words at non-letters and at a
// lower-to-upper case change ("apiToken" -> api, token; "APIToken" is one
// word, which errs on the side of not flagging). All-digit runs are dropped.
func splitWords(s string, words []string) []string {
	start := -1
	flush := func(end int) {
		if start >= 0 {
			words = append(words, strings.ToLower(s[start:end]))
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		isLetter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		switch {
		case !isLetter:
			flush(i)
		case start < 0:
			start = i
		case c >= 'A' && c <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z':
			flush(i)
			start = i
		}
	}
	flush(len(s))
	return words
}
