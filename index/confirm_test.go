package index_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// confirmed returns the names of the tools of the index built from
// fixture() under p that need approval, in load order.
func confirmed(t *testing.T, p *config.Policy) []string {
	t.Helper()
	ix, _ := mustNew(t, fixture(), p)
	var out []string
	for _, rt := range ix.Tools() {
		if rt.Confirm {
			out = append(out, rt.Tool.Name)
		}
	}
	return out
}

func TestConfirmRules(t *testing.T) {
	parse := func(src string) *config.Policy {
		t.Helper()
		p, err := config.ParsePolicy([]byte(src), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		p    *config.Policy
		want string
	}{
		{"no policy", nil, ""},
		{"no rule", parse("default: enabled\n"), ""},
		{"all", parse("default: enabled\nconfirm: all\n"), "git_status git_log git_add jj_status jj_log docker_ps docker_images Echo_Text"},
		{"per tool true wins over none", parse("default: enabled\ntools:\n  git_add: {confirm: true}\n"), "git_add"},
		{"per tool false wins over all", parse("default: enabled\nconfirm: all\ntools:\n  git_status: {confirm: false}\n  jj_status: {confirm: false}\n"),
			"git_log git_add jj_log docker_ps docker_images Echo_Text"},
		{"--confirm all without a policy", config.WithConfirm(nil, config.ConfirmAll), "git_status git_log git_add jj_status jj_log docker_ps docker_images Echo_Text"},
		{"--confirm none keeps the policy's rule", config.WithConfirm(parse("default: enabled\nconfirm: all\n"), config.ConfirmNone),
			"git_status git_log git_add jj_status jj_log docker_ps docker_images Echo_Text"},
		{"--confirm all under a policy: per tool false still wins", config.WithConfirm(parse("tools:\n  git_log: {confirm: false}\n  git_add:\n"), config.ConfirmAll), "git_add"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(confirmed(t, tt.p), " "); got != tt.want {
				t.Errorf("confirmed tools = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestWithConfirm(t *testing.T) {
	if p := config.WithConfirm(nil, ""); p != nil {
		t.Errorf("WithConfirm(nil, unset) = %+v, want nil (no policy)", p)
	}
	// An explicit none is kept: it turns off the risk default.
	if p := config.WithConfirm(nil, config.ConfirmNone); p == nil || p.Confirm != config.ConfirmNone || p.Default != config.PolicyEnabled {
		t.Errorf("WithConfirm(nil, none) = %+v, want every tool enabled under none", p)
	}
	p := &config.Policy{Default: config.PolicyDisabled, Confirm: config.ConfirmWrite}
	if got := config.WithConfirm(p, config.ConfirmDestructive); got.Confirm != config.ConfirmWrite {
		t.Errorf("a looser --confirm loosened the policy: %q", got.Confirm)
	}
	if got := config.WithConfirm(p, config.ConfirmAll); got.Confirm != config.ConfirmAll || p.Confirm != config.ConfirmWrite || got.Default != config.PolicyDisabled {
		t.Errorf("WithConfirm(write policy, all) = %+v; the policy became %q", got, p.Confirm)
	}
}

func TestParseConfirmRule(t *testing.T) {
	for in, want := range map[string]config.ConfirmRule{"": "", "none": config.ConfirmNone, " ALL ": config.ConfirmAll, "Destructive": config.ConfirmDestructive, "write": config.ConfirmWrite} {
		if got, err := config.ParseConfirmRule(in); err != nil || got != want {
			t.Errorf("ParseConfirmRule(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := config.ParseConfirmRule("al"); err == nil || err.Error() != `unknown confirm rule "al": want none, destructive, write or all (did you mean "all"?)` {
		t.Errorf("ParseConfirmRule(al) error = %v", err)
	}
}

func TestSearchEntryConfirm(t *testing.T) {
	p, err := config.ParsePolicy([]byte("default: enabled\ntools:\n  git_add: {confirm: true}\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _ := mustNew(t, fixture(), p)
	for _, e := range ix.Search("git", "", "", 10) {
		data, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		has := strings.Contains(string(data), `"confirm":true`)
		if has != (e.ToolName == "git_add") || strings.Contains(string(data), `"confirm":false`) {
			t.Errorf("%s: %s", e.ToolName, data)
		}
	}
}

func TestConfirmRulesReadAnnotations(t *testing.T) {
	yes, no := true, false
	c := &config.Config{Name: "t", Command: "t", Tools: []config.Tool{
		{Name: "reader", ReadOnly: &yes},
		{Name: "plain"},
		{Name: "safe_writer", Destructive: &no},
		{Name: "destroyer", Destructive: &yes},
		{Name: "reader_not_destructive", ReadOnly: &yes, Destructive: &no},
	}}
	for rule, want := range map[config.ConfirmRule]string{
		config.ConfirmNone:        "",
		config.ConfirmDestructive: "destroyer",
		config.ConfirmWrite:       "plain safe_writer destroyer",
		config.ConfirmAll:         "reader plain safe_writer destroyer reader_not_destructive",
	} {
		ix, _ := mustNew(t, []*config.Config{c}, config.WithConfirm(nil, rule))
		var got []string
		for _, rt := range ix.Tools() {
			if rt.Confirm {
				got = append(got, rt.Tool.Name)
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("--confirm %s asks for %q, want %q", rule, got, want)
		}
	}
}

// A config written for CLImax 0.5 (tools with risk:) keeps 0.5's default:
// its write and destructive tools ask unless a rule is set explicitly;
// tools without risk keep ours (no approval).
func TestRiskDefaultConfirm(t *testing.T) {
	cfg, err := config.Parse([]byte(`command: aws
tools:
  - {name: aws_ls, description: d, risk: read}
  - {name: aws_cp, description: d, risk: write}
  - {name: aws_rm, description: d, risk: destructive}
  - {name: aws_old, description: d}
`), "aws.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pol := func(src string) *config.Policy {
		p, err := config.ParsePolicy([]byte(src), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		p    *config.Policy
		want string
	}{
		{"no policy", nil, "aws_cp aws_rm"},
		{"a policy without a rule", pol("default: enabled\n"), "aws_cp aws_rm"},
		{"--confirm none", config.WithConfirm(nil, config.ConfirmNone), ""},
		{"confirm: none in the policy", pol("default: enabled\nconfirm: none\n"), ""},
		{"--confirm destructive", config.WithConfirm(nil, config.ConfirmDestructive), "aws_rm"},
		{"--confirm all", config.WithConfirm(nil, config.ConfirmAll), "aws_ls aws_cp aws_rm aws_old"},
		{"per tool false", pol("default: enabled\ntools:\n  aws_cp: {confirm: false}\n"), "aws_rm"},
		{"0.5's require_approval", pol("default: enabled\ntools:\n  aws_cp: {require_approval: false}\n"), "aws_rm"},
		{"0.5's approval.tools, for a tool it does not enable", pol("tools:\n  aws_rm:\napproval:\n  tools: {aws_ls: true, aws_rm: false}\n"), ""},
		{"0.5's approval.tools", pol("default: enabled\napproval:\n  tools: {aws_ls: true}\n"), "aws_ls aws_cp aws_rm"},
		{"0.5's approval.global", pol("default: enabled\napproval:\n  global: destructive\n"), "aws_rm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, _ := mustNew(t, []*config.Config{cfg}, tt.p)
			var got []string
			for _, rt := range ix.Tools() {
				if rt.Confirm {
					got = append(got, rt.Tool.Name)
				}
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("confirmed = %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

// A tool name under approval.tools that no config defines is a warning
// with its position and a did-you-mean, as under tools.
func TestApprovalToolsUnknownName(t *testing.T) {
	p, err := config.ParsePolicy([]byte("default: enabled\napproval:\n  tools:\n    git_stauts: true\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, warnings := mustNew(t, fixture(), p)
	var got []string
	for _, w := range warnings {
		got = append(got, w)
	}
	want := `p.yaml:4:5: approval.tools names unknown tool "git_stauts"; ignored (did you mean "git_status"?)`
	if strings.Join(got, "\n") != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
