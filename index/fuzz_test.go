package index_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index"
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

// checkLoadError checks that err is a *index.LoadError with positioned
// problems that name the source.
func checkLoadError(t *testing.T, err error, data []byte) {
	var le *index.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *index.LoadError", err, err)
	}
	if le.File != "fuzz.yaml" || len(le.Problems) == 0 {
		t.Fatalf("LoadError %+v", le)
	}
	lines := strings.Count(string(data), "\n") + 2
	for _, p := range le.Problems {
		if p.File != "fuzz.yaml" || p.Message == "" || p.Line < 0 || p.Line > lines || p.Column < 0 {
			t.Fatalf("bad problem %+v", p)
		}
	}
	if err.Error() == "" {
		t.Fatal("empty error text")
	}
}

// FuzzParse: any input gives a config or a *LoadError, never a panic, and
// every config it accepts is valid and indexes.
func FuzzParse(f *testing.F) {
	addSeeds(f, "testdata/valid/*.yaml", "testdata/invalid/*.yaml", "../configs/*.yaml", "../../shared/compat/*.yaml")
	for _, s := range []string{
		"", "---\n", "command: x\ntools: []\n", "a: &x [*x]\n", "tools: &t [*t]\ncommand: x\n",
		"command: x\ntools:\n  - &a {name: t, description: d, <<: *a}\n",
		"command: x\ntools:\n  - {name: t, description: d, args: [{name: a, default: .inf, type: number}]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := index.Parse(data, "fuzz.yaml")
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
			if !index.ValidToolName(tool.Name) || tool.Description == "" || tool.Timeout <= 0 || tool.MaxOutput <= 0 {
				t.Fatalf("accepted tool %+v", tool)
			}
			for _, a := range tool.Args {
				switch a.Type {
				case index.TypeString, index.TypeInteger, index.TypeNumber, index.TypeBoolean:
				default:
					t.Fatalf("accepted arg type %q", a.Type)
				}
				if a.Name == "" || a.Positional && a.Flag != "" {
					t.Fatalf("accepted arg %+v", a)
				}
			}
		}
		ix, _, err := index.New([]*index.Config{c}, nil)
		if err != nil {
			t.Fatalf("New on an accepted config: %v", err)
		}
		for _, rt := range ix.Tools() {
			if !json.Valid(rt.Schema) {
				t.Fatalf("invalid schema %s", rt.Schema)
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
	} {
		f.Add([]byte(s))
	}
	cfg := &index.Config{Name: "git", Command: "git", Tools: []index.Tool{
		{Name: "git_status", Description: "d"},
		{Name: "git_log", Description: "d", Args: []index.Arg{{Name: "max_count", Type: index.TypeInteger}}},
		{Name: "git_add", Description: "d", Args: []index.Arg{{Name: "path", Type: index.TypeString}}},
	}}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := index.ParsePolicy(data, "fuzz.yaml")
		if err != nil {
			if p != nil {
				t.Fatal("policy and error together")
			}
			checkLoadError(t, err, data)
			return
		}
		if p.Default != index.PolicyEnabled && p.Default != index.PolicyDisabled || p.Tools == nil {
			t.Fatalf("accepted policy %+v", p)
		}
		if p.Executor.Type == index.ExecutorDocker && p.Executor.Image == "" || p.Executor.Type != index.ExecutorDocker && p.Executor.Type != index.ExecutorLocal {
			t.Fatalf("accepted executor %+v", p.Executor)
		}
		// Apply it to a config that has every tool and arg it names.
		c := *cfg
		c.Tools = append([]index.Tool(nil), cfg.Tools...)
		for name, tp := range p.Tools {
			if !index.ValidToolName(name) {
				continue
			}
			tool := index.Tool{Name: name, Description: "d"}
			for an := range tp.Args {
				tool.Args = append(tool.Args, index.Arg{Name: an, Type: index.TypeNumber})
			}
			switch name {
			case "git_status", "git_log", "git_add":
				continue
			}
			c.Tools = append(c.Tools, tool)
		}
		if _, _, err := index.New([]*index.Config{&c}, p); err != nil {
			t.Fatalf("New with an accepted policy: %v", err)
		}
	})
}
