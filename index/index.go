package index

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"

	"github.com/climax-mcp/climax/index/config"
)

// Entry is a tool as search results show it.
type Entry struct {
	ToolName    string `json:"tool_name"`
	Description string `json:"description"`
	CLIName     string `json:"cli_name"`
	// Category and Tags are the CLI's. Search results leave them out:
	// they would repeat in every result of the CLI, and the summary
	// ([Index.Summary]) gives them once per CLI.
	Category *string  `json:"-"`
	Tags     []string `json:"-"`
	// The tool's annotations, each present only when its config sets it
	// (a compact form of MCP's readOnlyHint and so on).
	ReadOnly    *bool `json:"read_only,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
	Idempotent  *bool `json:"idempotent,omitempty"`
	OpenWorld   *bool `json:"open_world,omitempty"`
	// Confirm is set when a call of the tool asks the user's approval
	// before it runs (climax run --confirm, a policy's confirm); absent
	// from the JSON otherwise.
	Confirm     bool            `json:"confirm,omitempty"`
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
	tools     []*config.ResolvedTool // load order
	entries   []Entry                // parallel to tools
	byName    map[string]int
	summaries []CLISummary
	defined   map[string]*config.Tool // every tool of the configs, enabled or not

	// ranker is built by the first search, so that listing tools never
	// waits for it. It is immutable once built.
	ranker func() *ranker
}

// eagerRankerTools is the number of tools from which [New] starts
// building the search part in the background rather than at the first
// search: from there on the build takes 10 ms and more.
const eagerRankerTools = 2000

// New builds an index from configs, in order, applying policy (which may be
// nil: every tool enabled, no constraints) with [config.Apply]. Problems in
// the policy that leave it usable — unknown tool or argument names — are
// returned as warnings. Two configs defining the same tool name is an
// error naming both sources.
func New(configs []*config.Config, policy *config.Policy) (*Index, []config.Problem, error) {
	set, warnings, err := config.Apply(configs, policy)
	if err != nil {
		return nil, nil, err
	}
	ix := &Index{tools: set.Tools, byName: make(map[string]int, len(set.Tools)), defined: set.Defined}
	for i, rt := range ix.tools {
		ix.byName[rt.Tool.Name] = i
	}
	for _, c := range set.CLIs {
		ix.summaries = append(ix.summaries, summarize(c.Config, c.Enabled))
	}
	// The search part is built by the first search. A large index starts
	// building it at once, on another core while the schemas are
	// marshalled below, so that its first search does not wait long; a
	// small one (a few milliseconds of work) leaves the start alone.
	ix.ranker = sync.OnceValue(func() *ranker { return newRanker(ix.tools) })
	if len(ix.tools) >= eagerRankerTools {
		go ix.ranker()
	}
	// The schemas are marshalled on every core: at a cold start with many
	// tools they are a good part of the work before the server answers.
	ix.entries = make([]Entry, len(ix.tools))
	n := len(ix.tools)
	workers := max(1, min(runtime.GOMAXPROCS(0), n/minEntriesPerWorker))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs[w] = ix.fillEntries(w*n/workers, (w+1)*n/workers) })
	}
	wg.Wait()
	for _, err := range errs { // the first in load order
		if err != nil {
			return nil, nil, err
		}
	}
	return ix, warnings, nil
}

// minEntriesPerWorker is the fewest tools [New] gives a core of their own
// to marshal the schemas of: below it, starting one costs more than it
// saves.
const minEntriesPerWorker = 64

// fillEntries marshals the input schemas of tools lo to hi (exclusive)
// and makes their entries.
func (ix *Index) fillEntries(lo, hi int) error {
	for i := lo; i < hi; i++ {
		rt := ix.tools[i]
		schema, err := rt.Tool.InputSchema().JSON()
		if err != nil {
			return fmt.Errorf("%s: tool %s: input schema: %w", rt.CLI.Source, rt.Tool.Name, err)
		}
		rt.Schema = schema
		ix.entries[i] = Entry{
			ToolName:    rt.Tool.Name,
			Description: rt.Tool.Description,
			CLIName:     rt.CLI.Name,
			Category:    optional(rt.CLI.Category),
			Tags:        nonNil(rt.CLI.Tags),
			ReadOnly:    rt.Tool.ReadOnly,
			Destructive: rt.Tool.Destructive,
			Idempotent:  rt.Tool.Idempotent,
			OpenWorld:   rt.Tool.OpenWorld,
			InputSchema: schema,
			Confirm:     rt.Confirm,
		}
	}
	return nil
}

// Summarize returns a config as [Index.Summary] shows it, counting all of
// its tools.
func Summarize(c *config.Config) CLISummary { return summarize(c, len(c.Tools)) }

func summarize(c *config.Config, toolCount int) CLISummary {
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
func (ix *Index) Tools() []*config.ResolvedTool { return ix.tools }

// Names returns every tool name in load order.
func (ix *Index) Names() []string {
	names := make([]string, len(ix.tools))
	for i, t := range ix.tools {
		names[i] = t.Tool.Name
	}
	return names
}

// Get returns the tool with exactly this name.
func (ix *Index) Get(name string) (*config.ResolvedTool, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return nil, false
	}
	return ix.tools[i], true
}

// Defined returns the definition of the tool of this name in the loaded
// configs, whether the policy (or --read-only) left it enabled or not: a
// call may name a tool that is not served, and what it sends is treated
// by the tool's definition all the same (the audit log redacts its secret
// arguments).
func (ix *Index) Defined(name string) (*config.Tool, bool) {
	t, ok := ix.defined[name]
	return t, ok
}

// Summary returns one entry per loaded CLI, in load order: every CLI with
// at least one enabled tool, and every CLI that defines no tools (with
// ToolCount 0). A CLI whose tools the policy all disables is left out.
func (ix *Index) Summary() []CLISummary {
	return append(make([]CLISummary, 0, len(ix.summaries)), ix.summaries...)
}

// Search returns at most limit tools matching every given filter, best
// first: [Index.SearchPage] with no offset and no project hint. limit <= 0
// gives an empty list; no match gives an empty, non-nil list.
func (ix *Index) Search(query, category, cli string, limit int) []Entry {
	return ix.SearchPage(query, SearchOptions{Category: category, CLI: cli, Limit: limit}).Results
}

// SearchOptions narrow, page and steer a search ([Index.SearchPage]).
type SearchOptions struct {
	// Category and CLI are case-insensitive exact filters on the CLI's
	// category and name; an empty filter is not applied.
	Category, CLI string
	// Offset is how many of the best matches to skip; Limit how many to
	// return after them (none when Limit <= 0).
	Offset, Limit int
	// Project, when not nil, ranks the tools of the programs the
	// caller's project uses before those of programs it does not use.
	Project *Project
}

// Project says which programs the caller's project uses, as far as the
// caller could tell (for example from the files of its directory: go.mod
// for go, a Makefile for make, .git for git). Programs are named as a
// config's command starts ("go", "git"; a path counts by its base name).
//
// For a query that names no loaded program, the tools of a program in Uses
// score [ProjectUseFactor] times as much, and those of a program in Lacks
// [ProjectLackFactor] times as much, so that "build the project" finds
// the project's own build tool. Other tools, and the set of tools that
// match, are unchanged.
type Project struct {
	Uses, Lacks []string
}

// The factors of [Project].
const (
	ProjectUseFactor  = 1.5
	ProjectLackFactor = 0.6
)

// Page is one page of search results.
type Page struct {
	// Results are the matches from the requested offset, best first.
	Results []Entry
	// Total is the number of matches on all pages.
	Total int
}

// SearchPage returns one page of the tools matching every given filter
// and query, best first, and how many match in all. Paging is stable: the
// same index, query and options give the same order, so consecutive pages
// neither repeat nor skip a tool.
//
// query is matched as terms against tool name, subcommand, description,
// tags, category, CLI name and description, and argument text (see the
// package doc for the ranking); every tool that contains query as a
// case-insensitive substring of one of those fields is included. An empty
// query matches every tool the filters keep, in load order. Results is
// never nil.
func (ix *Index) SearchPage(query string, opts SearchOptions) Page {
	page := Page{Results: []Entry{}}
	r := ix.ranker()
	order, total := r.rank(query, rankRequest{
		keep:      ix.keep(opts.Category, opts.CLI),
		offset:    max(opts.Offset, 0),
		limit:     opts.Limit,
		cliFactor: r.projectFactors(opts.Project),
	}, nil)
	for _, i := range order {
		page.Results = append(page.Results, ix.entries[i])
	}
	page.Total = total
	return page
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
