package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// PromptArg is one prompt argument.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// PromptMessage is one rendered message.
type PromptMessage struct {
	Role, Text string
}

// Prompt is a guided workflow: a single user-role message telling the host
// model how to drive the tools.
type Prompt struct {
	Name, Description string
	Arguments         []PromptArg
	Get               func(ctx context.Context, args map[string]string) ([]PromptMessage, error)
}

// ErrUnknownPrompt is returned by GetPrompt for a name not in Prompts();
// protocol layers map it to -32602.
var ErrUnknownPrompt = errors.New("unknown prompt")

// Prompts lists the prompts in a stable order.
func (c *Catalog) Prompts() []Prompt {
	one := func(text string) []PromptMessage { return []PromptMessage{{Role: "user", Text: text}} }
	return []Prompt{
		{
			Name:        "onboard",
			Description: "Orient in the codebase via graph_stats, god_nodes and synaptic://questions.",
			Get: func(context.Context, map[string]string) ([]PromptMessage, error) {
				return one("Help me get oriented in this codebase using the synaptic code graph.\n" +
					"1. Call graph_stats for the size, shape and edge confidence of the graph.\n" +
					"2. Call god_nodes to find the most-connected symbols; flag hubs with 0 test(s) as untested high-blast-radius code.\n" +
					"3. Read the synaptic://questions resource and answer the two or three most useful questions with query_graph, get_node and get_source.\n" +
					"Finish with a short map of the main subsystems, their central symbols, and where a newcomer should start reading."), nil
			},
		},
		{
			Name:        "explain_subsystem",
			Description: "Explain a subsystem using query_graph, get_source and find_callers/find_callees.",
			Arguments:   []PromptArg{{Name: "topic", Description: "The subsystem or feature to explain.", Required: true}},
			Get: func(_ context.Context, args map[string]string) ([]PromptMessage, error) {
				topic, err := promptArg(args, "topic")
				if err != nil {
					return nil, err
				}
				return one(fmt.Sprintf("Explain the %q subsystem of this codebase.\n"+
					"1. Call query_graph with question %q to find its central symbols.\n"+
					"2. Read the most relevant ones with get_source.\n"+
					"3. Use find_callers and find_callees on the entry points to show how the subsystem is reached and what it depends on.\n"+
					"Explain its responsibilities, main data flow and entry points, citing symbols as label@file.", topic, topic)), nil
			},
		},
		{
			Name:        "assess_pr",
			Description: "Assess a pull request's risk via get_pr_impact and affected.",
			Arguments:   []PromptArg{{Name: "pr_number", Description: "The pull request number.", Required: true}},
			Get: func(_ context.Context, args map[string]string) ([]PromptMessage, error) {
				pr, err := promptArg(args, "pr_number")
				if err != nil {
					return nil, err
				}
				return one(fmt.Sprintf("Assess the risk of pull request #%s.\n"+
					"1. Call get_pr_impact with pr_number %s to see the files, nodes and communities it touches (if that tool is unavailable, list the changed symbols another way).\n"+
					"2. For each changed symbol that others depend on, call affected to measure its blast radius.\n"+
					"3. Check whether the blast radius reaches tests (god_nodes and affected show test coverage).\n"+
					"Give a low/medium/high risk verdict with the concrete symbols and dependents that drive it.", pr, pr)), nil
			},
		},
		{
			Name:        "trace_flow",
			Description: "Trace how one symbol reaches another with shortest_path and get_source.",
			Arguments: []PromptArg{
				{Name: "from", Description: "Where the flow starts.", Required: true},
				{Name: "to", Description: "Where the flow ends.", Required: true},
			},
			Get: func(_ context.Context, args map[string]string) ([]PromptMessage, error) {
				from, err := promptArg(args, "from")
				if err != nil {
					return nil, err
				}
				to, err := promptArg(args, "to")
				if err != nil {
					return nil, err
				}
				return one(fmt.Sprintf("Trace the flow from %q to %q.\n"+
					"1. Call shortest_path with source %q, target %q and directed=true: it follows calls, imports and references forward. If it says there is no directed path, it shows the undirected connection instead: there a backward arrow means connected through, not called by, so say that the flow is indirect.\n"+
					"2. Read each hop with get_source to confirm how control or data actually moves.\n"+
					"Describe the flow step by step, citing label@file for every hop.", from, to, from, to)), nil
			},
		},
	}
}

// promptArg returns a required argument, sanitized before interpolation so
// a hostile value cannot smuggle control characters or line breaks into
// the instructions.
func promptArg(args map[string]string, name string) (string, error) {
	v := sanitize(args[name])
	if strings.TrimSpace(v) == "" {
		return "", fmt.Errorf("missing required argument %q", name)
	}
	return v, nil
}

// GetPrompt renders a prompt by name.
func (c *Catalog) GetPrompt(ctx context.Context, name string, args map[string]string) (Prompt, []PromptMessage, error) {
	for _, p := range c.Prompts() {
		if p.Name == name {
			msgs, err := p.Get(ctx, args)
			return p, msgs, err
		}
	}
	return Prompt{}, nil, fmt.Errorf("%w: %q", ErrUnknownPrompt, name)
}
