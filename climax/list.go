package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// listCmd lists the bundled configs or the tools of configs.
type listCmd struct {
	Policy   string `help:"Policy file to apply: disabled tools are left out, descriptions overridden." placeholder:"FILE" env:"CLIMAX_POLICY"`
	Format   string `help:"Output format: text (a table) or json." enum:"text,json" default:"text" short:"f"`
	ReadOnly bool   `help:"${read_only_help}" env:"CLIMAX_READ_ONLY"`

	Configs []string `arg:"" optional:"" name:"CONFIG" help:"Bundled config name (e.g. git) or path to a YAML config; none lists the bundled configs."`
}

// bundledEntry is one bundled config in 'climax list --format json'.
type bundledEntry struct {
	Name        string   `json:"name"`     // what to type: climax NAME
	CLIName     string   `json:"cli_name"` // the config's name field
	Description string   `json:"description"`
	ToolCount   int      `json:"tool_count"`
	Category    *string  `json:"category"`
	Tags        []string `json:"tags"`
}

// listedTool is one tool in 'climax list CONFIG --format json': a search
// result with its CLI's category and tags, which climax_search leaves out
// of its results (a listing is read whole, not spent per call).
type listedTool struct {
	index.Entry
	Category *string  `json:"category"`
	Tags     []string `json:"tags"`
}

// Run prints the list.
func (c *listCmd) Run(e *env) error {
	e = e.forText()
	if len(c.Configs) == 0 {
		return c.listBundled(e)
	}
	ix, warnings, err := buildIndex(c.Configs, c.Policy, c.ReadOnly, "")
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "climax: warning: %s\n", w)
	}
	if c.Format == "json" {
		tools := []listedTool{}
		for _, en := range ix.Entries() {
			tools = append(tools, listedTool{Entry: en, Category: en.Category, Tags: en.Tags})
		}
		return writeJSON(e.stdout, map[string]any{"tools": tools})
	}
	tools := ix.Tools()
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCLI\tARGS\tDESCRIPTION")
	for _, rt := range tools {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rt.Tool.Name, rt.CLI.Name, argsSummary(rt.Tool.Args), shorten(rt.Tool.Description, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d %s\n", len(tools), plural(len(tools), "tool", "tools"))
	return nil
}

func (c *listCmd) listBundled(e *env) error {
	var entries []bundledEntry
	for _, name := range bundledNames() {
		cfg, err := config.LoadFS(configs.FS, name+".yaml")
		if err != nil {
			return fmt.Errorf("bundled config %s: %w", name, err)
		}
		sum := index.Summarize(cfg)
		entries = append(entries, bundledEntry{
			Name:        name,
			CLIName:     sum.Name,
			Description: sum.Description,
			ToolCount:   sum.ToolCount,
			Category:    sum.Category,
			Tags:        sum.Tags,
		})
	}
	if c.Format == "json" {
		if entries == nil {
			entries = []bundledEntry{}
		}
		return writeJSON(e.stdout, map[string]any{"configs": entries})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTOOLS\tCATEGORY\tDESCRIPTION")
	for _, b := range entries {
		cat := "-"
		if b.Category != nil {
			cat = *b.Category
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", b.Name, b.ToolCount, cat, shorten(b.Description, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, "\nServe one with 'climax NAME'; see its tools with 'climax list NAME'.")
	return nil
}

// argsSummary shows a tool's arguments compactly: required ones bare,
// optional ones in brackets, arrays followed by "...".
func argsSummary(args []config.Arg) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		name := a.Name
		if a.Type == config.TypeArray {
			name += "..."
		}
		if a.Required {
			parts = append(parts, name)
		} else {
			parts = append(parts, "["+name+"]")
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return shorten(strings.Join(parts, " "), 40)
}

// shorten returns the first line of s, cut to at most n runes with "…".
func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
