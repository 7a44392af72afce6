package realtest

import (
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
)

// The obsidian sandbox: the Obsidian CLI talks to a running Obsidian app,
// which no test machine has; where the CLI exists, the calls need the app
// running on a test vault, so they are skipped unless CLIMAX_OBSIDIAN_VAULT
// names one (a vault the calls may change), which every call picks with its
// vault arg. The calls are what a run against such a vault checks;
// TestObsidianArgv checks, without the CLI, the words they become.
func init() {
	register(&suite{
		config: "obsidian",
		prepare: func(t *testing.T, sb *sandbox) {
			if envValue(sb.env, "CLIMAX_OBSIDIAN_VAULT") == "" {
				sb.skipTool("needs a running Obsidian app and a test vault (CLIMAX_OBSIDIAN_VAULT)",
					"obsidian_read", "obsidian_search", "obsidian_search_context", "obsidian_files", "obsidian_tags",
					"obsidian_links", "obsidian_backlinks", "obsidian_outline", "obsidian_create", "obsidian_append",
					"obsidian_daily_append", "obsidian_move", "obsidian_delete")
			}
		},
		calls: func(sb *sandbox) []call {
			v := envValue(sb.env, "CLIMAX_OBSIDIAN_VAULT")
			return []call{
				{tool: "obsidian_create", args: a{"vault": v, "path": "climax-test/alpha.md", "content": "# Alpha\n\nSee [[beta]] #climax-test", "overwrite": true}},
				{tool: "obsidian_create", args: a{"vault": v, "path": "climax-test/beta.md", "content": "# Beta\n\n## Part\nlinks back to [[alpha]]", "overwrite": true}},
				{tool: "obsidian_read", args: a{"vault": v, "path": "climax-test/alpha.md"}, want: []string{"# Alpha"}},
				{tool: "obsidian_append", args: a{"vault": v, "path": "climax-test/alpha.md", "content": "appended line"}},
				{tool: "obsidian_search", args: a{"vault": v, "query": "appended line", "path": "climax-test"}, want: []string{"alpha"}},
				{tool: "obsidian_search_context", args: a{"vault": v, "query": "links back", "path": "climax-test"}, want: []string{"links back"}},
				{tool: "obsidian_files", args: a{"vault": v, "folder": "climax-test"}, want: []string{"alpha.md", "beta.md"}},
				{tool: "obsidian_tags", args: a{"vault": v, "path": "climax-test/alpha.md"}, want: []string{"climax-test"}},
				{tool: "obsidian_links", args: a{"vault": v, "path": "climax-test/alpha.md"}, want: []string{"beta"}},
				{tool: "obsidian_backlinks", args: a{"vault": v, "path": "climax-test/alpha.md"}, want: []string{"beta"}},
				{tool: "obsidian_outline", args: a{"vault": v, "path": "climax-test/beta.md"}, want: []string{"Part"}},
				{tool: "obsidian_daily_append", args: a{"vault": v, "content": "climax test entry"}},
				{tool: "obsidian_move", args: a{"vault": v, "path": "climax-test/beta.md", "to": "climax-test/gamma.md"}},
				{tool: "obsidian_delete", args: a{"vault": v, "path": "climax-test/gamma.md", "permanent": true}},
				{tool: "obsidian_delete", args: a{"vault": v, "path": "climax-test/alpha.md", "permanent": true}},
			}
		},
	})
}

// TestObsidianArgv checks the words the obsidian tools give the CLI: every
// tool takes vault, passed as vault=NAME, the first parameter after the
// command words, and left out when the call names none; content goes as
// one word with its real line breaks.
func TestObsidianArgv(t *testing.T) {
	ix := bundledIndex(t, "obsidian", nil)
	argv := func(tool string, args map[string]any) []string {
		t.Helper()
		rt, ok := ix.Get(tool)
		if !ok {
			t.Fatalf("no %s", tool)
		}
		values, err := executor.Validate(rt, args)
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := executor.Build(rt, values)
		if err != nil {
			t.Fatal(err)
		}
		return cmd.Argv
	}
	for _, name := range ix.Names() {
		if rt, _ := ix.Get(name); len(rt.Tool.Args) == 0 || rt.Tool.Args[0].Name != "vault" {
			t.Errorf("%s: the first arg is not vault", name)
		}
	}
	if got, want := argv("obsidian_read", map[string]any{"file": "x", "vault": "Work"}), []string{"obsidian", "read", "vault=Work", "file=x"}; !slices.Equal(got, want) {
		t.Errorf("obsidian_read argv %q, want %q", got, want)
	}
	got := argv("obsidian_append", map[string]any{"path": "log.md", "content": "line 1\nline 2", "vault": "My Notes"})
	if want := []string{"obsidian", "append", "vault=My Notes", "path=log.md", "content=line 1\nline 2"}; !slices.Equal(got, want) {
		t.Errorf("obsidian_append argv %q, want %q", got, want)
	}
	if got := argv("obsidian_daily_append", map[string]any{"content": "x"}); slices.ContainsFunc(got, func(w string) bool { return strings.HasPrefix(w, "vault=") }) {
		t.Errorf("no vault given, yet %q", got)
	}
}
