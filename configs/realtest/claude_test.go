package realtest

import "testing"

// The claude sandbox: a project directory to ask about. Claude Code needs
// an account (ANTHROPIC_API_KEY or a login), so the calls that reach the
// API are skipped without one; the MCP server tools edit the sandbox's
// HOME only, and the project scope writes .mcp.json in the project.
func init() {
	register(&suite{
		config: "claude",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("project", "README.md"), "# demo\n\nThe answer is 42.\n")
			if sb.env == nil || envValue(sb.env, "ANTHROPIC_API_KEY") == "" {
				sb.skipTool("needs ANTHROPIC_API_KEY (the API)", "claude_ask")
			}
		},
		calls: func(sb *sandbox) []call {
			project := sb.path("project")
			return []call{
				{tool: "claude_version", want: []string{"Claude Code"}},
				{tool: "claude_mcp_add", args: a{"name": "demo", "command_or_url": "climax", "args": []any{"--read-only", "git"}, "scope": "project", "dir": project},
					check: fileHas(sb.path("project", ".mcp.json"), `"demo"`, `"--read-only"`)},
				{tool: "claude_mcp_list", args: a{"dir": project}, want: []string{"demo"}},
				{tool: "claude_mcp_get", args: a{"name": "demo", "dir": project}, want: []string{"climax"}},
				{tool: "claude_mcp_remove", args: a{"name": "demo", "scope": "project", "dir": project}, check: lacks("error")},
				{tool: "claude_ask", args: a{"prompt": "What is the answer in README.md? Reply with the number only.", "dir": project, "max_turns": 3}, want: []string{"42"}},
			}
		},
	})
}
