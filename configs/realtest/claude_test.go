package realtest

import (
	"strings"
	"testing"
)

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
				// Without scope, claude finds the server in the scope that has it.
				{tool: "claude_mcp_remove", args: a{"name": "demo", "dir": project}, check: func(t *testing.T, out outcome) {
					lacks("error")(t, out)
					if strings.Contains(readFile(t, sb.path("project", ".mcp.json")), `"demo"`) {
						t.Errorf(".mcp.json still has the server")
					}
				}},
				{tool: "claude_mcp_add", args: a{"name": "mine", "command_or_url": "climax", "scope": "user", "dir": project}, check: fileHas(sb.path("home", ".claude.json"), `"mine"`)},
				{tool: "claude_mcp_remove", args: a{"name": "mine", "scope": "project", "dir": project}, exit: 1, want: []string{"mine"}},
				{tool: "claude_mcp_remove", args: a{"name": "mine", "scope": "user", "dir": project}, check: func(t *testing.T, _ outcome) {
					if strings.Contains(readFile(t, sb.path("home", ".claude.json")), `"mine"`) {
						t.Errorf(".claude.json still has the server")
					}
				}},
				{tool: "claude_ask", args: a{"prompt": "What is the answer in README.md? Reply with the number only.", "dir": project, "max_turns": 3}, want: []string{"42"}},
			}
		},
	})
}
