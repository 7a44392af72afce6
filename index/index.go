package index

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ResolvedTool is a tool ready to run: its definition (with the policy's
// description override applied), the CLI it belongs to, and the policy's
// argument constraints and executor.
type ResolvedTool struct {
	// Tool is the tool's definition; Description is the policy's when the
	// policy overrides it.
	Tool *Tool
	// CLI is the config the tool comes from: base command, env, working
	// dir, global args.
	CLI *Config
	// Constraints holds the policy's constraints by argument name; nil
	// when the policy sets none for this tool (or there is no policy).
	Constraints map[string]*ArgConstraint
	// Executor is the policy's executor; the zero value runs locally.
	Executor Executor
	// Schema is the tool's input schema, marshalled once at build time.
	Schema json.RawMessage
}

// ArgConstraint is a policy [Constraint] ready to check values against.
type ArgConstraint struct {
	Constraint
	re *regexp.Regexp // Pattern anchored to match the whole value; nil without a pattern
}

// wholeMatch compiles a policy pattern so that it must match the whole
// value, as SPEC 4 says.
func wholeMatch(pattern string) (*regexp.Regexp, error) {
	return regexp.Compile(`^(?:` + pattern + `)$`)
}

// MatchString reports whether s satisfies the constraint's pattern (true
// when there is none).
func (c *ArgConstraint) MatchString(s string) bool {
	return c.re == nil || c.re.MatchString(s)
}

// Entry is a tool as search results show it.
type Entry struct {
	ToolName    string          `json:"tool_name"`
	Description string          `json:"description"`
	CLIName     string          `json:"cli_name"`
	Category    *string         `json:"category"`
	Tags        []string        `json:"tags"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// CLISummary is one loaded CLI as the summary shows it.
type CLISummary struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	ToolCount   int      `json:"tool_count"`
	Category    *string  `json:"category"`
	Tags        []string `json:"tags"`
}

// Index is the searchable set of tools built from loaded configs after the
// policy is applied. It is immutable once built and safe for concurrent use.
type Index struct {
	tools     []*ResolvedTool // load order
	entries   []Entry         // parallel to tools
	byName    map[string]int
	summaries []CLISummary

	// ranker is built in the background by New, so that a server can
	// answer initialize and tools/list while it is still being built;
	// Search waits for it. It is immutable once built.
	ranker func() *ranker
}

// New builds an index from configs, in order, applying policy (which may be
// nil: every tool enabled, no constraints). Problems in the policy that
// leave it usable — unknown tool or argument names — are returned as
// warnings. Two configs defining the same tool name is an error naming both
// sources.
func New(configs []*Config, policy *Policy) (*Index, []string, error) {
	ix := &Index{byName: map[string]int{}}
	var warnings []string
	known := map[string]*Tool{}
	owner := map[string]*Config{} // tool name -> the config defining it
	for _, c := range configs {
		if c == nil {
			continue
		}
		enabled := 0
		for i := range c.Tools {
			t := &c.Tools[i]
			// Checked for every tool, enabled or not: a policy must not
			// decide whether two configs conflict.
			if prev, ok := owner[t.Name]; ok {
				if prev == c {
					return nil, nil, fmt.Errorf("tool %q is defined twice in %s", t.Name, sourceName(c))
				}
				return nil, nil, fmt.Errorf("tool %q is defined in both %s and %s: rename one or load only one of them", t.Name, sourceName(prev), sourceName(c))
			}
			owner[t.Name] = c
			known[t.Name] = t
			rt, ok, err := resolve(t, c, policy)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				continue
			}
			ix.byName[t.Name] = len(ix.tools)
			ix.tools = append(ix.tools, rt)
			enabled++
		}
		// A CLI whose tools the policy all disabled does not exist either;
		// a config that defines no tools is still listed.
		if enabled > 0 || len(c.Tools) == 0 {
			ix.summaries = append(ix.summaries, c.summary(enabled))
		}
	}
	if policy != nil {
		warnings = append(warnings, policyWarnings(policy, known)...)
	}
	// The search part needs no schemas: build it meanwhile.
	ix.ranker = sync.OnceValue(func() *ranker { return newRanker(ix.tools) })
	go ix.ranker()
	ix.entries = make([]Entry, len(ix.tools))
	for i, rt := range ix.tools {
		schema, err := rt.Tool.InputSchema().JSON()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: tool %s: input schema: %w", rt.CLI.Source, rt.Tool.Name, err)
		}
		rt.Schema = schema
		ix.entries[i] = Entry{
			ToolName:    rt.Tool.Name,
			Description: rt.Tool.Description,
			CLIName:     rt.CLI.Name,
			Category:    optional(rt.CLI.Category),
			Tags:        nonNil(rt.CLI.Tags),
			InputSchema: schema,
		}
	}
	return ix, warnings, nil
}

// resolve applies policy to one tool. It reports false when the policy
// disables the tool.
func resolve(t *Tool, c *Config, policy *Policy) (*ResolvedTool, bool, error) {
	rt := &ResolvedTool{Tool: t, CLI: c}
	if policy != nil {
		rt.Executor = policy.Executor
		tp, listed := policy.Tools[t.Name]
		if !listed && policy.Default != PolicyEnabled {
			return nil, false, nil
		}
		if tp.Description != "" {
			override := *t
			override.Description = tp.Description
			rt.Tool = &override
		}
		for name, con := range tp.Args {
			if !hasArg(t, name) {
				continue // warned about by policyWarnings
			}
			ac := &ArgConstraint{Constraint: con}
			if con.Pattern != "" {
				re, err := wholeMatch(con.Pattern)
				if err != nil {
					return nil, false, fmt.Errorf("%s: tool %s, arg %s: invalid pattern %q: %w", policy.Source, t.Name, name, con.Pattern, err)
				}
				ac.re = re
			}
			if rt.Constraints == nil {
				rt.Constraints = map[string]*ArgConstraint{}
			}
			rt.Constraints[name] = ac
		}
	}
	return rt, true, nil
}

// sourceName names a config in messages: its source, else its name.
func sourceName(c *Config) string {
	if c.Source != "" {
		return c.Source
	}
	return "config " + strconv.Quote(c.Name)
}

func hasArg(t *Tool, name string) bool { return findArg(t, name) != nil }

func findArg(t *Tool, name string) *Arg {
	for i := range t.Args {
		if t.Args[i].Name == name {
			return &t.Args[i]
		}
	}
	return nil
}

// policyWarnings names the tools and args a policy mentions that no config
// defines.
func policyWarnings(p *Policy, known map[string]*Tool) []string {
	var out []string
	for _, name := range sortedKeys(p.Tools) {
		t, ok := known[name]
		if !ok {
			msg := fmt.Sprintf("%s: policy names unknown tool %q; ignored", p.Source, name)
			if s := suggest(name, sortedKeys(known)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			out = append(out, msg)
			continue
		}
		var argNames []string
		for _, a := range t.Args {
			argNames = append(argNames, a.Name)
		}
		for _, an := range sortedKeys(p.Tools[name].Args) {
			if a := findArg(t, an); a != nil {
				con := p.Tools[name].Args[an]
				numeric := a.Type == TypeInteger || a.Type == TypeNumber
				if (con.Min != nil || con.Max != nil) && !numeric {
					out = append(out, fmt.Sprintf("%s: policy for tool %q: arg %q is a %s; min and max only apply to integer and number args", p.Source, name, an, a.Type))
				}
				if con.Pattern != "" && a.Type == TypeBoolean {
					out = append(out, fmt.Sprintf("%s: policy for tool %q: arg %q is a boolean; a pattern does not apply to it", p.Source, name, an))
				}
				continue
			}
			msg := fmt.Sprintf("%s: policy for tool %q names unknown arg %q; ignored", p.Source, name, an)
			if s := suggest(an, argNames); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			out = append(out, msg)
		}
	}
	return out
}

// Summary returns the config as [Index.Summary] shows it, counting all
// of its tools.
func (c *Config) Summary() CLISummary { return c.summary(len(c.Tools)) }

func (c *Config) summary(toolCount int) CLISummary {
	return CLISummary{
		Name:        c.Name,
		Description: c.Description,
		ToolCount:   toolCount,
		Category:    optional(c.Category),
		Tags:        nonNil(c.Tags),
	}
}

// Entries returns every tool as search results show it, in load order.
func (ix *Index) Entries() []Entry {
	return append(make([]Entry, 0, len(ix.entries)), ix.entries...)
}

// Len returns the number of (policy-enabled) tools.
func (ix *Index) Len() int { return len(ix.tools) }

// Tools returns every tool in load order. The slice must not be modified.
func (ix *Index) Tools() []*ResolvedTool { return ix.tools }

// Names returns every tool name in load order.
func (ix *Index) Names() []string {
	names := make([]string, len(ix.tools))
	for i, t := range ix.tools {
		names[i] = t.Tool.Name
	}
	return names
}

// Get returns the tool with exactly this name.
func (ix *Index) Get(name string) (*ResolvedTool, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return nil, false
	}
	return ix.tools[i], true
}

// Summary returns one entry per loaded CLI, in load order: every CLI with
// at least one enabled tool, and every CLI that defines no tools (with
// ToolCount 0). A CLI whose tools the policy all disables is left out.
func (ix *Index) Summary() []CLISummary {
	return append(make([]CLISummary, 0, len(ix.summaries)), ix.summaries...)
}

// Search returns at most limit tools matching every given filter, best
// first. category and cli are case-insensitive exact filters; an empty
// filter is not applied. query is matched as terms against tool name,
// subcommand, description, tags, category, CLI name and description, and
// argument text (see the package doc for the ranking); every tool that contains query as a case-insensitive substring
// of one of those fields is included. An empty query with no other filter
// matches every tool. limit <= 0 gives an empty list; no match gives an
// empty, non-nil list.
func (ix *Index) Search(query, category, cli string, limit int) []Entry {
	out := []Entry{}
	if limit <= 0 {
		return out
	}
	keep := func(i int) bool {
		c := ix.tools[i].CLI
		return (category == "" || strings.EqualFold(c.Category, category)) &&
			(cli == "" || strings.EqualFold(c.Name, cli))
	}
	for _, i := range ix.ranker().rank(query, keep, limit) {
		out = append(out, ix.entries[i])
	}
	return out
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
