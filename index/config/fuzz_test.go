package config_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// addSeeds adds every file matching the globs as a fuzz seed.
func addSeeds(f *testing.F, globs ...string) {
	for _, g := range globs {
		files, _ := filepath.Glob(g)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// checkLoadError checks that err is a *config.LoadError with positioned
// problems that name the source.
func checkLoadError(t *testing.T, err error, data []byte) {
	var le *config.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *config.LoadError", err, err)
	}
	if le.File != "fuzz.yaml" || len(le.Problems) == 0 {
		t.Fatalf("LoadError %+v", le)
	}
	if len(le.Problems) > config.MaxProblems || le.Omitted < 0 {
		t.Fatalf("%d problems listed, %d omitted", len(le.Problems), le.Omitted)
	}
	lines := strings.Count(string(data), "\n") + strings.Count(string(data), "\r") + 2 // YAML breaks lines at CR too
	for _, p := range le.Problems {
		if p.File != "fuzz.yaml" || p.Message == "" || p.Line < 0 || p.Line > lines || p.Column < 0 {
			t.Fatalf("bad problem %+v", p)
		}
		// Values are quoted short and escaped: one line, whatever the input.
		if len(p.Message) > 1500 || strings.ContainsAny(p.Message, "\n\r") {
			t.Fatalf("problem message of %d bytes: %q", len(p.Message), p.Message)
		}
	}
	if err.Error() == "" {
		t.Fatal("empty error text")
	}
}

// FuzzParse: any input gives a config or a *LoadError, never a panic, and
// every config it accepts is valid and indexes.
func FuzzParse(f *testing.F) {
	addSeeds(f, "testdata/valid/*.yaml", "testdata/invalid/*.yaml", "../../configs/*.yaml", "../../../shared/compat/*.yaml")
	for _, s := range []string{
		"", "---\n", "command: x\ntools: []\n", "a: &x [*x]\n", "tools: &t [*t]\ncommand: x\n",
		"command: x\ntools:\n  - &a {name: t, description: d, <<: *a}\n",
		"command: x\ntools:\n  - {name: t, description: d, args: [{name: a, default: .inf, type: number}]}\n",
		// Aliases and merge keys, nested and repeated.
		"command: x\nx: &arg {name: a}\ny: &tool {name: t, description: d, args: [*arg, *arg, *arg]}\ntools: [*tool, *tool]\n",
		"command: x\ntools:\n- &a {name: t, description: d}\n- &b {<<: [*a,*a,*a]}\n- &c {<<: [*b,*b,*b], name: u}\n- {<<: *c, <<: *b}\n",
		"command: x\ntools:\n  - &t {name: t, description: d, args: &args [{name: a, type: integer, enum: &e ['1', '2']}]}\n  - {<<: *t, name: u, args: *args}\n",
		"command: &c x\nname: *c\ntags: [*c, *c]\ntools: []\n",
		"command: x\ntools: [&t {name: t, description: d, args: [{<<: *t}]}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := config.Parse(data, "fuzz.yaml")
		if err != nil {
			if c != nil {
				t.Fatal("config and error together")
			}
			checkLoadError(t, err, data)
			return
		}
		if c.Source != "fuzz.yaml" || c.Name == "" || strings.TrimSpace(c.Command) == "" || c.Tags == nil || c.Env == nil || c.Tools == nil {
			t.Fatalf("accepted config %+v", c)
		}
		for _, tool := range c.Tools {
			if !config.ValidToolName(tool.Name) || tool.Description == "" || tool.Timeout <= 0 || tool.MaxOutput <= 0 {
				t.Fatalf("accepted tool %+v", tool)
			}
			for _, a := range tool.Args {
				switch a.Type {
				case config.TypeString, config.TypeInteger, config.TypeNumber, config.TypeBoolean, config.TypeJSON:
				case config.TypeArray:
					if it := a.ItemType(); it != config.TypeString && it != config.TypeInteger && it != config.TypeNumber {
						t.Fatalf("accepted item type %q", it)
					}
				default:
					t.Fatalf("accepted arg type %q", a.Type)
				}
				if a.Name == "" || a.Positional && a.Flag != "" {
					t.Fatalf("accepted arg %+v", a)
				}
			}
		}
		set, _, err := config.Apply([]*config.Config{c}, nil)
		if err != nil {
			t.Fatalf("Apply on an accepted config: %v", err)
		}
		for _, rt := range set.Tools {
			schema, err := rt.Tool.InputSchema().JSON()
			if err != nil || !json.Valid(schema) {
				t.Fatalf("invalid schema %s: %v", schema, err)
			}
		}
	})
}

// FuzzParsePolicy: any input gives a policy or a *LoadError, never a
// panic, and every policy it accepts can be applied.
func FuzzParsePolicy(f *testing.F) {
	addSeeds(f, "testdata/policy/*.yaml")
	for _, s := range []string{
		"", "default: enabled\n", "tools:\n  git_status:\n", "tools: {git_add: {args: {path: {pattern: '('}}}}\n",
		"tools: {git_log: {args: {max_count: {min: 5, max: 1}}}}\n", "executor: {type: docker}\n",
		"tools: {git_add: {args: {path: {pattern: 'safe)|(.*'}}}}\n",
		"x: &c {pattern: 'a|b', min: 1}\ntools: {git_add: {args: {path: *c}}, git_log: {args: {max_count: {<<: *c, max: 3}}}}\n",
		"x: &t {description: d}\ntools: {git_status: *t, git_log: {<<: [*t, *t]}}\n",
	} {
		f.Add([]byte(s))
	}
	cfg := &config.Config{Name: "git", Command: "git", Tools: []config.Tool{
		{Name: "git_status", Description: "d"},
		{Name: "git_log", Description: "d", Args: []config.Arg{{Name: "max_count", Type: config.TypeInteger}}},
		{Name: "git_add", Description: "d", Args: []config.Arg{{Name: "path", Type: config.TypeString}}},
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := config.ParsePolicy(data, "fuzz.yaml")
		if err != nil {
			if p != nil {
				t.Fatal("policy and error together")
			}
			checkLoadError(t, err, data)
			return
		}
		if p.Default != config.PolicyEnabled && p.Default != config.PolicyDisabled && p.Default != config.PolicyReadOnly || p.Tools == nil {
			t.Fatalf("accepted policy %+v", p)
		}
		if p.Executor.Type == config.ExecutorDocker && p.Executor.Image == "" || p.Executor.Type != config.ExecutorDocker && p.Executor.Type != config.ExecutorLocal {
			t.Fatalf("accepted executor %+v", p.Executor)
		}
		// Apply it to a config that has every tool and arg it names.
		c := *cfg
		c.Tools = append([]config.Tool(nil), cfg.Tools...)
		for name, tp := range p.Tools {
			if !config.ValidToolName(name) {
				continue
			}
			tool := config.Tool{Name: name, Description: "d"}
			for an := range tp.Args {
				tool.Args = append(tool.Args, config.Arg{Name: an, Type: config.TypeNumber})
			}
			switch name {
			case "git_status", "git_log", "git_add":
				continue
			}
			c.Tools = append(c.Tools, tool)
		}
		if _, _, err := config.Apply([]*config.Config{&c}, p); err != nil {
			t.Fatalf("Apply with an accepted policy: %v", err)
		}
	})
}

// FuzzPolicyPattern: a pattern ParsePolicy accepts is exactly a pattern
// regexp.Compile accepts on its own, and a value satisfies it exactly when
// the pattern alone can match the whole value. The oracle: the
// leftmost-longest match of the pattern alone covers the value from start
// to end exactly when some match does (a match that starts at 0 is the
// leftmost, and the longest of those ends at the end when one does).
func FuzzPolicyPattern(f *testing.F) {
	for _, s := range [][2]string{
		{"safe)|(.*", "anything"}, {"a|b", "ab"}, {"a|ab", "ab"}, {"^src/.*", "x/src/a"},
		{"(?m)^a$", "a\nb"}, {"a$|b", "a\n"}, {"(?s).*", "a\nb"}, {"(?i)safe|x", "SAFEX"},
		{`x\Q`, "x)$"}, {`\Q)|(.*`, ")|(.*"}, {`[^/.][^.]*`, "~"}, {`\b|a*?`, ""},
		{`(?U)a+`, "aaa"}, {`\pL+`, "é"}, {`(a|b)*c\z`, "abc"}, {`\A`, ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, value string) {
		if !utf8.ValidString(pattern) {
			return // YAML text holds no invalid UTF-8 (and regexp refuses it)
		}
		alone, aloneErr := regexp.Compile(pattern)
		c, err := constraint(t, pattern)
		if err != nil {
			if aloneErr == nil && pattern != "" { // an empty pattern is refused
				t.Fatalf("pattern %q compiles alone but the policy is refused: %v", pattern, err)
			}
			return
		}
		if aloneErr != nil {
			t.Fatalf("pattern %q is accepted but does not compile alone: %v", pattern, aloneErr)
		}
		if c.Pattern != pattern {
			t.Skipf("pattern %q read back as %q", pattern, c.Pattern) // not what this target tests
		}
		alone.Longest()
		loc := alone.FindStringIndex(value)
		want := loc != nil && loc[0] == 0 && loc[1] == len(value)
		if got := c.MatchString(value); got != want {
			t.Fatalf("pattern %q on %q: MatchString = %v, a whole match of the pattern alone: %v", pattern, value, got, want)
		}
	})
}
