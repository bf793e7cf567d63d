package tools

import (
	"os"

	"github.com/BurntSushi/toml"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// sourceConfigFile is where a repository opens paths the read policy would
// refuse: [source] allow = ["config/dev.env", "fixtures/**"].
const sourceConfigFile = ".synaptic/config.toml"

// maxConfigFile bounds the config read: it is a few lines.
const maxConfigFile = 256 << 10

// sourceAllowList reads [source] allow from the root's config file. A
// missing, special, oversized or malformed file allows nothing extra: the
// policy then holds as it is.
func sourceAllowList(r *os.Root) []string {
	data, err := safefile.ReadFile(r, sourceConfigFile, maxConfigFile, nil)
	if err != nil {
		return nil
	}
	var cfg struct {
		Source struct {
			Allow []string `toml:"allow"`
		} `toml:"source"`
	}
	if _, err := toml.Decode(string(data), &cfg); err != nil {
		return nil
	}
	return cfg.Source.Allow
}
