module github.com/synaptic-graph/synaptic

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/go-json-experiment/json v1.27.2
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/oklog/run v1.2.0
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
	github.com/sourcegraph/conc v0.3.0
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	github.com/tetratelabs/wazero v1.12.0
	github.com/tiktoken-go/tokenizer v0.10.0
	github.com/zeebo/blake3 v0.2.4
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	golang.org/x/text v0.44.0
	golang.org/x/tools v0.52.0
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
