package index_test

import (
	"github.com/climax-mcp/climax/index/config"

	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/climax-mcp/climax/index"
)

// fixture returns in-memory configs: two vcs CLIs, one containers CLI and
// one with no category or tags and mixed-case names.
func fixture() []*config.Config {
	return []*config.Config{
		{
			Name: "git-tools", Description: "Git version control", Command: "git", Source: "git.yaml",
			Category: "vcs", Tags: []string{"version-control", "commits"},
			Tools: []config.Tool{
				{Name: "git_status", Description: "Show the working tree status", Command: "status"},
				{Name: "git_log", Description: "Show commit logs", Command: "log", Args: []config.Arg{
					{Name: "max_count", Type: config.TypeInteger, Flag: "-n", Default: 10},
					{Name: "author", Type: config.TypeString, Flag: "--author"},
				}},
				{Name: "git_add", Description: "Stage files for the next commit", Command: "add", Args: []config.Arg{
					{Name: "path", Type: config.TypeString, Positional: true, Required: true},
				}},
			},
		},
		{
			Name: "jj-tools", Description: "Jujutsu version control", Command: "jj", Source: "jj.yaml",
			Category: "vcs", Tags: []string{"version-control"},
			Tools: []config.Tool{
				{Name: "jj_status", Description: "Show the working copy status", Command: "status"},
				{Name: "jj_log", Description: "Show revision history", Command: "log"},
			},
		},
		{
			Name: "docker-tools", Description: "Docker containers", Command: "docker", Source: "docker.yaml",
			Category: "containers", Tags: []string{"devops"},
			Tools: []config.Tool{
				{Name: "docker_ps", Description: "List running containers (docker ps)", Command: "ps"},
				{Name: "docker_images", Description: "List images", Command: "images"},
			},
		},
		{
			// No category, no tags (nil), mixed case.
			Name: "Plain", Command: "echo", Source: "plain.yaml",
			Tools: []config.Tool{
				{Name: "Echo_Text", Description: "Print TEXT to Stdout"},
			},
		},
	}
}

func mustNew(t *testing.T, configs []*config.Config, p *config.Policy) (*index.Index, []string) {
	t.Helper()
	ix, problems, err := index.New(configs, p)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for _, w := range problems {
		warnings = append(warnings, w.String())
	}
	return ix, warnings
}

func names(entries []index.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.ToolName
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// substringMatches is the plain rule every search must include: the query
// as a case-insensitive substring of name, description, CLI name, category
// or a tag.
func substringMatches(configs []*config.Config, query string) []string {
	q := strings.ToLower(query)
	var out []string
	for _, c := range configs {
		for _, t := range c.Tools {
			fields := append([]string{t.Name, t.Description, c.Name, c.Category}, c.Tags...)
			for _, f := range fields {
				if strings.Contains(strings.ToLower(f), q) {
					out = append(out, t.Name)
					break
				}
			}
		}
	}
	return out
}

// Every tool of every config is indexed and retrievable; absent category
// and tags become null and [] (docs/search.md, Answers).
func TestNewIndexesEveryTool(t *testing.T) {
	configs := fixture()
	ix, warnings := mustNew(t, configs, nil)
	if len(warnings) != 0 {
		t.Errorf("warnings without a policy: %v", warnings)
	}
	want := []string{"git_status", "git_log", "git_add", "jj_status", "jj_log", "docker_ps", "docker_images", "Echo_Text"}
	if got := ix.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v (load order)", got, want)
	}
	if ix.Len() != len(want) || len(ix.Tools()) != len(want) {
		t.Errorf("Len = %d, Tools = %d", ix.Len(), len(ix.Tools()))
	}
	for _, name := range want {
		rt, ok := ix.Get(name)
		if !ok || rt.Tool.Name != name {
			t.Errorf("Get(%q) = %v, %v", name, rt, ok)
		}
	}
	all := ix.Search("", "", "", 100)
	byName := map[string]index.Entry{}
	for _, e := range all {
		byName[e.ToolName] = e
	}
	if len(all) != len(want) {
		t.Fatalf("Search all = %v", names(all))
	}
	if e := byName["git_log"]; e.CLIName != "git-tools" || e.Category == nil || *e.Category != "vcs" || !slices.Equal(e.Tags, []string{"version-control", "commits"}) || e.Description != "Show commit logs" {
		t.Errorf("git_log entry = %+v", e)
	}
	e := byName["Echo_Text"]
	if e.Category != nil || e.Tags == nil || len(e.Tags) != 0 {
		t.Errorf("Echo_Text category, tags = %v, %#v; want nil, []", e.Category, e.Tags)
	}
	// The CLI's category and tags stay out of the JSON: every result
	// of the CLI would repeat them (docs/search.md, Answers).
	js, _ := json.Marshal(e)
	if strings.Contains(string(js), `"category"`) || strings.Contains(string(js), `"tags"`) {
		t.Errorf("entry JSON = %s", js)
	}
}

// A keyword matches name, description, CLI name, category and tags,
// whatever the case; every substring match is returned (docs/search.md,
// What a search guarantees).
func TestSearchQuery(t *testing.T) {
	configs := fixture()
	ix, _ := mustNew(t, configs, nil)
	tests := []struct {
		query string
		must  []string // at least these (and every substring match)
	}{
		{"git_st", []string{"git_status"}},                        // name
		{"working tree", []string{"git_status"}},                  // description
		{"revision", []string{"jj_log"}},                          // description word
		{"docker-tools", []string{"docker_ps", "docker_images"}},  // CLI name
		{"containers", []string{"docker_ps", "docker_images"}},    // category
		{"devops", []string{"docker_ps", "docker_images"}},        // tag
		{"commits", []string{"git_status", "git_log", "git_add"}}, // tag
		{"ECHO", []string{"Echo_Text"}},                           // case: name
		{"print text to stdout", []string{"Echo_Text"}},           // case: description
		{"plain", []string{"Echo_Text"}},                          // case: CLI name
		{"VCS", []string{"git_status", "jj_status", "jj_log"}},    // case: category
		{"Version-Control", []string{"git_log", "jj_log"}},        // case: tag
		{"(docker", []string{"docker_ps"}},                        // special characters literally
		{"status", []string{"git_status", "jj_status"}},           // several CLIs
		{"  status  ", []string{"git_status", "jj_status"}},       // surrounding space
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := names(ix.Search(tt.query, "", "", 100))
			for _, w := range tt.must {
				if !slices.Contains(got, w) {
					t.Errorf("Search(%q) = %v, missing %s", tt.query, got, w)
				}
			}
			for _, w := range substringMatches(configs, strings.TrimSpace(tt.query)) {
				if !slices.Contains(got, w) {
					t.Errorf("Search(%q) = %v, missing substring match %s", tt.query, got, w)
				}
			}
			seen := map[string]bool{}
			for _, n := range got {
				if seen[n] {
					t.Errorf("Search(%q) returns %s twice", tt.query, n)
				}
				seen[n] = true
			}
		})
	}
	for _, q := range []string{"zzzqqq", "[", ".*", `\`} {
		got := ix.Search(q, "", "", 10)
		if got == nil || len(got) != 0 {
			t.Errorf("Search(%q) = %#v, want an empty non-nil list", q, got)
		}
	}
}

// Category and cli are exact, case-insensitive filters; all given filters
// AND together (docs/search.md, What a search guarantees).
func TestSearchFilters(t *testing.T) {
	ix, _ := mustNew(t, fixture(), nil)
	tests := []struct {
		query, category, cli string
		want                 []string // exactly these, any order
	}{
		{"", "vcs", "", []string{"git_status", "git_log", "git_add", "jj_status", "jj_log"}},
		{"", "VCS", "", []string{"git_status", "git_log", "git_add", "jj_status", "jj_log"}},
		{"", "containers", "", []string{"docker_ps", "docker_images"}},
		{"", "vc", "", nil}, // exact, not substring
		{"", "", "jj-tools", []string{"jj_status", "jj_log"}},
		{"", "", "JJ-Tools", []string{"jj_status", "jj_log"}},
		{"", "", "jj", nil},
		{"", "", "plain", []string{"Echo_Text"}},
		{"", "vcs", "git-tools", []string{"git_status", "git_log", "git_add"}},
		{"", "containers", "git-tools", nil},
		{"status", "vcs", "", []string{"git_status", "jj_status"}},
		{"status", "", "jj-tools", []string{"jj_status"}},
		{"status", "containers", "", nil},
		{"log", "vcs", "jj-tools", []string{"jj_log"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/%q/%q", tt.query, tt.category, tt.cli), func(t *testing.T) {
			got := ix.Search(tt.query, tt.category, tt.cli, 100)
			if tt.query == "" {
				if !slices.Equal(sorted(names(got)), sorted(tt.want)) {
					t.Errorf("got %v, want %v", names(got), tt.want)
				}
				return
			}
			// With a query, ranking may add related tools; each must still
			// pass the filters, and the wanted ones must be there.
			for _, w := range tt.want {
				if !slices.Contains(names(got), w) {
					t.Errorf("got %v, missing %s", names(got), w)
				}
			}
			for _, e := range got {
				if tt.category != "" && (e.Category == nil || !strings.EqualFold(*e.Category, tt.category)) {
					t.Errorf("%s has category %v, filter %q", e.ToolName, e.Category, tt.category)
				}
				if tt.cli != "" && !strings.EqualFold(e.CLIName, tt.cli) {
					t.Errorf("%s has cli %q, filter %q", e.ToolName, e.CLIName, tt.cli)
				}
			}
			if len(tt.want) == 0 && len(got) != 0 {
				t.Errorf("got %v, want none", names(got))
			}
		})
	}
}

// Results are capped at limit (docs/search.md, What a search guarantees).
func TestSearchLimit(t *testing.T) {
	ix, _ := mustNew(t, fixture(), nil)
	for _, tt := range []struct {
		query string
		limit int
		want  int
	}{
		{"", 3, 3}, {"", 1, 1}, {"", 100, 8}, {"", 0, 0}, {"", -1, 0},
		{"status", 1, 1}, {"vcs", 2, 2},
	} {
		got := ix.Search(tt.query, "", "", tt.limit)
		if len(got) != tt.want || got == nil {
			t.Errorf("Search(%q, limit %d) = %v, want %d results", tt.query, tt.limit, names(got), tt.want)
		}
	}
}

// The summary lists every CLI in load order with tool count, category and
// tags (docs/search.md, Answers).
func TestSummary(t *testing.T) {
	ix, _ := mustNew(t, fixture(), nil)
	got := ix.Summary()
	type row struct {
		name, desc string
		count      int
		category   string
		tags       []string
	}
	want := []row{
		{"git-tools", "Git version control", 3, "vcs", []string{"version-control", "commits"}},
		{"jj-tools", "Jujutsu version control", 2, "vcs", []string{"version-control"}},
		{"docker-tools", "Docker containers", 2, "containers", []string{"devops"}},
		{"Plain", "", 1, "", []string{}},
	}
	if len(got) != len(want) {
		t.Fatalf("Summary = %+v", got)
	}
	for i, w := range want {
		g := got[i]
		cat := ""
		if g.Category != nil {
			cat = *g.Category
		}
		if g.Name != w.name || g.Description != w.desc || g.ToolCount != w.count || cat != w.category || !slices.Equal(g.Tags, w.tags) || g.Tags == nil {
			t.Errorf("Summary[%d] = %+v, want %+v", i, g, w)
		}
	}
	if got[3].Category != nil {
		t.Errorf("Plain category = %v, want nil", *got[3].Category)
	}
	js, _ := json.Marshal(got[3])
	if want := `{"name":"Plain","description":"","tool_count":1,"category":null,"tags":[]}`; string(js) != want {
		t.Errorf("summary JSON = %s, want %s", js, want)
	}
	// The summary is a copy: changing it does not change the index.
	got[0].Name = "changed"
	if ix.Summary()[0].Name != "git-tools" {
		t.Error("Summary returned the index's own slice")
	}
}

// Get returns the exact tool with its parent config, and nothing for an
// unknown name.
func TestGet(t *testing.T) {
	configs := fixture()
	configs[0].Env = map[string]string{"GIT_PAGER": "cat"}
	configs[0].WorkingDir = "/repo"
	ix, _ := mustNew(t, configs, nil)
	rt, ok := ix.Get("git_log")
	if !ok {
		t.Fatal("git_log not found")
	}
	if rt.Tool != &configs[0].Tools[1] || rt.CLI != configs[0] {
		t.Errorf("Get returned a different tool or config")
	}
	if rt.CLI.Command != "git" || rt.CLI.Env["GIT_PAGER"] != "cat" || rt.CLI.WorkingDir != "/repo" {
		t.Errorf("CLI = %+v", rt.CLI)
	}
	if rt.Constraints != nil || !reflect.DeepEqual(rt.Executor, config.Executor{}) {
		t.Errorf("without a policy: Constraints = %v, Executor = %+v", rt.Constraints, rt.Executor)
	}
	for _, name := range []string{"git_lo", "GIT_LOG", "git_log ", "", "nope"} {
		if rt, ok := ix.Get(name); ok || rt != nil {
			t.Errorf("Get(%q) = %v, %v; want not found", name, rt, ok)
		}
	}
}

func TestNewEmptyConfigs(t *testing.T) {
	ix, _ := mustNew(t, nil, nil)
	if ix.Len() != 0 || len(ix.Summary()) != 0 {
		t.Errorf("empty index has tools or CLIs")
	}
	if got := ix.Search("", "", "", 10); got == nil || len(got) != 0 {
		t.Errorf("Search on empty index = %#v", got)
	}
	// A config with no tools is still listed, with tool_count 0.
	empty := &config.Config{Name: "empty", Command: "true", Tools: []config.Tool{}}
	ix, _ = mustNew(t, []*config.Config{empty, nil}, nil)
	if s := ix.Summary(); len(s) != 1 || s[0].Name != "empty" || s[0].ToolCount != 0 {
		t.Errorf("Summary = %+v", s)
	}
}

func TestNewDuplicateToolNames(t *testing.T) {
	a := &config.Config{Name: "a", Source: "a.yaml", Tools: []config.Tool{{Name: "x", Description: "d"}}}
	b := &config.Config{Name: "b", Source: "b.yaml", Tools: []config.Tool{{Name: "y", Description: "d"}, {Name: "x", Description: "d"}}}
	if _, _, err := index.New([]*config.Config{a, b}, nil); err == nil || err.Error() != `tool "x" is defined in both a.yaml and b.yaml: rename one or load only one of them` {
		t.Errorf("err = %v", err)
	}
	// Even when the policy disables the tool in one of them.
	p := &config.Policy{Default: config.PolicyDisabled, Tools: map[string]config.ToolPolicy{"y": {}}, Source: "p.yaml"}
	if _, _, err := index.New([]*config.Config{a, b}, p); err == nil || !strings.Contains(err.Error(), "a.yaml and b.yaml") {
		t.Errorf("with policy: err = %v", err)
	}
	twice := &config.Config{Name: "c", Source: "c.yaml", Tools: []config.Tool{{Name: "z"}, {Name: "z"}}}
	if _, _, err := index.New([]*config.Config{twice}, nil); err == nil || err.Error() != `tool "z" is defined twice in c.yaml` {
		t.Errorf("err = %v", err)
	}
	// In-memory configs without a source are named by their CLI name.
	a.Source, b.Source = "", ""
	if _, _, err := index.New([]*config.Config{a, b}, nil); err == nil || !strings.Contains(err.Error(), `config "a" and config "b"`) {
		t.Errorf("err = %v", err)
	}
}

func specPolicy(t *testing.T) *config.Policy {
	t.Helper()
	p, err := config.LoadPolicyFile("config/testdata/policy/spec.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Disabled tools do not exist anywhere: Get, Search, Summary, Tools, Names.
func TestPolicyDisables(t *testing.T) {
	ix, warnings := mustNew(t, fixture(), specPolicy(t))
	if len(warnings) != 0 {
		t.Errorf("warnings = %v", warnings)
	}
	enabled := []string{"git_status", "git_log", "git_add"}
	if got := ix.Names(); !slices.Equal(got, enabled) {
		t.Errorf("Names = %v, want %v", got, enabled)
	}
	if ix.Len() != 3 || len(ix.Tools()) != 3 {
		t.Errorf("Len = %d", ix.Len())
	}
	for _, name := range []string{"jj_status", "jj_log", "docker_ps", "docker_images", "Echo_Text"} {
		if _, ok := ix.Get(name); ok {
			t.Errorf("Get(%q) found a disabled tool", name)
		}
	}
	for _, q := range []string{"", "status", "docker", "jj", "echo", "version-control"} {
		for _, e := range ix.Search(q, "", "", 100) {
			if !slices.Contains(enabled, e.ToolName) {
				t.Errorf("Search(%q) returned disabled %s", q, e.ToolName)
			}
		}
	}
	if got := ix.Search("", "", "jj-tools", 10); len(got) != 0 {
		t.Errorf("Search(cli jj-tools) = %v", names(got))
	}
	s := ix.Summary()
	if len(s) != 1 || s[0].Name != "git-tools" || s[0].ToolCount != 3 {
		t.Errorf("Summary = %+v, want only git-tools with 3 tools", s)
	}
}

func TestPolicyOverridesAndConstraints(t *testing.T) {
	configs := fixture()
	configs[0].Tools[1].Description = "Show commit logs (quokka)"
	ix, _ := mustNew(t, configs, specPolicy(t))

	lg, _ := ix.Get("git_log")
	if lg.Tool.Description != "Show recent log (max 100)" {
		t.Errorf("git_log description = %q", lg.Tool.Description)
	}
	if configs[0].Tools[1].Description != "Show commit logs (quokka)" {
		t.Errorf("the policy changed the config: %q", configs[0].Tools[1].Description)
	}
	if lg.Tool.Name != "git_log" || len(lg.Tool.Args) != 2 {
		t.Errorf("override lost the tool: %+v", lg.Tool)
	}
	var entry index.Entry
	for _, e := range ix.Search("", "", "git-tools", 10) {
		if e.ToolName == "git_log" {
			entry = e
		}
	}
	if entry.Description != "Show recent log (max 100)" {
		t.Errorf("search entry description = %q", entry.Description)
	}
	if got := names(ix.Search("max 100", "", "", 10)); !slices.Contains(got, "git_log") {
		t.Errorf("Search(override text) = %v", got)
	}
	if got := names(ix.Search("quokka", "", "", 10)); slices.Contains(got, "git_log") {
		t.Errorf("Search(replaced text) still finds git_log: %v", got)
	}

	mc := lg.Constraints["max_count"]
	if mc == nil || mc.Max == nil || *mc.Max != 100 || mc.Min != nil || !mc.MatchString("anything") {
		t.Errorf("max_count constraint = %+v", mc)
	}
	add, _ := ix.Get("git_add")
	pc := add.Constraints["path"]
	if pc == nil {
		t.Fatal("git_add has no path constraint")
	}
	for s, want := range map[string]bool{"src/a.go": true, "src/": true, "lib/src/a": false, "": false, "xsrc/": false} {
		if got := pc.MatchString(s); got != want {
			t.Errorf("path pattern MatchString(%q) = %v, want %v", s, got, want)
		}
	}
	st, _ := ix.Get("git_status")
	if st.Constraints != nil || st.Tool.Description != "Show the working tree status" {
		t.Errorf("git_status = %+v", st)
	}
	for _, rt := range ix.Tools() {
		if rt.Executor.Type != "docker" || rt.Executor.Image != "alpine/git" || rt.Executor.Network != "none" || rt.Executor.WorkingDir != "/workspace" || len(rt.Executor.Volumes) != 1 {
			t.Errorf("%s executor = %+v", rt.Tool.Name, rt.Executor)
		}
	}
}

// A whole-value pattern: alternation must not escape the anchors.
func TestConstraintAnchorsAlternation(t *testing.T) {
	p := &config.Policy{Default: config.PolicyEnabled, Tools: map[string]config.ToolPolicy{
		"git_add": {Args: map[string]config.Constraint{"path": {Pattern: "a|b"}}},
	}}
	ix, _ := mustNew(t, fixture(), p)
	rt, _ := ix.Get("git_add")
	for s, want := range map[string]bool{"a": true, "b": true, "ab": false, "xa": false, "bx": false} {
		if got := rt.Constraints["path"].MatchString(s); got != want {
			t.Errorf("MatchString(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPolicyDefaultEnabled(t *testing.T) {
	p, err := config.ParsePolicy([]byte("default: enabled\ntools:\n  jj_log:\n    description: Revisions\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ix, _ := mustNew(t, fixture(), p)
	if ix.Len() != 8 || len(ix.Summary()) != 4 {
		t.Errorf("Len = %d, Summary = %d; want every tool", ix.Len(), len(ix.Summary()))
	}
	if rt, _ := ix.Get("jj_log"); rt.Tool.Description != "Revisions" {
		t.Errorf("jj_log description = %q", rt.Tool.Description)
	}
	if rt, _ := ix.Get("git_log"); rt.Executor.Type != config.ExecutorLocal {
		t.Errorf("executor = %+v", rt.Executor)
	}
}

func TestPolicyWarnings(t *testing.T) {
	src := `tools:
  git_stauts: {}
  git_log:
    args:
      max_cnt: {max: 5}
  git_add:
    args:
      path: {pattern: "src/.*"}
  frobnicate: {}
`
	p, err := config.ParsePolicy([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, warnings := mustNew(t, fixture(), p)
	want := []string{
		`p.yaml:9:3: policy names unknown tool "frobnicate"; ignored`,
		`p.yaml:5:7: policy for tool "git_log" names unknown arg "max_cnt"; ignored (did you mean "max_count"?)`,
		`p.yaml:2:3: policy names unknown tool "git_stauts"; ignored (did you mean "git_status"?)`,
	}
	if !slices.Equal(warnings, want) {
		t.Errorf("warnings:\n  %s\nwant:\n  %s", strings.Join(warnings, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestPolicyBoundsOnStrings checks that min or max on an arg that is not a
// number is an error: the caller's text would be passed on, not the number
// checked (" 5", "+5", "1e2" and "0005" all parse as numbers in range).
func TestPolicyBoundsOnStrings(t *testing.T) {
	src := "tools:\n  git_log:\n    args:\n      author: {min: 1, max: 100}\n      max_count: {max: 5}\n"
	p, err := config.ParsePolicy([]byte(src), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = index.New(fixture(), p)
	want := `p.yaml:4:7: policy for tool "git_log": arg "author" is a string: min and max only apply to integer and number args; remove them, or make the arg an integer or number in the config`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestNewInvalidPattern(t *testing.T) {
	p := &config.Policy{Source: "p.yaml", Tools: map[string]config.ToolPolicy{
		"git_add": {Args: map[string]config.Constraint{"path": {Pattern: "("}}},
	}}
	_, _, err := index.New(fixture(), p)
	if err == nil || !strings.HasPrefix(err.Error(), `p.yaml: tool git_add, arg path: invalid pattern "("`) {
		t.Errorf("err = %v", err)
	}
}

func TestResolvedSchema(t *testing.T) {
	ix, _ := mustNew(t, fixture(), nil)
	rt, _ := ix.Get("git_log")
	want, _ := json.Marshal(rt.Tool.InputSchema())
	if string(rt.Schema) != string(want) {
		t.Errorf("Schema = %s, want %s", rt.Schema, want)
	}
	for _, e := range ix.Search("git_log", "", "", 10) {
		if e.ToolName == "git_log" && string(e.InputSchema) != string(want) {
			t.Errorf("entry schema = %s", e.InputSchema)
		}
	}
}

// The index is safe for concurrent use (run with -race).
func TestConcurrentQueries(t *testing.T) {
	ix, _ := mustNew(t, fixture(), nil)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				ix.Search([]string{"status", "", "vcs", "docker"}[i%4], "", "", 5)
				ix.Summary()
				ix.Get("git_log")
			}
		}()
	}
	wg.Wait()
}

// With every tool disabled, Summary, Search and Entries are empty lists,
// never nil: they become JSON [] rather than null.
func TestEmptyListsAreNotNil(t *testing.T) {
	ix, _ := mustNew(t, fixture(), &config.Policy{Default: config.PolicyDisabled})
	if got := ix.Summary(); got == nil || len(got) != 0 {
		t.Errorf("Summary = %#v, want an empty non-nil list", got)
	}
	if got := ix.Entries(); got == nil || len(got) != 0 {
		t.Errorf("Entries = %#v, want an empty non-nil list", got)
	}
	if got := ix.Search("git", "", "", 5); got == nil || len(got) != 0 {
		t.Errorf("Search = %#v, want an empty non-nil list", got)
	}
}
