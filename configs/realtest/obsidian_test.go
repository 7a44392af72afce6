package realtest

import "testing"

// The obsidian sandbox: the Obsidian CLI talks to a running Obsidian app,
// which no test machine has; where the CLI exists, the calls need the app
// running on a test vault, so they are skipped unless CLIMAX_OBSIDIAN_VAULT
// names one (a vault the calls may change). The calls are what a run
// against such a vault checks.
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
			return []call{
				{tool: "obsidian_create", args: a{"path": "climax-test/alpha.md", "content": "# Alpha\\n\\nSee [[beta]] #climax-test", "overwrite": true}},
				{tool: "obsidian_create", args: a{"path": "climax-test/beta.md", "content": "# Beta\\n\\n## Part\\nlinks back to [[alpha]]", "overwrite": true}},
				{tool: "obsidian_read", args: a{"path": "climax-test/alpha.md"}, want: []string{"# Alpha"}},
				{tool: "obsidian_append", args: a{"path": "climax-test/alpha.md", "content": "appended line"}},
				{tool: "obsidian_search", args: a{"query": "appended line", "path": "climax-test"}, want: []string{"alpha"}},
				{tool: "obsidian_search_context", args: a{"query": "links back", "path": "climax-test"}, want: []string{"links back"}},
				{tool: "obsidian_files", args: a{"folder": "climax-test"}, want: []string{"alpha.md", "beta.md"}},
				{tool: "obsidian_tags", args: a{"path": "climax-test/alpha.md"}, want: []string{"climax-test"}},
				{tool: "obsidian_links", args: a{"path": "climax-test/alpha.md"}, want: []string{"beta"}},
				{tool: "obsidian_backlinks", args: a{"path": "climax-test/alpha.md"}, want: []string{"beta"}},
				{tool: "obsidian_outline", args: a{"path": "climax-test/beta.md"}, want: []string{"Part"}},
				{tool: "obsidian_daily_append", args: a{"content": "climax test entry"}},
				{tool: "obsidian_move", args: a{"path": "climax-test/beta.md", "to": "climax-test/gamma.md"}},
				{tool: "obsidian_delete", args: a{"path": "climax-test/gamma.md", "permanent": true}},
				{tool: "obsidian_delete", args: a{"path": "climax-test/alpha.md", "permanent": true}},
			}
		},
	})
}
