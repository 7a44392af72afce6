package config_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// A policy written for CLImax 0.5 loads into ours: approval.global is the
// confirm rule, approval.tools and require_approval are per-tool confirm,
// headless is kept; forms that agree may both be given.
func TestParsePolicyApproval(t *testing.T) {
	p, err := config.ParsePolicy([]byte(`default: enabled
confirm: write
approval:
  global: write
  headless: approve
  tools:
    gh_pr_view: true
    gh_pr_merge: false
    aws_s3_rm: true
tools:
  gh_pr_view: {require_approval: true}
  gh_pr_merge: {confirm: false, require_approval: false}
  gh_pr_list: {require_approval: false}
`), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Confirm != config.ConfirmWrite || p.Approval.Headless != config.HeadlessApprove {
		t.Errorf("Confirm %q, Headless %q", p.Confirm, p.Approval.Headless)
	}
	got := map[string]bool{}
	for name, tp := range p.Tools {
		if tp.Confirm != nil {
			got[name] = *tp.Confirm
		}
	}
	want := map[string]bool{"gh_pr_view": true, "gh_pr_merge": false, "gh_pr_list": false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("per-tool confirm %v, want %v", got, want)
	}
	// A tool only under approval.tools is not enabled by it.
	if _, listed := p.Tools["aws_s3_rm"]; listed || !p.Approval.Tools["aws_s3_rm"] {
		t.Errorf("aws_s3_rm: listed %v, approval.tools %v", listed, p.Approval.Tools)
	}
}

func TestParsePolicyApprovalErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"global against confirm", "default: enabled\nconfirm: all\napproval:\n  global: write\n",
			`p.yaml:4:11: approval: global: write disagrees with confirm: all (line 2), which is the same setting: remove one`},
		{"global misspelt", "default: enabled\napproval: {global: destructiv}\n",
			`p.yaml:2:20: approval: global: unknown confirm rule "destructiv": want none, destructive, write or all (did you mean "destructive"?)`},
		{"headless misspelt", "default: enabled\napproval: {headless: aprove}\n",
			`p.yaml:2:22: approval: headless: expected deny or approve, got "aprove" (did you mean "approve"?)`},
		{"approval key misspelt", "default: enabled\napproval: {globl: all}\n",
			`p.yaml:2:12: approval: unknown key "globl" (did you mean "global"?)`},
		{"approval.tools against the tool's entry", "tools:\n  git_push: {confirm: true}\napproval:\n  tools: {git_push: false}\n",
			`p.yaml:4:21: approval: tools: git_push: false disagrees with the tool's own entry under tools (line 2), which says true: remove one`},
		{"require_approval against confirm", "tools:\n  git_push: {confirm: true, require_approval: false}\n",
			`p.yaml:2:47: tool "git_push": require_approval: false disagrees with confirm: true, which is the same setting: remove one`},
		{"approval.tools value not a boolean", "default: enabled\napproval:\n  tools: {git_push: yes please}\n",
			`p.yaml:3:21: approval: tools: git_push: expected true or false, got "yes please"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.ParsePolicy([]byte(tt.src), "p.yaml")
			if err == nil {
				t.Fatalf("loaded; want %s", tt.want)
			}
			if got := strings.Join(problemStrings(t, err), "\n"); got != tt.want {
				t.Errorf("problems:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}
