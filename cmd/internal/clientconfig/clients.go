// Package clientconfig registers synaptic as an MCP stdio server in the
// configuration files of AI assistants (Claude Code, Codex, Cursor, VS Code,
// Gemini CLI, Windsurf), and removes it again.
//
// Edits are surgical: one entry is added, replaced or removed and the rest
// of the file keeps its bytes (order, indentation, comments). Every changed
// file is backed up first, written atomically, and re-read to prove that
// nothing but our entry changed.
package clientconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// ClientName names a supported assistant on the command line.
type ClientName string

// The supported clients.
const (
	ClaudeCode ClientName = "claude"
	Codex      ClientName = "codex"
	Cursor     ClientName = "cursor"
	VSCode     ClientName = "vscode"
	Gemini     ClientName = "gemini"
	Windsurf   ClientName = "windsurf"
)

// Format is a config file's syntax.
type Format string

// The config syntaxes.
const (
	JSON  Format = "json"  // strict JSON (comments are kept if present)
	JSONC Format = "jsonc" // JSON with comments and trailing commas
	TOML  Format = "toml"
)

// Scope says which config file an entry goes to.
type Scope string

// The scopes.
const (
	Project Scope = "project" // a file inside the repository
	Global  Scope = "global"  // the user's file, shared by every repository
)

// Client describes where and how one assistant reads MCP servers.
type Client struct {
	Name    ClientName
	Title   string
	Aliases []string
	Format  Format
	Key     string // the object (JSON) or table (TOML) holding the servers
	// project and global return the config path; nil: scope not supported.
	project func(repo string) string
	global  func(home, configDir string) string
	// Type is written as "type" in JSON entries when not "" (clients that
	// accept or require it).
	Type string
}

// Clients is every supported client, in display order.
var Clients = []Client{
	{
		Name: ClaudeCode, Title: "Claude Code", Aliases: []string{"claude-code"}, Format: JSON, Key: "mcpServers", Type: "stdio",
		project: func(repo string) string { return filepath.Join(repo, ".mcp.json") },
		global:  func(home, _ string) string { return filepath.Join(home, ".claude.json") },
	},
	{
		Name: Codex, Title: "Codex", Format: TOML, Key: "mcp_servers",
		project: func(repo string) string { return filepath.Join(repo, ".codex", "config.toml") },
		global:  func(home, _ string) string { return filepath.Join(home, ".codex", "config.toml") },
	},
	{
		Name: Cursor, Title: "Cursor", Format: JSON, Key: "mcpServers",
		project: func(repo string) string { return filepath.Join(repo, ".cursor", "mcp.json") },
		global:  func(home, _ string) string { return filepath.Join(home, ".cursor", "mcp.json") },
	},
	{
		Name: VSCode, Title: "VS Code", Aliases: []string{"code", "vs-code"}, Format: JSONC, Key: "servers", Type: "stdio",
		project: func(repo string) string { return filepath.Join(repo, ".vscode", "mcp.json") },
		global:  func(_, cfg string) string { return filepath.Join(cfg, "Code", "User", "mcp.json") },
	},
	{
		Name: Gemini, Title: "Gemini CLI", Aliases: []string{"gemini-cli"}, Format: JSONC, Key: "mcpServers",
		project: func(repo string) string { return filepath.Join(repo, ".gemini", "settings.json") },
		global:  func(home, _ string) string { return filepath.Join(home, ".gemini", "settings.json") },
	},
	{
		Name: Windsurf, Title: "Windsurf", Format: JSON, Key: "mcpServers",
		global: func(home, _ string) string { return filepath.Join(home, ".codeium", "windsurf", "mcp_config.json") },
	},
}

// Lookup finds a client by name or alias.
func Lookup(name string) (Client, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, c := range Clients {
		if string(c.Name) == n {
			return c, nil
		}
		for _, a := range c.Aliases {
			if a == n {
				return c, nil
			}
		}
	}
	return Client{}, fmt.Errorf("unknown client %q (supported: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the client names.
func Names() []string {
	out := make([]string, len(Clients))
	for i, c := range Clients {
		out[i] = string(c.Name)
	}
	return out
}

// Supports reports whether the client has a config file for scope.
func (c Client) Supports(s Scope) bool {
	if s == Global {
		return c.global != nil
	}
	return c.project != nil
}

// Env is where the user's files are; tests point it at temp directories.
type Env struct {
	Home      string // $HOME
	ConfigDir string // os.UserConfigDir()
}

// DefaultEnv reads the current user's directories.
func DefaultEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("cannot find your home directory (%v); set $HOME", err)
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		cfg = filepath.Join(home, ".config")
	}
	return Env{Home: home, ConfigDir: cfg}, nil
}

// Path is the client's config file for scope and repo.
func (c Client) Path(s Scope, repo string, env Env) (string, error) {
	if !c.Supports(s) {
		other := "--global"
		if s == Global {
			other = "no --global"
		}
		return "", fmt.Errorf("%s has no %s-level MCP config; use %s", c.Title, s, other)
	}
	if s == Global {
		return c.global(env.Home, env.ConfigDir), nil
	}
	return c.project(repo), nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// ServerName is the entry's name: "synaptic" in a project file, and
// "synaptic-<repo>" in a global one, which serves many repositories.
// Names are bare TOML keys and valid Codex server names ([A-Za-z0-9_-]).
func ServerName(s Scope, repo string) string {
	if s != Global {
		return "synaptic"
	}
	base := strings.Trim(unsafeName.ReplaceAllString(filepath.Base(repo), "-"), "-")
	if base == "" {
		base = "repo"
	}
	return "synaptic-" + base
}

// Server is what the client starts: the binary and its arguments.
type Server struct {
	Command string
	Args    []string
}

// entry is the value written under the server name.
func (c Client) entry(s Server) any {
	if c.Format == TOML {
		return struct {
			Command string   `toml:"command"`
			Args    []string `toml:"args"`
		}{s.Command, s.Args}
	}
	if c.Type != "" {
		return struct {
			Type    string   `json:"type"`
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}{c.Type, s.Command, s.Args}
	}
	return struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{s.Command, s.Args}
}
