package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// finderMode selects find_callers, find_callees or find_references.
type finderMode int

const (
	callersMode finderMode = iota
	calleesMode
	referencesMode
)

// callLike is the relation filter of find_callers/find_callees: anything
// that calls, uses or references, plus the cross-language and
// evidence-linked dispatch relations.
func callLike(rel string) bool {
	switch rel {
	case "handled_by", "invokes", "binds_native", "dynamic_ref":
		return true
	}
	return strings.Contains(rel, "call") || strings.Contains(rel, "use") || strings.Contains(rel, "reference")
}

// ownership is structural containment, which find_references excludes:
// "where is Foo used" must not list the file that defines it.
func ownership(rel string) bool {
	switch rel {
	case "contains", "method", "member_of":
		return true
	}
	return strings.HasPrefix(rel, "defines") || strings.HasPrefix(rel, "has_")
}

func (m finderMode) noun() string {
	return [...]string{"caller", "callee", "reference"}[m]
}

// finderRow groups the edges between the symbol and one other node under
// one relation.
type finderRow struct {
	other int32
	rel   string
	edges []int32
}

// finder builds the handler shared by find_callers, find_callees and
// find_references, so the three agree on caps, breakdowns and sites.
func (c *Catalog) finder(mode finderMode) func(context.Context, *snapshot, json.RawMessage) Result {
	return func(_ context.Context, s *snapshot, args json.RawMessage) Result {
		a := struct {
			Label     string `json:"label"`
			Limit     *int   `json:"limit"`
			Verbose   bool   `json:"verbose"`
			ShowSites bool   `json:"show_sites"`
		}{}
		if err := decode(args, &a); err != nil {
			return errorf("%v", err)
		}
		resolve := s.resolveCallable
		if mode == referencesMode {
			resolve = s.resolveOne // fields and types are referenced too
		}
		i, _, fail := resolve(a.Label)
		if fail != nil {
			return *fail
		}
		limit := c.limit(a.Limit, a.Verbose)
		seeds := []int32{i}
		var members []int32
		if mode != referencesMode { // references are to the symbol itself
			members = s.members(i)
			seeds = append(seeds, members...)
		}
		var isSeed *scratch
		if len(seeds) > 1 {
			isSeed = s.p.scratch(s.x.Len())
			defer s.p.release(isSeed)
			for _, sd := range seeds {
				isSeed.mark(sd)
			}
		}
		keepRel := s.p.relSet(func(rel string) bool {
			if mode == referencesMode {
				return !ownership(rel)
			}
			return callLike(rel)
		})
		type hit struct {
			other int32
			rel   uint16
			edge  int32
		}
		var hits []hit
		for _, sd := range seeds {
			edges := s.x.In(sd)
			if mode == calleesMode {
				edges = s.x.Out(sd)
			}
			for _, e := range edges {
				r := s.p.relID[e]
				if !keepRel[r] {
					continue
				}
				o := s.x.Other(e, sd)
				if isSeed != nil && isSeed.has(o) {
					continue // internal to a folded class
				}
				hits = append(hits, hit{o, r, e})
			}
		}
		// Most-connected first, then relation; every edge between the same
		// pair under one relation becomes one row (its sites listed under it).
		slices.SortFunc(hits, func(p, q hit) int {
			return cmp.Or(s.byDegree(p.other, q.other), cmp.Compare(p.rel, q.rel), cmp.Compare(p.edge, q.edge))
		})
		var rows []finderRow
		byRel := map[string]int{}
		for _, h := range hits {
			if n := len(rows); n > 0 && rows[n-1].other == h.other && rows[n-1].rel == s.p.relNames[h.rel] {
				rows[n-1].edges = append(rows[n-1].edges, h.edge)
				continue
			}
			rows = append(rows, finderRow{other: h.other, rel: s.p.relNames[h.rel], edges: []int32{h.edge}})
			byRel[s.p.relNames[h.rel]]++
		}

		seed, total := s.label(i), len(rows)
		var b strings.Builder
		if len(members) > 0 {
			verb := "callers of its members are folded in (a class's callers attach to its methods)"
			if mode == calleesMode {
				verb = "callees of its members are folded in (a class doesn't call; its methods do)"
			}
			fmt.Fprintf(&b, "%s is a %s with %d members; %s\n", seed, sanitize(s.x.Node(i).Kind), len(members), verb)
		}
		prep := map[finderMode]string{callersMode: "of", calleesMode: "of", referencesMode: "to"}[mode]
		fmt.Fprintf(&b, "%d %s(s) %s %s (%s)", total, mode.noun(), prep, seed, s.qualified(i))
		unlinked := ""
		if mode == callersMode {
			unlinked = s.unlinkedNote(i, func(n int32) bool { return n == i || isSeed != nil && isSeed.has(n) })
		}
		if total == 0 {
			if mode == callersMode {
				twins := s.twinNote(i)
				switch {
				case twins != "" && unlinked != "":
					b.WriteString(": none linked. " + twins + "\nAlso: " + unlinked)
				case twins != "":
					b.WriteString(": none linked. " + twins)
				case unlinked != "":
					b.WriteString(": none linked. " + unlinked)
				default:
					b.WriteString(": no static caller (a handler reached by dynamic dispatch, reflection or DI can still run)")
				}
			}
			return Result{Text: b.String()}
		}
		fmt.Fprintf(&b, ": %s\n", relationTally(byRel))

		var sr *siteReader
		if a.ShowSites {
			sr = newSiteReader(c.opts.SourceRoot)
			defer sr.close()
		}
		shown := rows[:min(total, limit)]
		for _, r := range shown {
			ed := s.x.Edge(r.edges[0])
			where := s.fileOrExternal(r.other)
			if ed.SourceFile != "" {
				where = sanitize(ed.SourceFile)
				if loc := sanitize(ed.SourceLocation); loc != "" {
					where += ":" + loc
				}
			}
			fmt.Fprintf(&b, "  %s  [%s]  %s\n", s.label(r.other), sanitize(r.rel), where)
			if sr != nil {
				for _, e := range r.edges {
					s.writeSites(&b, sr, e)
				}
			}
		}
		if n := total - len(shown); n > 0 {
			fmt.Fprintf(&b, "  +%d more (pass verbose=true or a larger limit)\n", n)
		}
		if unlinked != "" {
			b.WriteString("Also: " + unlinked)
		}
		return Result{Text: strings.TrimRight(b.String(), "\n")}
	}
}

// maxTwinsShown bounds the same-named definitions a twin note lists.
const maxTwinsShown = 3

// twinNote explains a 0 that may be false: when other definitions share
// node i's name (build variants such as sock_linux.go / sock_windows.go,
// overloads, same-named methods of sibling types), a call the resolver
// could not pin to one of them was left unlinked rather than guessed, so
// "no caller" must not read as "unused". "" when the name is unique.
func (s *snapshot) twinNote(i int32) string {
	n := s.x.Node(i)
	var twins []int32
	for _, j := range s.x.WithLabel(n.Label) {
		if j != i && isCallable(s.x.Node(j).Kind) == isCallable(n.Kind) {
			twins = append(twins, j)
		}
	}
	if len(twins) == 0 {
		return ""
	}
	slices.SortFunc(twins, s.byDegree)
	var b strings.Builder
	fmt.Fprintf(&b, "%d other definition(s) share this name, so calls the resolver could not pin to one of them (build variants, overloads, same-named members) were left unlinked, not guessed: 0 here does not mean unused. Check the twins, or search the source for the name:", len(twins))
	for _, j := range twins[:min(len(twins), maxTwinsShown)] {
		fmt.Fprintf(&b, "\n  %s (%d incoming)", s.qualified(j), len(s.x.In(j)))
	}
	if len(twins) > maxTwinsShown {
		fmt.Fprintf(&b, "\n  +%d more", len(twins)-maxTwinsShown)
	}
	return b.String()
}

func isCallable(kind string) bool {
	return kind == "function" || kind == "method" || kind == "constructor"
}
