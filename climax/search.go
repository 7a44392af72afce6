package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/alecthomas/kong"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/metatools"
)

// searchCmd runs the climax_search ranking from the command line, so that
// a config author can check that their tools are found.
type searchCmd struct {
	CLI      string `name:"cli" help:"Only tools of this CLI (its name field, case-insensitive)." placeholder:"NAME"`
	Category string `help:"Only tools of CLIs in this category (case-insensitive)." placeholder:"C"`
	Limit    int    `help:"Maximum number of results." default:"10" placeholder:"N"`
	Offset   int    `help:"Skip this many of the best results (the next page)." default:"0" placeholder:"N"`
	Cwd      string `name:"cwd" help:"Project directory: the tools of the programs it uses (go.mod, Cargo.toml, package.json, Makefile, compose files, .git, .jj) rank first, as climax_search's cwd." placeholder:"DIR"`
	Explain  bool   `help:"Show why each result ranks where it does: the query words it matched, how (exactly, as a synonym, another word form or a typo correction) and in which fields, and its score."`
	Format   string `help:"Output format: text, or json (the climax_search result as an MCP client gets it; with --explain, the explanation)." enum:"text,json" default:"text" short:"f"`
	Policy   string `help:"Policy file to apply: disabled tools are left out, descriptions overridden." placeholder:"FILE" env:"CLIMAX_POLICY"`
	ReadOnly bool   `help:"${read_only_help}" env:"CLIMAX_READ_ONLY"`

	Query   string   `arg:"" name:"QUERY" help:"What to look for, as an agent would ask: words, a task, a question, an error message."`
	Configs []string `arg:"" optional:"" name:"CONFIG" help:"Bundled config name (e.g. git) or path to a YAML config; none searches every bundled config."`
}

// Run prints the results.
func (c *searchCmd) Run(e *env) error {
	e = e.forText()
	if c.Limit < 0 {
		return usagef("--limit must be 0 or more, got %d", c.Limit)
	}
	if c.Offset < 0 {
		return usagef("--offset must be 0 or more, got %d", c.Offset)
	}
	// climax_search refuses such a query; so does every form of the
	// command, so that it never ranks what the server would not.
	if n := len(strings.TrimSpace(c.Query)); n > metatools.MaxQueryBytes {
		return usagef("Query too long: %d bytes (limit %d); search with a few keywords", n, metatools.MaxQueryBytes)
	}
	refs := c.Configs
	if len(refs) == 0 {
		refs = bundledNames()
	}
	ix, warnings, err := buildIndex(refs, c.Policy, c.ReadOnly, "")
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "climax: warning: %s\n", w)
	}
	if c.Explain {
		ex := ix.Explain(c.Query, c.Category, c.CLI, c.Limit)
		if c.Format == "json" {
			return writeJSON(e.stdout, ex)
		}
		return printExplanation(e.stdout, ex)
	}
	if c.Format == "json" {
		return c.printJSON(e, ix)
	}
	return c.printTable(e, ix)
}

// withQueryUsage replaces kong's refusal of a search command line
// without QUERY (`expected "<QUERY>"`), which says neither that CONFIG...
// follows it nor where the CLIs are listed, with a message that does;
// other errors are returned as they are.
func withQueryUsage(err error) error {
	var pe *kong.ParseError
	if !errors.As(err, &pe) || pe.Context == nil || pe.Context.Selected() == nil ||
		pe.Context.Selected().Name != "search" || !strings.HasPrefix(pe.Error(), "expected ") {
		return err
	}
	for _, p := range pe.Context.Path {
		if p.Positional != nil && p.Positional.Name == "QUERY" {
			return err // not the query that is missing
		}
	}
	return &noQueryError{pe}
}

// noQueryError is a search command line without QUERY: a parse error that
// says what to pass.
type noQueryError struct{ pe *kong.ParseError }

func (e *noQueryError) Error() string {
	return "no query given\n" +
		`usage: climax search QUERY [CONFIG...]   (e.g. climax search "show commit history", or climax search "list containers" docker)` + "\n" +
		"'climax list' shows the bundled configs, 'climax list CONFIG...' the tools of some"
}

func (e *noQueryError) Unwrap() error { return e.pe }

// printJSON writes exactly what climax_search answers.
func (c *searchCmd) printJSON(e *env, ix *index.Index) error {
	args := map[string]any{"query": c.Query, "limit": c.Limit, "offset": c.Offset}
	if c.Cwd != "" {
		args["cwd"] = c.Cwd
	}
	if c.CLI != "" {
		args["cli"] = c.CLI
	}
	if c.Category != "" {
		args["category"] = c.Category
	}
	var unserved []string
	if len(c.Configs) > 0 { // none searches every bundled config
		unserved = unservedBundled(c.Configs)
	}
	out := metatools.New(ix, nil, metatools.WithUnservedConfigs(unserved)).Search(args)
	if out.IsError {
		return fmt.Errorf("%s", out.Text)
	}
	_, err := fmt.Fprintln(e.stdout, out.Text)
	return err
}

// printTable writes the results for people: rank, name, CLI and
// description, and how many more there are.
func (c *searchCmd) printTable(e *env, ix *index.Index) error {
	opts := index.SearchOptions{Category: c.Category, CLI: c.CLI, Offset: c.Offset, Limit: c.Limit}
	if c.Cwd != "" {
		p, err := metatools.ProbeProject(c.Cwd)
		if err != nil {
			return usagef("--cwd: %v", err)
		}
		opts.Project = p
	}
	page := ix.SearchPage(c.Query, opts)
	if len(page.Results) == 0 {
		if page.Total > 0 {
			fmt.Fprintf(e.stdout, "no tools found from offset %d (%d in all)\n", c.Offset, page.Total)
		} else {
			fmt.Fprintln(e.stdout, "no tools found")
		}
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tNAME\tCLI\tDESCRIPTION")
	for i, r := range page.Results {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", c.Offset+i+1, r.ToolName, r.CLIName, shorten(r.Description, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rest := page.Total - c.Offset - len(page.Results); rest > 0 {
		_, err := fmt.Fprintf(e.stdout, "... %d more (--offset %d)\n", rest, c.Offset+len(page.Results))
		return err
	}
	return nil
}

// printExplanation writes an explanation for people: the query words, typo
// corrections, then each result with its score and matches.
func printExplanation(w io.Writer, ex index.Explanation) error {
	words := "(none: every tool matches)"
	if len(ex.Words) > 0 {
		words = strings.Join(ex.Words, " ")
	}
	fmt.Fprintf(w, "query words: %s\n", words)
	for _, c := range ex.Corrections {
		fmt.Fprintf(w, "typo: %s → %s\n", c.Word, strings.Join(c.Terms, ", "))
	}
	if len(ex.Results) == 0 {
		_, err := fmt.Fprintln(w, "no tools found")
		return err
	}
	for i, r := range ex.Results {
		fmt.Fprintf(w, "\n%d. %s (%s)  score %.3f", i+1, r.Entry.ToolName, r.Entry.CLIName, r.Score)
		if r.TermScore > 0 {
			fmt.Fprintf(w, "  (terms %.3f, coverage %.2f, in name %.2f", r.TermScore, r.Coverage, r.InName)
			if r.Factor != 0 {
				fmt.Fprintf(w, ", factor %.2f", r.Factor)
			}
			fmt.Fprint(w, ")")
		}
		fmt.Fprintln(w)
		for _, m := range r.Matches {
			how := m.Query
			if m.Term != m.Query {
				how += " → " + m.Term
			}
			if m.Via != "exact" {
				how += " (" + m.Via + ")"
			}
			fmt.Fprintf(w, "   %-32s %.3f  in %s\n", how, m.Score, strings.Join(m.Fields, ", "))
		}
		for _, p := range r.Phrases {
			fmt.Fprintf(w, "   phrase %q\n", p)
		}
		if r.Keyword != "" {
			fmt.Fprintf(w, "   keyword %q in the query  %.3f\n", r.Keyword, r.KeywordScore)
		}
		switch r.Literal {
		case "name":
			fmt.Fprintln(w, "   the whole query is in its name")
		case "text":
			fmt.Fprintln(w, "   the whole query is in its text")
		}
		if r.CommandLine {
			fmt.Fprintln(w, "   the query opens with its command line")
		}
	}
	return nil
}
