// Package metatools implements the two progressive-discovery meta-tools,
// climax_search and climax_call, whole and transport-free: their
// definitions, the search that answers with the JSON of docs/search.md,
// and the call that checks its arguments, looks the tool up and runs it through
// the executor. It also owns the text of every call of a tool that does not
// exist. A server (see the server module) only maps MCP requests onto it:
//
//	mt := metatools.New(ix, executor.New())
//	res := mt.Search(map[string]any{"query": "commit", "limit": 3})
//	fmt.Println(res.Text) // {"mode":"search","results":[...]}
//	out := mt.Call(ctx, map[string]any{"tool_name": "git_status"})
//	fmt.Println(out.Text) // the command's result text
//
// A server that asks for approvals uses [Tools.Prepare], decides on the
// [executor.Call] it returns, runs it and passes the outcome to
// [Tools.Finish].
//
// docs/search.md describes the contract of both meta-tools.
//
// # Arguments
//
// Both meta-tools take JSON-decoded arguments (numbers as float64 or
// json.Number). Every problem with them is an answer with IsError set,
// never a panic:
//
//   - climax_search: query, category and cli must be strings when given
//     (null counts as absent). Only when all three are absent is the answer
//     the summary; {"query": ""} is a search that every tool matches. A
//     query longer than [MaxQueryBytes] is refused.
//     limit is a whole number >= 0 (0 gives no results) or a string
//     holding one; anything else — negative, fractional, another type —
//     falls back to [DefaultLimit]. Other keys are ignored and named in
//     the answer (note and ignored_args, with the property each probably
//     stands for: "q" is query, "dir" is cwd).
//   - climax_call: tool_name is required and must be a non-empty string;
//     args must be an object, and null or absent means {}. Tool names are
//     matched exactly; an unknown name gets "Unknown tool: NAME" followed
//     by close names, the available tools and a hint to use climax_search.
package metatools

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// Names of the meta-tools.
const (
	SearchName = "climax_search"
	CallName   = "climax_call"
)

// DefaultLimit is the number of climax_search results when the caller gives
// no usable limit.
const DefaultLimit = 10

// MaxQueryBytes bounds the length of a climax_search query (after
// trimming surrounding space): a longer query gets an error result instead
// of a search, so that a caller cannot make the server hold and scan
// megabytes of query text.
const MaxQueryBytes = 4096

// maxListed is how many tool names an unknown-tool message lists before
// "... and N more".
const maxListed = 20

// maxSuggestions is how many names the "Did you mean" line offers.
const maxSuggestions = 5

// Definition is a tool as tools/list shows it.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// Meta is the tool's _meta: hints for clients that defer tools behind
	// a tool search of their own (see [MetaAlwaysLoad], [MetaSearchHint]).
	Meta map[string]any `json:"_meta,omitempty"`
	// Annotations are the tool's MCP annotations; nil when it has none.
	Annotations *Annotations `json:"annotations,omitempty"`
}

// Annotations are MCP tool annotations (ToolAnnotations): hints for
// clients about what a tool does. A nil field is unset, which MCP reads
// as its default: readOnlyHint false, destructiveHint true,
// idempotentHint false, openWorldHint true.
type Annotations struct {
	ReadOnlyHint    *bool `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool `json:"openWorldHint,omitempty"`
}

// Keys of a tool's _meta that clients with a tool search of their own
// read. Claude Code defers MCP tools behind its ToolSearch unless
// "anthropic/alwaysLoad" is true, and matches "anthropic/searchHint"
// beside the name and description when it searches.
const (
	MetaAlwaysLoad = "anthropic/alwaysLoad"
	MetaSearchHint = "anthropic/searchHint"
)

// The meta-tools' search hints.
const (
	searchHint = "find CLI tools by task or error message"
	callHint   = "run a CLI tool found by climax_search"
)

// The registrations of docs/search.md (The meta-tools), property order kept.
const (
	searchDescription = "Find CLI tools by task or keyword; each result gives the tool_name and input_schema for climax_call. No arguments: an overview of the CLIs."
	searchSchema      = `{
  "type": "object",
  "properties": {
    "query": {
      "type": "string",
      "description": "Task or keywords"
    },
    "category": {
      "type": "string",
      "description": "Only CLIs of this category"
    },
    "cli": {
      "type": "string",
      "description": "Only this CLI"
    },
    "limit": {
      "type": "integer",
      "description": "Results per page (default 10)"
    },
    "offset": {
      "type": "integer",
      "description": "Results to skip (next page)"
    },
    "cwd": {
      "type": "string",
      "description": "Project directory: its tools rank first"
    }
  }
}`
	callDescription = "Execute a CLI tool by name. Use climax_search first to discover available tools and their argument schemas."
	callSchema      = `{
  "type": "object",
  "properties": {
    "tool_name": {
      "type": "string",
      "description": "The exact name of the tool to execute (as returned by climax_search)"
    },
    "args": {
      "type": "object",
      "description": "Arguments to pass to the tool (see tool's input_schema from climax_search); its working directory is its own arg for it (dir in bundled tools), not cwd"
    }
  },
  "required": ["tool_name"]
}`
)

// Definitions returns the definitions of climax_search and climax_call, in
// that order, with the names, descriptions and input schemas exactly as
// docs/search.md gives them. The input schemas are compact JSON. Both carry
// _meta {"anthropic/alwaysLoad": true, "anthropic/searchHint": "..."}, so
// that a client that defers tools behind its own search still shows them
// to the model. Each call returns fresh values.
func Definitions() []Definition {
	return []Definition{
		{Name: SearchName, Description: searchDescription, InputSchema: compact(searchSchema),
			Meta: map[string]any{MetaAlwaysLoad: true, MetaSearchHint: searchHint}},
		{Name: CallName, Description: callDescription, InputSchema: compact(callSchema),
			Meta: map[string]any{MetaAlwaysLoad: true, MetaSearchHint: callHint}},
	}
}

// DefinitionsFor returns [Definitions] with the annotations that fit ix:
// climax_search is read-only and closed-world (it only reads the index);
// climax_call is read-only exactly when every tool of ix is annotated
// read_only, and not destructive when none may destroy (each is read-only
// or annotated destructive: false); its other hints are left to MCP's
// defaults. Names, descriptions and input schemas are those of
// Definitions.
func DefinitionsFor(ix *index.Index) []Definition {
	defs := Definitions()
	yes, no := true, false
	defs[0].Annotations = &Annotations{ReadOnlyHint: &yes, OpenWorldHint: &no}
	readOnly, mayDestroy := true, false
	for _, rt := range ix.Tools() {
		readOnly = readOnly && rt.Tool.IsReadOnly()
		mayDestroy = mayDestroy || rt.Tool.MayDestroy()
	}
	var call Annotations
	switch {
	case readOnly:
		call.ReadOnlyHint = &yes
	case !mayDestroy:
		call.DestructiveHint = &no
	}
	if call != (Annotations{}) {
		defs[1].Annotations = &call
	}
	return defs
}

func compact(s string) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		panic("metatools: invalid built-in schema: " + err.Error())
	}
	return buf.Bytes()
}

// Tools answers meta-tool calls against one index.
type Tools struct {
	ix     *index.Index
	runner *executor.Runner
	// unserved are the lowercased names of the configs the caller could
	// have served and does not ([WithUnservedConfigs]), those that a
	// loaded CLI has or runs left out.
	unserved map[string]bool
	// programs are the programs the loaded CLIs run (see
	// [index.ProgramName]).
	programs map[string]bool
	// unrunnable names the CLIs whose calls cannot run ([WithUnrunnable]).
	unrunnable func() []string
}

// An Option configures [Tools].
type Option func(*Tools)

// WithUnservedConfigs names configs that exist but that this server was
// not started with: for climax, the bundled configs missing from its
// command line. A search whose query names one of them (as a whole word,
// ignoring case) says so in its hint, beside the results it finds
// (docs/search.md, Answers): "kubectl apply" on a server without kubectl
// otherwise finds only git_stash_apply. A name that a loaded CLI has, or
// whose program a loaded CLI runs, is served and gets no such hint.
func WithUnservedConfigs(names []string) Option {
	return func(t *Tools) {
		t.unserved = make(map[string]bool, len(names))
		for _, n := range names {
			t.unserved[strings.ToLower(n)] = true
		}
	}
}

// WithUnrunnable gives the function that names the CLIs whose calls
// cannot run now (their program is not installed, say): the overview's
// hint names them, so that a caller does not try their tools in vain
// (docs/search.md, Answers). It is called at each overview, so a program
// installed later shows at once.
func WithUnrunnable(names func() []string) Option {
	return func(t *Tools) { t.unrunnable = names }
}

// New returns the meta-tools for ix, running commands with runner.
func New(ix *index.Index, runner *executor.Runner, opts ...Option) *Tools {
	t := &Tools{ix: ix, runner: runner, programs: map[string]bool{}}
	for _, o := range opts {
		o(t)
	}
	for _, rt := range ix.Tools() {
		p := index.ProgramName(rt.CLI.Command)
		t.programs[p] = true
		delete(t.unserved, strings.ToLower(rt.CLI.Name))
		delete(t.unserved, strings.ToLower(p))
	}
	return t
}

// SearchResult is climax_search's answer: the JSON of docs/search.md,
// or the text of what was wrong with the arguments (IsError set).
type SearchResult struct {
	Text    string
	IsError bool
	// IgnoredArgs lists the keys of the call that are not climax_search's
	// properties, each with the one it probably stands for (as a call's
	// [executor.Result].IgnoredArgs does); the JSON of Text holds them
	// too, with a note. A server gives such an answer the JSON as
	// structuredContent, as a call's result gives its ignored_args.
	IgnoredArgs []executor.IgnoredArg
}

// CallResult is climax_call's answer: the executor's outcome, and the tool
// it was for.
type CallResult struct {
	executor.Outcome
	// Tool is the name of the tool that ran, or that failed validation;
	// empty when climax_call's own arguments were wrong or named no tool.
	Tool string
}

// searchResponse and summaryResponse are climax_search's two answers
// (docs/search.md, Answers). TotalMatches counts the tools that match
// (in the summary, the CLIs); Returned the ones in this answer; HasMore
// says that more follow them (pass offset Offset+Returned).
type searchResponse struct {
	Mode string `json:"mode"`
	ignoredKeys
	TotalMatches int           `json:"total_matches"`
	Returned     int           `json:"returned"`
	HasMore      bool          `json:"has_more"`
	Project      []string      `json:"project,omitempty"`
	Hint         string        `json:"hint,omitempty"`
	Results      []index.Entry `json:"results"`
}

type summaryResponse struct {
	Mode string `json:"mode"`
	ignoredKeys
	TotalMatches int                `json:"total_matches"`
	Returned     int                `json:"returned"`
	HasMore      bool               `json:"has_more"`
	Hint         string             `json:"hint,omitempty"`
	Summary      []index.CLISummary `json:"summary"`
}

// ignoredKeys are the fields of both answers on keys climax_search does
// not have (docs/search.md, Unknown keys): Note, the line a climax_call
// result starts with for such names, and the names with their likely
// meaning, as a call's structuredContent lists them.
type ignoredKeys struct {
	Note               string                `json:"note,omitempty"`
	IgnoredArgs        []executor.IgnoredArg `json:"ignored_args,omitempty"`
	IgnoredArgsOmitted int                   `json:"ignored_args_omitted,omitempty"`
}

// searchProperties are climax_search's properties in the order of its
// schema.
var searchProperties = []string{"query", "category", "cli", "limit", "offset", "cwd"}

// searchTool is climax_search's properties as a tool's arguments (types
// and descriptions from its schema, cwd the working-directory argument),
// so that its unknown keys get the suggestions a tool's get: "clii" is
// cli, "dir" and "project" are cwd, "keywords" is query (its description
// is "Task or keywords").
var searchTool = func() *config.Tool {
	var schema struct {
		Properties map[string]struct{ Type, Description string }
	}
	if err := json.Unmarshal([]byte(searchSchema), &schema); err != nil {
		panic("metatools: invalid built-in schema: " + err.Error())
	}
	t := &config.Tool{Name: SearchName}
	for _, name := range searchProperties {
		p := schema.Properties[name]
		t.Args = append(t.Args, config.Arg{Name: name, Type: config.ArgType(p.Type), Description: p.Description, Cwd: name == "cwd"})
	}
	return t
}()

// searchAliases are other keys callers use for climax_search's
// properties, in [squash]ed form: a search engine's "q", a tool search's
// "tool_name", a page size's "max_results", a page number's "page" (the
// next page is a larger offset). They win over the suggestions of
// [executor.SuggestArgFor], which find none for most of them and would
// take "page" for limit ("Results per page").
var searchAliases = map[string]string{
	"q": "query", "search": "query", "keyword": "query", "term": "query", "terms": "query", "text": "query",
	"find": "query", "task": "query", "prompt": "query", "question": "query", "topic": "query",
	"tool": "query", "toolname": "query", "name": "query", "searchterm": "query", "searchquery": "query",
	"program": "cli", "command": "cli", "cmd": "cli", "binary": "cli", "app": "cli",
	"tag": "category", "tags": "category", "type": "category", "group": "category", "kind": "category",
	"max": "limit", "maxresults": "limit", "count": "limit", "n": "limit", "num": "limit", "size": "limit",
	"pagesize": "limit", "perpage": "limit", "top": "limit", "topk": "limit", "k": "limit",
	"skip": "offset", "start": "offset", "page": "offset", "from": "offset", "cursor": "offset",
}

// squash lowers s and drops "_", "-", "." and " ", so that max_results,
// maxResults and max-results compare equal.
func squash(s string) string {
	return strings.ReplaceAll(normKey(s), "_", "")
}

// searchIgnored returns the keys of args that are not climax_search's
// properties, each with the one it probably stands for, and how many
// more there are beyond the listed ones (see [executor.UnknownArgs]).
func searchIgnored(args map[string]any) ([]executor.IgnoredArg, int) {
	ignored, more := executor.UnknownArgs(searchTool, args)
	for i := range ignored {
		if p, ok := searchAliases[squash(ignored[i].Name)]; ok {
			ignored[i].DidYouMean, ignored[i].DidYouMeanType = p, ""
		}
	}
	return ignored, more
}

// Search answers climax_search. args holds the JSON-decoded arguments (nil
// means none). The text is {"mode":"search",...,"results":[...]} or, when
// query, category and cli are all absent (or null),
// {"mode":"summary",...,"summary":[...]}; both are one page: limit
// entries from offset.
func (t *Tools) Search(args map[string]any) SearchResult {
	ignored, more := searchIgnored(args)
	keys := ignoredKeys{Note: executor.IgnoredNote(ignored, more, SearchName, "the search"), IgnoredArgs: ignored, IgnoredArgsOmitted: more}
	res := t.search(args, keys)
	switch {
	case keys.Note == "":
	case res.IsError:
		res.Text = keys.Note + "\n\n" + res.Text
	default:
		res.IgnoredArgs = ignored
	}
	return res
}

// search is [Tools.Search] with the note on the keys it ignores already
// made: the answer's JSON holds it.
func (t *Tools) search(args map[string]any, keys ignoredKeys) SearchResult {
	var problems []string
	given := false
	str := func(name string) string {
		v, ok := args[name]
		if !ok || v == nil {
			return ""
		}
		s, ok := v.(string)
		if !ok {
			problems = append(problems, fmt.Sprintf("Argument '%s' must be a string (got %s)", name, jsonType(v)))
			return ""
		}
		return strings.TrimSpace(s)
	}
	query, category, cli := str("query"), str("category"), str("cli")
	for _, name := range []string{"query", "category", "cli"} {
		if _, ok := args[name].(string); ok {
			given = true
		}
	}
	cwd := str("cwd")
	if len(problems) > 0 {
		return SearchResult{Text: validationText(problems), IsError: true}
	}
	if len(query) > MaxQueryBytes {
		return SearchResult{Text: fmt.Sprintf("Query too long: %d bytes (limit %d); search with a few keywords", len(query), MaxQueryBytes), IsError: true}
	}
	limit := parseWholeArg(args["limit"], DefaultLimit)
	offset := parseWholeArg(args["offset"], 0)

	var resp any
	if !given {
		sum := t.summary(offset, limit)
		sum.ignoredKeys = keys
		resp = sum
	} else {
		opts := index.SearchOptions{Category: category, CLI: cli, Offset: offset, Limit: limit}
		var programs []string
		if cwd != "" {
			p, err := ProbeProject(cwd)
			if err != nil {
				return SearchResult{Text: fmt.Sprintf("Argument 'cwd': %s; give the project's directory, or leave cwd out", err), IsError: true}
			}
			opts.Project = p
			programs = t.loadedPrograms(p.Uses)
		}
		page := t.ix.SearchPage(query, opts)
		resp = searchResponse{
			Mode:         "search",
			ignoredKeys:  keys,
			TotalMatches: page.Total,
			Returned:     len(page.Results),
			HasMore:      offset < page.Total && page.Total-offset > len(page.Results),
			Project:      programs,
			Hint:         t.searchHint(query, category, cli, offset, page.Total),
			Results:      page.Results,
		}
	}
	text, err := marshal(resp)
	if err != nil {
		return SearchResult{Text: "Search failed: " + err.Error(), IsError: true}
	}
	return SearchResult{Text: text}
}

// summary is the overview answer: one page of the loaded CLIs, with a
// hint saying how to see the others when it does not show them all.
func (t *Tools) summary(offset, limit int) summaryResponse {
	all := t.ix.Summary()
	page := all[min(offset, len(all)):]
	page = page[:min(limit, len(page))]
	resp := summaryResponse{Mode: "summary", TotalMatches: len(all), Returned: len(page), HasMore: offset < len(all) && len(all)-offset > len(page), Summary: page}
	switch {
	case resp.HasMore && len(page) > 0:
		resp.Hint = fmt.Sprintf("Showing %s; call again with offset %d (or a larger limit) for the rest.",
			shownRange(offset, len(page), len(all)), offset+len(page))
	case len(page) == 0 && offset > 0 && len(all) > 0:
		resp.Hint = pastTheLast(offset, len(all), "CLI", "CLIs")
	}
	if t.unrunnable != nil {
		if names := t.unrunnable(); len(names) > 0 {
			resp.Hint = strings.TrimSpace(resp.Hint + " " + unrunnableNote(names))
		}
	}
	return resp
}

// unrunnableNote says which CLIs cannot run here: "jj and obsidian cannot
// run here (their program is not found): their calls fail."
func unrunnableNote(names []string) string {
	if len(names) == 1 {
		return fmt.Sprintf("%s cannot run here (its program is not found, or its container runtime): its calls fail.", names[0])
	}
	list := listNames(names[:len(names)-1], maxListed) + " and " + names[len(names)-1]
	if len(names)-1 > maxListed {
		list = listNames(names, maxListed)
	}
	return fmt.Sprintf("%s cannot run here (their programs are not found, or their container runtime): their calls fail.", list)
}

// pastTheLast is the hint of a page whose offset is past the last of
// total items: "Offset 40 is past the last of 23 matches.", "Offset 5 is
// past the only match."
func pastTheLast(offset, total int, one, many string) string {
	if total == 1 {
		return fmt.Sprintf("Offset %d is past the only %s.", offset, one)
	}
	return fmt.Sprintf("Offset %d is past the last of %d %s.", offset, total, many)
}

// shownRange says which of total CLIs a page of n from offset holds:
// "10 of 14 CLIs", "CLIs 11-20 of 25", "CLI 11 of 25".
func shownRange(offset, n, total int) string {
	switch {
	case offset == 0:
		return fmt.Sprintf("%d of %d CLIs", n, total)
	case n == 1:
		return fmt.Sprintf("CLI %d of %d", offset+1, total)
	}
	return fmt.Sprintf("CLIs %d-%d of %d", offset+1, offset+n, total)
}

// searchHint is the hint of a search answer: that the query or cli names
// a config this server does not serve ([WithUnservedConfigs]), and when
// there are no results, why and what to try instead. It is empty when
// there are results and the names are all served.
func (t *Tools) searchHint(query, category, cli string, offset, total int) string {
	unserved := t.unservedNamed(query, cli)
	hint := unservedNote(unserved, cli)
	if total > 0 && offset < total {
		if query == "" && category == "" && cli == "" {
			return emptyQueryHint
		}
		return hint
	}
	return strings.TrimSpace(hint + " " + t.emptyHint(category, cli, offset, total, len(unserved) > 0 && strings.EqualFold(unserved[0], cli)))
}

// emptyQueryHint is the hint of a search with an empty query and no
// filter: every tool matches it, in load order, which is seldom what the
// caller wanted.
const emptyQueryHint = "An empty query matches every tool, in load order: search with words (what the tool does, or the program's name), or call " + SearchName + " with no arguments for an overview of the CLIs."

// emptyHint is the hint of a search answer without results: why, and what
// to try instead. cliSaid is set when the hint already says that no CLI is
// named cli.
func (t *Tools) emptyHint(category, cli string, offset, total int, cliSaid bool) string {
	if total > 0 {
		return pastTheLast(offset, total, "match", "matches")
	}
	summary := t.ix.Summary()
	if cli != "" && !slices.ContainsFunc(summary, func(c index.CLISummary) bool { return strings.EqualFold(c.Name, cli) }) {
		var names []string
		for _, c := range summary {
			names = append(names, c.Name)
		}
		if cliSaid {
			return fmt.Sprintf("The CLIs are: %s.", listNames(names, maxListed))
		}
		return fmt.Sprintf("No CLI is named %s. The CLIs are: %s.", displayName(cli), listNames(names, maxListed))
	}
	if category != "" && !slices.ContainsFunc(summary, func(c index.CLISummary) bool {
		return c.Category != nil && strings.EqualFold(*c.Category, category)
	}) {
		var cats []string
		for _, c := range summary {
			if c.Category != nil && !slices.Contains(cats, *c.Category) {
				cats = append(cats, *c.Category)
			}
		}
		if len(cats) == 0 {
			return fmt.Sprintf("No CLI has the category %s; none has a category.", displayName(category))
		}
		return fmt.Sprintf("No CLI has the category %s. The categories are: %s.", displayName(category), listNames(cats, maxListed))
	}
	return fmt.Sprintf("No tool matches. Try fewer or other words (what the tool does, or the program's name), or call %s with no arguments for an overview of the CLIs.", SearchName)
}

// unservedNamed returns the unserved configs ([WithUnservedConfigs]) that
// the cli filter or a word of the query names, cli first and then in the
// order of the query, each once. A word is a run of letters and digits.
func (t *Tools) unservedNamed(query, cli string) []string {
	if len(t.unserved) == 0 {
		return nil
	}
	words := append([]string{strings.ToLower(cli)}, strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})...)
	var named []string
	for _, w := range words {
		if t.unserved[w] && !slices.Contains(named, w) {
			named = append(named, w)
		}
	}
	return named
}

// unservedNote says which unserved configs the search names. The cli
// filter names a CLI for certain: "No CLI is named kubectl here: it is a
// bundled config this server was not started with." A word of the query
// may be an everyday word too ("make a branch"), so for those the note is
// conditional: "If you meant the program kubectl: it is a bundled config
// this server was not started with."
func unservedNote(names []string, cli string) string {
	var parts []string
	if len(names) > 0 && strings.EqualFold(names[0], cli) {
		parts = append(parts, fmt.Sprintf("No CLI is named %s here: it is a bundled config this server was not started with.", names[0]))
		names = names[1:]
	}
	switch len(names) {
	case 0:
	case 1:
		parts = append(parts, fmt.Sprintf("If you meant the program %s: it is a bundled config this server was not started with.", names[0]))
	default:
		list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
		parts = append(parts, fmt.Sprintf("If you meant the programs %s: they are bundled configs this server was not started with.", list))
	}
	return strings.Join(parts, " ")
}

// loadedPrograms returns the programs of uses that a loaded CLI runs, in
// the order of uses.
func (t *Tools) loadedPrograms(uses []string) []string {
	out := []string{}
	for _, u := range uses {
		if t.programs[u] {
			out = append(out, u)
		}
	}
	return out
}

// parseWhole parses a decimal number for parseWholeArg: a number too
// large for float64 (1e400) is +Inf, which caps like any large number.
func parseWhole(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && f > 0) {
		return 0, false
	}
	return f, true
}

// parseWholeArg returns v (limit or offset) as a non-negative integer, or
// def when it is absent or not one. Integer-valued numbers and strings
// holding one are accepted; values beyond 2^31-1 are capped.
func parseWholeArg(v any, def int) int {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int:
		f = float64(x)
	case int64:
		f = float64(x)
	case json.Number:
		g, ok := parseWhole(string(x))
		if !ok {
			return def
		}
		f = g
	case string:
		g, ok := parseWhole(strings.TrimSpace(x))
		if !ok {
			return def
		}
		f = g
	default:
		return def
	}
	if math.IsNaN(f) || f < 0 || f != math.Trunc(f) {
		return def
	}
	if f >= math.MaxInt32 {
		return math.MaxInt32
	}
	return int(f)
}

// marshal encodes v as compact JSON without HTML escaping, so that <, >
// and & stay readable, and without the trailing newline.
func marshal(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// Call answers climax_call for a caller that cannot ask anyone for
// approval: [Tools.Prepare], then the call runs ([executor.Call.Run]; a
// tool that needs approval is refused, as [executor.Runner.Call] does),
// then [Tools.Finish]. Its result is the one a classic call of the same
// tool with the same args gives.
func (t *Tools) Call(ctx context.Context, args map[string]any) CallResult {
	c, refused := t.Prepare(args)
	if c == nil {
		return refused
	}
	if c.Tool.Confirm {
		return CallResult{Outcome: c.Unapproved(), Tool: refused.Tool}
	}
	return CallResult{Outcome: t.Finish(c, args, c.Run(ctx)), Tool: refused.Tool}
}

// Prepare checks climax_call's tool_name and args, looks the tool up and
// prepares its call ([executor.Runner.Prepare]). When the call cannot run
// the Call is nil and the CallResult is the answer; else the CallResult
// only names the tool.
func (t *Tools) Prepare(args map[string]any) (*executor.Call, CallResult) {
	var problems []string
	name := ""
	switch v := args["tool_name"].(type) {
	case nil:
		problems = append(problems, "Missing required argument 'tool_name'"+nameElsewhere(args))
	case string:
		name = strings.TrimSpace(v)
		if name == "" {
			problems = append(problems, "Missing required argument 'tool_name'")
		}
	default:
		problems = append(problems, fmt.Sprintf("Argument 'tool_name' must be a string (got %s)", jsonType(v)))
	}
	toolArgs := map[string]any{}
	switch v := args["args"].(type) {
	case nil:
		// Without args, another key most likely holds the tool's
		// arguments ("arguments", or the arguments themselves): the call
		// must not run with none of them.
		if p := strayKeysProblem(args, cmp.Or(name, "TOOL")); p != "" {
			problems = append(problems, p)
		}
	case map[string]any:
		toolArgs = v
	default:
		problems = append(problems, fmt.Sprintf("Argument 'args' must be an object (got %s)", jsonType(v)))
	}
	if len(problems) > 0 {
		return nil, CallResult{Outcome: executor.Outcome{Text: validationText(problems), IsError: true}}
	}
	rt, ok := t.ix.Get(name)
	if !ok {
		return nil, CallResult{Outcome: executor.Outcome{Text: t.unknownTool(name), IsError: true}}
	}
	c, out := t.runner.Prepare(rt, toolArgs)
	return c, CallResult{Outcome: out, Tool: name}
}

// maxStrayKeys is how many of the keys besides tool_name and args a
// climax_call error names; the rest are counted.
const maxStrayKeys = 5

// strayKeysProblem is the problem of a climax_call without args whose
// other keys are most likely the tool's arguments: one line naming the
// first few of them (sorted) and how to send them, "" when there are
// none.
func strayKeysProblem(args map[string]any, example string) string {
	keys := otherKeys(args)
	if len(keys) == 0 {
		return ""
	}
	shown := make([]string, 0, maxStrayKeys)
	for _, k := range keys[:min(len(keys), maxStrayKeys)] {
		shown = append(shown, "'"+displayName(k)+"'")
	}
	what := "Unknown argument " + shown[0]
	if len(keys) > 1 {
		what = "Unknown arguments " + strings.Join(shown, ", ")
		if more := len(keys) - len(shown); more > 0 {
			what += fmt.Sprintf(" and %d more", more)
		}
	}
	return fmt.Sprintf("%s: climax_call takes tool_name and args; put the tool's arguments in args, e.g. {\"tool_name\": \"%s\", \"args\": {...}}", what, displayName(example))
}

// otherKeys returns the keys of climax_call's args besides tool_name and
// args, sorted.
func otherKeys(args map[string]any) []string {
	var keys []string
	for k := range args {
		if k != "tool_name" && k != "args" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// nameAliases are keys a caller may use for climax_call's tool_name,
// normalized as by normKey.
var nameAliases = []string{"tool", "toolname", "name", "tool_id", "toolid", "function", "command", "cmd"}

// nameElsewhere is the hint added when tool_name is missing and another
// key with a string value likely holds the name: " (did you mean to send
// 'tool' as tool_name?)", or "" when none does.
func nameElsewhere(args map[string]any) string {
	for _, k := range slices.Sorted(maps.Keys(args)) {
		if _, ok := args[k].(string); !ok || k == "args" {
			continue
		}
		n := normKey(k)
		if slices.Contains(nameAliases, n) || config.Suggest(n, []string{"tool_name"}) != "" {
			return fmt.Sprintf(" (did you mean to send '%s' as tool_name?)", displayName(k))
		}
	}
	return ""
}

// normKey lowers k and writes '-', '.' and ' ' as '_'.
func normKey(k string) string {
	return keySeparators.Replace(strings.ToLower(k))
}

var keySeparators = strings.NewReplacer("-", "_", ".", "_", " ", "_")

// Finish completes the outcome of a climax_call c whose command ran, args
// being climax_call's own arguments: keys beside tool_name and args are
// ignored too, and a tool's argument put there ("cwd" next to args) is a
// likely mistake, so the result text starts with a line naming them.
func (t *Tools) Finish(c *executor.Call, args map[string]any, out executor.Outcome) executor.Outcome {
	if out.Result != nil {
		if note := besideArgsNote(c.Tool.Tool, args); note != "" {
			out.Text = note + "\n\n" + out.Text
		}
	}
	return out
}

// maxBeside is how many keys beside tool_name and args the note names.
const maxBeside = 5

// besideArgsNote is the line a climax_call result starts with when the
// call gave keys other than tool_name and args: they are not the tool's
// arguments, which go in args. "" when there are none.
//
//	[ignored climax_call key 'cwd' (did you mean args.dir?): the tool's arguments go in args]
func besideArgsNote(tool *config.Tool, args map[string]any) string {
	keys := otherKeys(args)
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	if len(keys) == 1 {
		b.WriteString("[ignored climax_call key ")
	} else {
		b.WriteString("[ignored climax_call keys ")
	}
	for i, k := range keys {
		if i == maxBeside {
			fmt.Fprintf(&b, " and %d more", len(keys)-maxBeside)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'%s'", displayName(executor.EscapeControl(k))) // as the other notes show a name
		if s := executor.SuggestArgFor(tool, k, args[k]); s != "" {
			fmt.Fprintf(&b, " (did you mean args.%s?)", s)
		}
	}
	b.WriteString(": the tool's arguments go in args]")
	return b.String()
}

func validationText(problems []string) string {
	return (&executor.ValidationError{Problems: problems}).Error()
}

// unknownTool is the text of climax_call for a name the index does not
// hold: "Unknown tool: NAME", then close names, the available tools
// and a hint.
func (t *Tools) unknownTool(name string) string {
	names := t.ix.Names()
	var b strings.Builder
	fmt.Fprintf(&b, "Unknown tool: %s", displayName(name))
	if name == SearchName || name == CallName {
		fmt.Fprintf(&b, "\n%s is a meta-tool: call it directly, not through %s.", name, CallName)
	}
	if s := Suggestions(name, names); len(s) > 0 {
		fmt.Fprintf(&b, "\nDid you mean: %s?", strings.Join(s, ", "))
	}
	if len(names) == 0 {
		b.WriteString("\nNo tools are available.")
		return b.String()
	}
	b.WriteString("\nAvailable tools: ")
	b.WriteString(listNames(names, maxListed))
	fmt.Fprintf(&b, "\nUse %s to find tools and their argument schemas.", SearchName)
	return b.String()
}

// Unlisted is the text of a tools/call of a name that tools/list does not
// hold, in discovery mode or, with classic set, in classic mode. In
// discovery mode it says how to reach a tool that exists behind
// climax_call; in classic mode it offers close names.
func (t *Tools) Unlisted(name string, classic bool) string {
	text := "Unknown tool: " + displayName(name)
	if !classic {
		if _, ok := t.ix.Get(name); ok {
			return text + fmt.Sprintf("\n%s is not listed directly: run it with %s (tool_name %q).", name, CallName, name)
		}
		return text + fmt.Sprintf("\nThis server lists only %s and %s: find tools with %s, then run them with %s.",
			SearchName, CallName, SearchName, CallName)
	}
	if sug := Suggestions(name, t.ix.Names()); len(sug) > 0 {
		text += "\nDid you mean: " + strings.Join(sug, ", ") + "?"
	}
	return text
}

// listNames joins names with ", ", listing at most max of them followed by
// "... and N more".
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, ... and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, float32, int, int64, json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	default:
		return fmt.Sprintf("%T", v)
	}
}
