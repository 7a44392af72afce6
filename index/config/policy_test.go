package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// problemStrings returns the problems of a *config.LoadError as lines.
func problemStrings(t *testing.T, err error) []string {
	t.Helper()
	var le *config.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *config.LoadError", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

func TestParsePolicyReadmeExample(t *testing.T) {
	p, err := config.LoadPolicyFile("testdata/policy/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.Abs("testdata/policy")
	if err != nil {
		t.Fatal(err)
	}
	want := config.Executor{Type: "docker", Image: "alpine/git", Volumes: []string{"${PROJECT_DIR}:/workspace"}, WorkingDir: "/workspace", Network: "none", PolicyDir: dir}
	if !reflect.DeepEqual(p.Executor, want) {
		t.Errorf("Executor = %+v, want %+v", p.Executor, want)
	}
	if p.Default != config.PolicyDisabled || p.Source != "testdata/policy/spec.yaml" {
		t.Errorf("Default, Source = %q, %q", p.Default, p.Source)
	}
	if len(p.Tools) != 3 {
		t.Fatalf("Tools = %+v", p.Tools)
	}
	if st := p.Tools["git_status"]; st.Description != "" || st.Args != nil {
		t.Errorf("git_status = %+v, want no overrides", st)
	}
	lg := p.Tools["git_log"]
	if lg.Description != "Show recent log (max 100)" || lg.Args["max_count"].Max == nil || *lg.Args["max_count"].Max != 100 || lg.Args["max_count"].Min != nil {
		t.Errorf("git_log = %+v", lg)
	}
	if got := p.Tools["git_add"].Args["path"].Pattern; got != "^src/.*" {
		t.Errorf("git_add path pattern = %q", got)
	}
}

func TestParsePolicyAccepts(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, p *config.Policy)
	}{
		{
			name: "defaults",
			src:  "tools: {git_status: {}}\n",
			check: func(t *testing.T, p *config.Policy) {
				if p.Default != config.PolicyDisabled || p.Executor.Type != config.ExecutorLocal {
					t.Errorf("Default, Executor.Type = %q, %q", p.Default, p.Executor.Type)
				}
			},
		},
		{
			name: "null tool entry means enabled",
			src:  "tools:\n  git_status:\n  git_log: {}\n",
			check: func(t *testing.T, p *config.Policy) {
				_, a := p.Tools["git_status"]
				_, b := p.Tools["git_log"]
				if !a || !b || len(p.Tools) != 2 {
					t.Errorf("Tools = %+v", p.Tools)
				}
			},
		},
		{
			name: "default enabled without tools",
			src:  "default: enabled\n",
			check: func(t *testing.T, p *config.Policy) {
				if p.Default != config.PolicyEnabled || p.Tools == nil {
					t.Errorf("got %+v", p)
				}
			},
		},
		{
			name: "min and max, equal, integer and float",
			src:  "tools:\n  t:\n    args:\n      a: {min: 1, max: 1}\n      b: {min: -0.5}\n      c:\n",
			check: func(t *testing.T, p *config.Policy) {
				args := p.Tools["t"].Args
				if *args["a"].Min != 1 || *args["a"].Max != 1 || *args["b"].Min != -0.5 || args["b"].Max != nil {
					t.Errorf("args = %+v", args)
				}
				if c, ok := args["c"]; !ok || c.Min != nil || c.Pattern != "" {
					t.Errorf("null constraint = %+v, %v", c, ok)
				}
			},
		},
		{
			name: "confirm rule and per-tool confirm",
			src:  "default: enabled\nconfirm: Write\ntools:\n  git_push: {confirm: true}\n  git_status: {confirm: false}\n  git_log: {}\n",
			check: func(t *testing.T, p *config.Policy) {
				if p.Confirm != config.ConfirmWrite {
					t.Errorf("Confirm = %q", p.Confirm)
				}
				push, status, log := p.Tools["git_push"].Confirm, p.Tools["git_status"].Confirm, p.Tools["git_log"].Confirm
				if push == nil || !*push || status == nil || *status || log != nil {
					t.Errorf("tool confirm = %v, %v, %v", push, status, log)
				}
			},
		},
		{
			name: "local executor stated",
			src:  "executor: {type: local}\ndefault: enabled\n",
			check: func(t *testing.T, p *config.Policy) {
				if p.Executor.Type != config.ExecutorLocal {
					t.Errorf("Executor = %+v", p.Executor)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := config.ParsePolicy([]byte(tt.src), "p.yaml")
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, p)
		})
	}
}

func TestParsePolicyErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // every problem, exactly
	}{
		{
			name: "empty file",
			src:  "",
			want: []string{"p.yaml: policy file is empty: a policy needs at least tools (the enabled tools) or default: enabled"},
		},
		{
			name: "malformed yaml",
			src:  "tools:\n  git_status: {\n",
			want: []string{"p.yaml:2: invalid YAML: did not find expected node content"},
		},
		{
			name: "not a mapping",
			src:  "- git_status\n",
			want: []string{"p.yaml:1:1: expected a mapping of keys at the top level, got a list: a policy needs at least tools (the enabled tools) or default: enabled"},
		},
		{
			name: "unknown keys at every level",
			src:  "executer: {}\nexecutor:\n  typ: local\ntools:\n  git_log:\n    descriptin: x\n    args:\n      n:\n        maximum: 3\n        patern: x\n",
			want: []string{
				`p.yaml:1:1: unknown key "executer" (did you mean "executor"?)`,
				`p.yaml:3:3: executor: unknown key "typ" (did you mean "type"?)`,
				`p.yaml:6:5: tool "git_log": unknown key "descriptin" (did you mean "description"?)`,
				`p.yaml:9:9: tool "git_log": arg "n": unknown key "maximum" (valid keys: pattern, min, max, min_items, max_items)`,
				`p.yaml:10:9: tool "git_log": arg "n": unknown key "patern" (did you mean "pattern"?)`,
			},
		},
		{
			name: "bad default",
			src:  "default: enable\n",
			want: []string{`p.yaml:1:10: default: expected enabled, disabled or read_only, got "enable" (did you mean "enabled"?)`},
		},
		{
			name: "boolean default",
			src:  "default: true\n",
			want: []string{`p.yaml:1:10: default: expected enabled, disabled or read_only, got a boolean (true)`},
		},
		{
			name: "unknown executor type",
			src:  "executor:\n  type: podman\ndefault: enabled\n",
			want: []string{`p.yaml:2:9: executor: unknown type "podman": write type: docker and runtime: podman`},
		},
		{
			name: "another executor type",
			src:  "executor:\n  type: vm\ndefault: enabled\n",
			want: []string{`p.yaml:2:9: executor: unknown type "vm": valid types are local, docker`},
		},
		{
			name: "misspelt executor type",
			src:  "executor:\n  type: dokcer\n  image: x\ndefault: enabled\n",
			want: []string{`p.yaml:2:9: executor: unknown type "dokcer" (did you mean "docker"?)`},
		},
		{
			name: "docker without image",
			src:  "executor:\n  type: docker\n  network: none\ndefault: enabled\n",
			want: []string{`p.yaml:2:3: executor: missing "image": the docker executor needs an image, e.g. image: alpine/git`},
		},
		{
			name: "docker settings without docker",
			src:  "executor:\n  image: alpine\n  network: none\ndefault: enabled\n",
			want: []string{
				`p.yaml:2:10: executor: image only applies to the docker executor: add type: docker or remove it`,
				`p.yaml:3:12: executor: network only applies to the docker executor: add type: docker or remove it`,
			},
		},
		{
			name: "executor wrong types",
			src:  "executor:\n  type: docker\n  image: x\n  volumes: /a:/b\ndefault: enabled\n",
			want: []string{`p.yaml:4:12: executor: volumes: expected a list of strings, got "/a:/b"; write volumes: [/a:/b]`},
		},
		{
			name: "executor is a string",
			src:  "executor: docker\ndefault: enabled\n",
			want: []string{`p.yaml:1:11: executor: expected a mapping (key: value lines), got "docker"`},
		},
		{
			name: "tools is a list",
			src:  "tools:\n  - git_status\n",
			want: []string{`p.yaml:2:3: tools: expected a mapping of tool names to settings (git_status: {}), got a list`},
		},
		{
			name: "tool entry is a string",
			src:  "tools:\n  git_status: yes\n",
			want: []string{`p.yaml:2:15: tool "git_status": expected a mapping (key: value lines), got "yes"`},
		},
		{
			name: "args is a list",
			src:  "tools:\n  git_add:\n    args: [path]\n",
			want: []string{`p.yaml:3:11: tool "git_add": args: expected a mapping of arg names to constraints (path: {pattern: ...}), got a list`},
		},
		{
			name: "invalid pattern",
			src:  "tools:\n  git_add:\n    args:\n      path: {pattern: \"src/(\"}\n",
			want: []string{"p.yaml:4:23: tool \"git_add\": arg \"path\": pattern is not a valid Go regular expression (error parsing regexp: missing closing ): `src/(`): fix it"},
		},
		{
			name: "perl-only pattern",
			src:  "tools:\n  git_add:\n    args:\n      path:\n        pattern: '(?=x)'\n",
			want: []string{"p.yaml:5:18: tool \"git_add\": arg \"path\": pattern is not a valid Go regular expression (error parsing regexp: invalid or unsupported Perl syntax: `(?=`): fix it"},
		},
		{
			name: "min above max and non-numbers",
			src:  "tools:\n  t:\n    args:\n      a: {min: 10, max: 1}\n      b: {min: low, max: .inf}\n",
			want: []string{
				`p.yaml:4:16: tool "t": arg "a": min (10) is greater than max (1): swap them`,
				`p.yaml:5:16: tool "t": arg "b": min: expected a number, got "low"`,
				`p.yaml:5:26: tool "t": arg "b": max: expected a finite number, got .inf`,
			},
		},
		{
			name: "bad confirm rules",
			src:  "confirm: writes\ntools:\n  a: {confirm: yes please}\n",
			want: []string{
				`p.yaml:1:10: confirm: unknown confirm rule "writes": want none, destructive, write or all (did you mean "write"?)`,
				`p.yaml:3:16: tool "a": confirm: expected true or false, got "yes please"`,
			},
		},
		{
			name: "boolean confirm rule",
			src:  "confirm: true\ndefault: enabled\n",
			want: []string{`p.yaml:1:10: confirm: expected none, destructive, write or all, got a boolean (true) (a tool's own entry takes confirm: true or false)`},
		},
		{
			name: "duplicate tool",
			src:  "tools:\n  git_log: {}\n  git_log:\n    description: x\n",
			want: []string{`p.yaml:3:3: tools: key "git_log" is given twice (first at line 2); remove one`},
		},
		{
			name: "empty description override",
			src:  "tools:\n  git_log:\n    description: \"\"\n",
			want: []string{`p.yaml:3:18: tool "git_log": description is empty: remove it to keep the tool's own`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := config.ParsePolicy([]byte(tt.src), "p.yaml")
			if err == nil {
				t.Fatalf("ParsePolicy succeeded with %+v", p)
			}
			got := problemStrings(t, err)
			if !slices.Equal(got, tt.want) {
				t.Errorf("problems:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestLoadPolicyFile(t *testing.T) {
	if _, err := config.LoadPolicyFile(filepath.Join(t.TempDir(), "none.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	files, _ := filepath.Glob("testdata/policy/*.yaml")
	for _, f := range files {
		if _, err := config.LoadPolicyFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
