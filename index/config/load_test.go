package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// problemLines returns the problems of a *LoadError as "file:line:col: msg"
// lines, failing the test when err is something else.
func problemLines(t *testing.T, err error) []string {
	t.Helper()
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *LoadError", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

// wantProblems checks that parsing src as "t.yaml" fails with every line in
// want among its problems (and, when exact, no others).
func wantProblems(t *testing.T, got []string, want []string, exact bool) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing problem\n  %s\ngot:\n  %s", w, strings.Join(got, "\n  "))
		}
	}
	if exact && len(got) != len(want) {
		t.Errorf("got %d problems, want %d:\n  %s", len(got), len(want), strings.Join(got, "\n  "))
	}
}

// TestParseReportsEveryProblem checks that one file's problems all come
// back together, sorted by position, from a testdata file.
func TestParseReportsEveryProblem(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no testdata/invalid/*.yaml")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			_, err = LoadFile(f)
			if err == nil {
				t.Fatal("LoadFile succeeded")
			}
			got := problemLines(t, err)
			wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
			if !slices.Equal(got, wantLines) {
				t.Errorf("problems differ\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
			}
			if err.Error() != strings.Join(wantLines, "\n") {
				t.Errorf("Error() = %q, want the problems one per line", err.Error())
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	src := `command: git
global_args:
  - name: vault
    flag: "vault="
    default: "$VAULT"
tools:
  - name: git_status
    description: Show status
    args:
      - name: short
        flag: --short
  - name: git_log
    description: Show log
    keywords: [history, "recent commits", 42]
    timeout: 2.5
    max_output: 100
`
	c, err := Parse([]byte(src), "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != DefaultCLIName || c.Source != "git.yaml" {
		t.Errorf("Name, Source = %q, %q; want %q, git.yaml", c.Name, c.Source, DefaultCLIName)
	}
	if c.Tags == nil || len(c.Tags) != 0 || c.Env == nil {
		t.Errorf("Tags = %#v, Env = %#v; want empty, non-nil", c.Tags, c.Env)
	}
	if c.Category != "" || c.Description != "" || c.WorkingDir != "" {
		t.Errorf("optional strings not empty: %+v", c)
	}
	st, lg := c.Tools[0], c.Tools[1]
	if st.Timeout != DefaultTimeout || st.MaxOutput != DefaultMaxOutput {
		t.Errorf("git_status timeout, max_output = %v, %v; want defaults", st.Timeout, st.MaxOutput)
	}
	if lg.Timeout != 2.5 || lg.MaxOutput != 100 {
		t.Errorf("git_log timeout, max_output = %v, %v; want 2.5, 100", lg.Timeout, lg.MaxOutput)
	}
	if want := []string{"history", "recent commits", "42"}; !slices.Equal(lg.Keywords, want) || st.Keywords != nil {
		t.Errorf("keywords = %q and %q; want %q and none", lg.Keywords, st.Keywords, want)
	}
	if st.Args[0].Type != TypeString || c.GlobalArgs[0].Type != TypeString {
		t.Errorf("arg types = %q, %q; want string", st.Args[0].Type, c.GlobalArgs[0].Type)
	}
	if c.GlobalArgs[0].Default != "$VAULT" {
		t.Errorf("global default = %#v", c.GlobalArgs[0].Default)
	}
	if st.Line != 7 || lg.Line != 12 {
		t.Errorf("tool lines = %d, %d; want 7, 12", st.Line, lg.Line)
	}
	if st.Args == nil || lg.Args != nil {
		t.Errorf("args = %#v, %#v", st.Args, lg.Args)
	}
}

func TestParseDefaultValues(t *testing.T) {
	src := `command: x
tools:
  - name: t
    description: d
    args:
      - {name: s1, default: "50"}
      - {name: s2, default: 50}
      - {name: s3, default: 2.50}
      - {name: i1, type: integer, default: 10}
      - {name: i2, type: integer, default: "10"}
      - {name: i3, type: integer, default: -3, enum: ["-3", "4"]}
      - {name: n1, type: number, default: 2}
      - {name: n2, type: number, default: "0.5"}
      - {name: n3, type: number, default: 1.0, enum: ["1", "2"]}
      - {name: b1, type: boolean, default: true}
      - {name: b2, type: boolean, default: "false"}
      - {name: e1, enum: [json, text], default: text}
      - {name: z, default: ~}
`
	c, err := Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"s1": "50", "s2": "50", "s3": "2.50",
		"i1": 10, "i2": 10, "i3": -3,
		"n1": 2.0, "n2": 0.5, "n3": 1.0,
		"b1": true, "b2": false,
		"e1": "text", "z": nil,
	}
	for _, a := range c.Tools[0].Args {
		if w := want[a.Name]; !reflect.DeepEqual(a.Default, w) {
			t.Errorf("arg %s: Default = %#v (%T), want %#v (%T)", a.Name, a.Default, a.Default, w, w)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, c *Config)
	}{
		{
			name: "empty tool list",
			src:  "name: empty\ncommand: \"true\"\ntools: []\n",
			check: func(t *testing.T, c *Config) {
				if c.Tools == nil || len(c.Tools) != 0 {
					t.Errorf("Tools = %#v, want empty", c.Tools)
				}
			},
		},
		{
			name: "null optional fields",
			src:  "command: git\ndescription:\ntags:\nenv:\nglobal_args:\ntools:\n  - name: t\n    description: d\n    args:\n    timeout:\n",
			check: func(t *testing.T, c *Config) {
				if c.Description != "" || len(c.Tags) != 0 || c.Tools[0].Timeout != DefaultTimeout {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "anchors, aliases and merge keys",
			src: `command: git
x-common: &common
  description: shared
  timeout: 5
tools:
  - <<: *common
    name: a
  - <<: *common
    name: b
    timeout: 7
`,
			check: nil, // x-common is an unknown key: see below
		},
		{
			name: "tool names with dots and dashes, 128 chars",
			src:  "command: x\ntools:\n  - {name: a.b-c_D9, description: d}\n  - {name: " + strings.Repeat("y", 128) + ", description: d}\n",
			check: func(t *testing.T, c *Config) {
				if len(c.Tools) != 2 {
					t.Errorf("tools = %d", len(c.Tools))
				}
			},
		},
		{
			name: "env values of any scalar kind",
			src:  "command: x\nenv: {A: 1, B: true, C: text, D: ~}\ntools: []\n",
			check: func(t *testing.T, c *Config) {
				want := map[string]string{"A": "1", "B": "true", "C": "text", "D": ""}
				if !reflect.DeepEqual(c.Env, want) {
					t.Errorf("Env = %#v, want %#v", c.Env, want)
				}
			},
		},
		{
			name: "tool env",
			src:  "command: x\nenv: {A: 1}\ntools:\n  - {name: t, description: d, env: {GOFLAGS: ~, B: b}}\n  - {name: u, description: d}\n",
			check: func(t *testing.T, c *Config) {
				want := map[string]string{"GOFLAGS": "", "B": "b"}
				if !reflect.DeepEqual(c.Tools[0].Env, want) || c.Tools[1].Env != nil {
					t.Errorf("tool Env = %#v and %#v, want %#v and nil", c.Tools[0].Env, c.Tools[1].Env, want)
				}
			},
		},
		{
			name: "inherit_env: absent, a list, empty, a tool's, an alias",
			src:  "command: x\ninherit_env: &keep [PATH, \"LC_*\", 42]\ntools:\n  - {name: t, description: d, inherit_env: []}\n  - {name: u, description: d}\n  - {name: v, description: d, inherit_env: *keep}\n",
			check: func(t *testing.T, c *Config) {
				want := []string{"PATH", "LC_*", "42"}
				if !slices.Equal(c.InheritEnv, want) {
					t.Errorf("InheritEnv = %#v, want %#v", c.InheritEnv, want)
				}
				if tl := c.Tools[0].InheritEnv; tl == nil || len(tl) != 0 {
					t.Errorf("tool t: InheritEnv = %#v, want empty, not nil (inherit nothing)", tl)
				}
				if c.Tools[1].InheritEnv != nil || !slices.Equal(c.Tools[2].InheritEnv, want) {
					t.Errorf("tools u, v: InheritEnv = %#v, %#v, want nil, %#v", c.Tools[1].InheritEnv, c.Tools[2].InheritEnv, want)
				}
			},
		},
		{
			name: "no inherit_env",
			src:  "command: x\ntools: []\n",
			check: func(t *testing.T, c *Config) {
				if c.InheritEnv != nil {
					t.Errorf("InheritEnv = %#v, want nil (inherit everything)", c.InheritEnv)
				}
			},
		},
		{
			name: "numbers as strings",
			src:  "command: x\ntags: [2024, v1]\ntools:\n  - {name: t, description: 42, command: 7}\n",
			check: func(t *testing.T, c *Config) {
				if c.Tools[0].Description != "42" || c.Tools[0].Command != "7" || !slices.Equal(c.Tags, []string{"2024", "v1"}) {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "global default with a variable is not checked against enum",
			src:  "command: x\nglobal_args:\n  - {name: g, flag: --g, enum: [a, b], default: $G}\ntools: []\n",
		},
		{
			name: "stdin and cwd args",
			src:  "command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: dir, cwd: true}\n      - {name: body, stdin: true, required: true}\n      - {name: p, positional: true, allow_leading_dash: true}\n",
			check: func(t *testing.T, c *Config) {
				a := c.Tools[0].Args
				if !a[0].Cwd || !a[1].Stdin || !a[1].Required || !a[2].Positional || !a[2].AllowLeadingDash {
					t.Errorf("args = %+v", a)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.src), "t.yaml")
			if tt.check == nil && strings.Contains(tt.src, "x-common") {
				// An unknown top-level key is still an error, even as an
				// anchor holder; the merged tools themselves are fine.
				wantProblems(t, problemLines(t, err), []string{`t.yaml:2:1: unknown key "x-common" (valid keys: name, description, command, env, inherit_env, working_dir, category, tags, global_args, tools)`}, true)
				src := strings.Replace(tt.src, "x-common: &common\n  description: shared\n  timeout: 5\n", "", 1)
				src = strings.Replace(src, "tools:\n  - <<: *common\n", "tools:\n  - &common\n    description: shared\n    timeout: 5\n", 1)
				src = strings.Replace(src, "    name: a\n  - <<: *common\n", "    name: a\n  - <<: *common\n", 1)
				c, err = Parse([]byte(src), "t.yaml")
				if err != nil {
					t.Fatalf("merged config: %v\n%s", err, src)
				}
				if len(c.Tools) != 2 || c.Tools[1].Name != "b" || c.Tools[1].Description != "shared" || c.Tools[1].Timeout != 7 {
					t.Errorf("merged tool = %+v", c.Tools[1])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

// TestKnownKeysMatchModel keeps the loader's key lists in step with the
// model's yaml tags.
func TestKnownKeysMatchModel(t *testing.T) {
	tags := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if tag := rt.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
				out = append(out, tag)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		model any
		keys  []string
	}{
		{"config", Config{}, configKeys},
		{"tool", Tool{}, toolKeys},
		{"arg", Arg{}, argKeys},
		{"policy", Policy{}, policyKeys},
		{"executor", Executor{}, executorKeys},
		{"tool policy", ToolPolicy{}, toolPolicyKeys},
		{"constraint", Constraint{}, constraintKeys},
	} {
		if got := tags(tt.model); !slices.Equal(got, tt.keys) {
			t.Errorf("%s: yaml tags %v, loader keys %v", tt.name, got, tt.keys)
		}
	}
}

func TestProblemString(t *testing.T) {
	for _, tt := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.yaml", Line: 3, Column: 7, Message: "m"}, "a.yaml:3:7: m"},
		{Problem{File: "a.yaml", Line: 3, Message: "m"}, "a.yaml:3: m"},
		{Problem{File: "a.yaml", Message: "m"}, "a.yaml: m"},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("name: g\ncommand: g\ntools: []\n"), 0o644)
	os.WriteFile(bad, []byte("command: g\n"), 0o644)

	c, err := LoadFile(good)
	if err != nil || c.Source != good || c.Name != "g" {
		t.Errorf("LoadFile(good) = %+v, %v", c, err)
	}
	_, err = LoadFile(bad)
	var le *LoadError
	if !errors.As(err, &le) || le.File != bad || !strings.HasPrefix(le.Problems[0].String(), bad+":1:1: ") {
		t.Errorf("LoadFile(bad) error = %v", err)
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFile(missing) error = %v, want not exist", err)
	}
}

func TestLoadRef(t *testing.T) {
	bundled := fstest.MapFS{
		"git.yaml":    {Data: []byte("name: git\ncommand: git\ntools: []\n")},
		"broken.yaml": {Data: []byte("command: x\ntools: [\n")},
		"notes.txt":   {Data: []byte("not a config")},
	}
	dir := t.TempDir()
	local := filepath.Join(dir, "mine.yaml")
	os.WriteFile(local, []byte("name: mine\ncommand: m\ntools: []\n"), 0o644)

	c, err := LoadRef("git", bundled)
	if err != nil || c.Source != "bundled:git" || c.Name != "git" {
		t.Errorf("LoadRef(git) = %+v, %v", c, err)
	}
	c, err = LoadRef(local, bundled)
	if err != nil || c.Source != local {
		t.Errorf("LoadRef(path) = %+v, %v", c, err)
	}
	_, err = LoadRef("gti", bundled)
	var nf *NotFoundError
	if !errors.As(err, &nf) || !slices.Equal(nf.Bundled, []string{"broken", "git"}) {
		t.Fatalf("LoadRef(gti) error = %#v", err)
	}
	if want := `no config named "gti": it is not a file and not a bundled config (bundled: broken, git)`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	// A bundled config with errors is reported as such, not as missing.
	_, err = LoadRef("broken", bundled)
	var le *LoadError
	if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "bundled:broken:2: invalid YAML") {
		t.Errorf("LoadRef(broken) error = %v", err)
	}
	if _, err := LoadRef("git", nil); !errors.As(err, &nf) {
		t.Errorf("Resolve with no bundled configs: %v", err)
	}
	if _, err := LoadRef(filepath.Join(dir, "nope.yaml"), bundled); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadRef(missing path) error = %v", err)
	}
}

func TestIsPath(t *testing.T) {
	for ref, want := range map[string]bool{
		"git": false, "git.yaml": true, "x.yml": true, "./git": true,
		"configs/git": true, "/abs/git": true, "docker-compose": false,
	} {
		if got := IsPath(ref); got != want {
			t.Errorf("IsPath(%q) = %v, want %v", ref, got, want)
		}
	}
}

func TestBundledNames(t *testing.T) {
	names, err := BundledNames(fstest.MapFS{
		"jj.yaml": {}, "git.yaml": {}, "docker.yaml": {}, "README.md": {}, "sub/x.yaml": {},
	})
	if err != nil || !slices.Equal(names, []string{"docker", "git", "jj"}) {
		t.Errorf("BundledNames = %v, %v", names, err)
	}
}
