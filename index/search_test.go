package index

import (
	"github.com/climax-mcp/climax/index/config"

	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"git_status", []string{"git", "status"}},
		{"docker-tools", []string{"docker", "tools"}},
		{"a.b:c/d e\tf", []string{"a", "b", "c", "d", "e", "f"}},
		{"dockerPs", []string{"docker", "ps"}},
		{"HTTPServer", []string{"http", "server"}},
		// An acronym's plural is one word.
		{"find TODOs, open PRs", []string{"find", "todos", "open", "prs"}},
		{"URLs/IDs", []string{"urls", "ids"}},
		{"getHTTP2Response", []string{"get", "http2", "response"}},
		{"List running containers.", []string{"list", "running", "containers"}},
		{"version-control", []string{"version", "control"}},
		{"k8s ipv6 utf8", []string{"k8s", "ipv6", "utf8"}},
		{"(a.b*) --all", []string{"a", "b", "all"}},
		{"Größe ÄNDERN", []string{"größe", "ändern"}},
		{"  __--  ", nil},
	}
	for _, tt := range tests {
		var got []string
		tokenize(tt.in, func(tok []byte) { got = append(got, string(tok)) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStem(t *testing.T) {
	// Each group's words must share one stem; the stems of different
	// groups must differ.
	groups := [][]string{
		{"container", "containers"},
		{"branch", "branches"},
		{"dependency", "dependencies"},
		{"run", "runs", "running"},
		{"commit", "commits", "committed", "committing"},
		{"image", "images", "imaging"},
		{"create", "creates", "created", "creating"},
		{"delete", "deleted", "deleting", "deletes"},
		{"status", "statuses"},
		{"process", "processes"},
		{"cache", "caches", "caching"},
		{"test", "tests", "testing", "tested"},
		{"stop", "stops", "stopped", "stopping"},
		{"copy", "copies", "copied"},
		{"list", "lists", "listing", "listed"},
		{"tree", "trees"},
		{"http", "https"},
		{"log", "logs", "logging"},
		{"change", "changes", "changed"},
		{"install", "installs", "installed", "installing"},
	}
	seen := map[string]string{}
	for _, g := range groups {
		s := stem(g[0])
		for _, w := range g[1:] {
			if got := stem(w); got != s {
				t.Errorf("stem(%q) = %q, want %q (the stem of %q)", w, got, s, g[0])
			}
		}
		if prev, ok := seen[s]; ok {
			t.Errorf("%q and %q share stem %q", prev, g[0], s)
		}
		seen[s] = g[0]
	}
	// Words left alone.
	for _, w := range []string{"ps", "ls", "go", "git", "jj", "string", "ping", "need", "k8s", "größe", "class", "analysis"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"list running containers", []string{"list", "run", "container"}},
		{"show me the status of my repo", []string{"show", "status", "repo"}},
		{"the", []string{"the"}}, // nothing but stop words: keep them
		{"test tests testing", []string{"test"}},
	}
	for _, tt := range tests {
		var got []string
		for _, qt := range queryTerms(tt.in) {
			got = append(got, qt.term)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("queryTerms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// rankFixture builds an index of small in-memory configs.
func rankFixture(t testing.TB, configs ...*config.Config) *Index {
	t.Helper()
	ix, _, err := New(configs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func entryNames(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ToolName
	}
	return out
}

func fixtureTools(specs ...string) []config.Tool {
	var ts []config.Tool
	for _, s := range specs {
		name, desc, _ := strings.Cut(s, ": ")
		ts = append(ts, config.Tool{Name: name, Description: desc})
	}
	return ts
}

func TestRankOrder(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "vcs", Category: "vcs", Tags: []string{"version-control"}, Tools: fixtureTools(
			"vcs_log: Show the history",
			"vcs_branch: List, create or delete branches",
			"vcs_status: Show the working tree status",
			"vcs_diff: Show changes in the working tree",
		)},
		&config.Config{Name: "box", Category: "containers", Description: "Container runtime", Tools: fixtureTools(
			"box_ps: List running containers",
			"box_list_images: List images",
			"box_stop: Stop one or more running containers",
			"box_rm: Delete containers",
			"box_history: Show image layers",
		)},
		&config.Config{Name: "same", Tools: fixtureTools(
			"same_a: frobnicate the widget",
			"same_b: frobnicate the widget",
		)},
	)
	tests := []struct {
		name, query string
		want        []string // the first results, in order
	}{
		{"name beats description", "history", []string{"box_history", "vcs_log"}},
		{"more terms matched first", "list running containers", []string{"box_ps"}},
		{"all terms beat most", "stop running containers", []string{"box_stop", "box_ps"}},
		{"terms across tags", "version control", []string{"vcs_log", "vcs_branch", "vcs_status", "vcs_diff"}},
		{"word forms", "deleting a container", []string{"box_rm"}},
		{"synonym", "remove container", []string{"box_rm"}},
		{"CLI description, ties in load order", "runtime", []string{"box_ps", "box_list_images", "box_stop", "box_rm", "box_history"}},
		{"exact name first", "box_list_images", []string{"box_list_images"}},
		{"load order breaks ties", "frobnicate widget", []string{"same_a", "same_b"}},
		{"case-insensitive", "BOX_PS", []string{"box_ps"}},
		{"literal substring of a name", "x_sto", []string{"box_stop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := entryNames(ix.Search(tt.query, "", "", 20))
			if len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("Search(%q) = %q, want it to start with %q", tt.query, got, tt.want)
			}
		})
	}
}

// A synonym found in a tool's name scores with the rarity of the word the
// caller typed: a rare synonym must not outrank a common exact word.
func TestRankSynonymUsesQueryWordRarity(t *testing.T) {
	var tools []string
	for i := range 8 {
		tools = append(tools, fmt.Sprintf("scm_t%d: Work with a commit", i))
	}
	tools = append(tools, "scm_commit: Record a commit", "scm_rev_parse: Resolve a name to its commit hash")
	ix := rankFixture(t, &config.Config{Name: "scm", Tools: fixtureTools(tools...)})
	got := entryNames(ix.Search("commit", "", "", 3))
	if len(got) == 0 || got[0] != "scm_commit" {
		t.Errorf(`Search("commit") = %q, want scm_commit first ("rev" is only a synonym)`, got)
	}
}

// Results that score alike are spread over the CLIs instead of filling
// the list with the CLI loaded first.
func TestRankSpreadsTiesOverCLIs(t *testing.T) {
	mk := func(name string) *config.Config {
		var ts []string
		for i := range 6 {
			ts = append(ts, fmt.Sprintf("%s_t%d: Work on things", name, i))
		}
		return &config.Config{Name: name, Category: "vcs", Tools: fixtureTools(ts...)}
	}
	ix := rankFixture(t, mk("aa"), mk("bb"))
	got := entryNames(ix.Search("vcs", "", "", 4))
	want := []string{"aa_t0", "bb_t0", "aa_t1", "bb_t1"}
	if !slices.Equal(got, want) {
		t.Errorf(`Search("vcs") = %q, want %q`, got, want)
	}
	// A clear winner is not moved.
	ix = rankFixture(t, mk("aa"), &config.Config{Name: "bb", Category: "vcs", Tools: fixtureTools("bb_vcs_tool: The vcs tool")})
	if got := entryNames(ix.Search("vcs", "", "", 2)); got[0] != "bb_vcs_tool" {
		t.Errorf(`Search("vcs") = %q, want bb_vcs_tool first`, got)
	}
}

// Within a run of near-equal scores, the CLI whose own fields (name,
// tags, category, description) hold more whole words of the query comes
// first; a fraction of a word (a synonym, a word of the scene) changes
// nothing, and a clear winner is never moved.
func TestRankTiesPreferTheCLIThatFits(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "aa", Tools: fixtureTools("aa_t0: Work on things", "aa_t1: Work on things")},
		&config.Config{Name: "bb", Tools: fixtureTools("bb_t0: Work on things")},
	)
	r := ix.ranker()
	cands := func() []candidate {
		return []candidate{{score: 1, doc: 0}, {score: 0.99, doc: 1}, {score: 0.98, doc: 2}}
	}
	tests := []struct {
		fit  []float32 // by CLI: aa, bb
		want []int32
	}{
		{[]float32{0, 0}, []int32{0, 2, 1}},     // CLIs take turns, best first
		{[]float32{0, 1}, []int32{2, 0, 1}},     // bb's fields hold a query word
		{[]float32{1, 2.4}, []int32{2, 0, 1}},   // … one more
		{[]float32{0, 0.7}, []int32{0, 2, 1}},   // a word of the scene alone: not a whole word
		{[]float32{1.2, 1.9}, []int32{0, 2, 1}}, // as many whole words
	}
	for _, tt := range tests {
		var got []int32
		for _, c := range r.diversify(cands(), tt.fit, make([]uint8, 3)) {
			got = append(got, c.doc)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("diversify with CLI fit %v = %v, want %v", tt.fit, got, tt.want)
		}
	}
	clear := []candidate{{score: 2, doc: 0}, {score: 1, doc: 2}}
	if got := r.diversify(clear, []float32{0, 3}, make([]uint8, 3)); got[0].doc != 0 {
		t.Errorf("diversify moved a clear winner: %v", got)
	}
}

func TestRankFiltersAndLimits(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "a", Category: "one", Tools: fixtureTools("a_x: do things", "a_y: do other things")},
		&config.Config{Name: "b", Category: "two", Tools: fixtureTools("b_x: do things", "b_y: other")},
	)
	tests := []struct {
		query, category, cli string
		limit                int
		want                 []string
	}{
		{"", "", "", 10, []string{"a_x", "a_y", "b_x", "b_y"}},
		{"   ", "", "", 10, []string{"a_x", "a_y", "b_x", "b_y"}},
		{"", "TWO", "", 10, []string{"b_x", "b_y"}},
		{"", "", "A", 1, []string{"a_x"}},
		{"things", "", "", 10, []string{"a_x", "b_x", "a_y"}},
		{"things", "", "b", 10, []string{"b_x"}},
		{"things", "two", "a", 10, []string{}},
		{"things", "", "", 2, []string{"a_x", "b_x"}},
		{"things", "", "", 0, []string{}},
		{"nothing-like-this", "", "", 10, []string{}},
	}
	for _, tt := range tests {
		got := ix.Search(tt.query, tt.category, tt.cli, tt.limit)
		if got == nil || !slices.Equal(entryNames(got), tt.want) {
			t.Errorf("Search(%q, %q, %q, %d) = %q, want %q", tt.query, tt.category, tt.cli, tt.limit, entryNames(got), tt.want)
		}
	}
}

func TestRankSpecialCharacters(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "sp", Category: "c++", Tags: []string{"a.b*"}, Tools: fixtureTools(
		"sp_regex: match (a.b*) literally",
		"sp_plain: matches aXbb",
		"sp_nul: has a \x00 byte",
		"sp_utf: Größe ändern",
	)})
	tests := []struct {
		query string
		first string // "" for no result
	}{
		{"(a.b*)", "sp_regex"},
		{"(", "sp_regex"},
		{"c++", "sp_regex"},
		{"[", ""},
		{`\`, ""},
		{"\x00", "sp_nul"},
		{"GRÖSSE", ""},
		{"GRÖßE", "sp_utf"},
		{"*", "sp_regex"}, // the tag a.b*: every tool, in load order
		{"aXb", "sp_plain"},
	}
	for _, tt := range tests {
		got := entryNames(ix.Search(tt.query, "", "", 100))
		if tt.first == "" && len(got) > 0 || tt.first != "" && (len(got) == 0 || got[0] != tt.first) {
			t.Errorf("Search(%q) = %q, want first %q", tt.query, got, tt.first)
		}
		checkIncludesSubstringMatches(t, ix, tt.query)
	}
}

// substringMatches is the plain rule: tools whose name, description, CLI
// name, category or a tag contain query, case-insensitively.
func substringMatches(ix *Index, query string) []string {
	q := strings.ToLower(query)
	var out []string
	for _, rt := range ix.Tools() {
		fields := append([]string{rt.Tool.Name, rt.Tool.Description, rt.CLI.Name, rt.CLI.Category}, rt.CLI.Tags...)
		for _, f := range fields {
			if strings.Contains(strings.ToLower(f), q) {
				out = append(out, rt.Tool.Name)
				break
			}
		}
	}
	return out
}

func checkIncludesSubstringMatches(t *testing.T, ix *Index, query string) {
	t.Helper()
	got := entryNames(ix.Search(query, "", "", ix.Len()+1))
	for _, name := range substringMatches(ix, query) {
		if !slices.Contains(got, name) {
			t.Errorf("Search(%q) lacks %s, which contains the query", query, name)
		}
	}
	if len(got) != len(sortedUniq(got)) {
		t.Errorf("Search(%q) has duplicates: %q", query, got)
	}
}

func sortedUniq(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// compatIndex builds an index of the compatibility configs when present,
// else of a small fixture.
func compatIndex(t testing.TB) *Index {
	t.Helper()
	files, _ := filepath.Glob("/work/shared/compat/*.yaml")
	var configs []*config.Config
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := config.Parse(data, f)
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, c)
	}
	if len(configs) == 0 {
		configs = []*config.Config{
			{Name: "git-tools", Category: "vcs", Tags: []string{"version-control"}, Tools: fixtureTools(
				"git_status: Show the working tree status", "git_log: Show commit logs (history)")},
			{Name: "docker-tools", Category: "containers", Tags: []string{"devops"}, Tools: fixtureTools(
				"docker_ps: List running containers", "docker_image_ls: List images")},
		}
	}
	return rankFixture(t, configs...)
}

// TestRankIncludesSubstringMatches checks the inclusion rule for random
// substrings of the searchable fields (and random mutations of them).
func TestRankIncludesSubstringMatches(t *testing.T) {
	ix := compatIndex(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for _, rt := range ix.Tools() {
		texts = append(texts, rt.Tool.Name, rt.Tool.Description, rt.CLI.Name, rt.CLI.Category)
		texts = append(texts, rt.CLI.Tags...)
	}
	for range 300 {
		s := []rune(texts[rng.IntN(len(texts))])
		if len(s) == 0 {
			continue
		}
		i := rng.IntN(len(s))
		j := i + 1 + rng.IntN(min(len(s)-i, 12))
		q := string(s[i:j])
		if rng.IntN(3) == 0 {
			q = strings.ToUpper(q)
		}
		checkIncludesSubstringMatches(t, ix, q)
	}
}

func FuzzRankIncludesSubstringMatches(f *testing.F) {
	for _, q := range []string{"git", "list running", "a.b*", "(", "", " ", "\x00", "ß", "_st", "Status"} {
		f.Add(q)
	}
	ix := compatIndex(f)
	f.Fuzz(func(t *testing.T, q string) {
		checkIncludesSubstringMatches(t, ix, q)
	})
}

func TestRankConcurrent(t *testing.T) {
	ix := compatIndex(t)
	queries := []string{"list running containers", "version control", "git", "show changes", "(", "delete", ""}
	want := make([][]string, len(queries))
	for i, q := range queries {
		want[i] = entryNames(ix.Search(q, "", "", 10))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 50 {
				i := (g + n) % len(queries)
				if got := entryNames(ix.Search(queries[i], "", "", 10)); !slices.Equal(got, want[i]) {
					t.Errorf("concurrent Search(%q) = %q, want %q", queries[i], got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestRankEmptyIndex(t *testing.T) {
	ix := rankFixture(t)
	for _, q := range []string{"", "x", "list things"} {
		if got := ix.Search(q, "", "", 5); len(got) != 0 {
			t.Errorf("Search(%q) on an empty index = %v", q, got)
		}
	}
}

func TestOSADistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"commit", "commit", 0},
		{"comit", "commit", 1},
		{"tets", "test", 1}, // a transposition is one edit
		{"contianer", "container", 1},
		{"pritty", "pretty", 1},
		{"depolyment", "deployment", 1},
		{"deploymnet", "deployment", 1},
		{"postgress", "postgresql", 2},
		{"abcd", "wxyz", 3}, // more than k: k+1
	}
	for _, tt := range tests {
		if got := osaDistance(tt.a, tt.b, 2, nil); got != tt.want {
			t.Errorf("osaDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRankTypos(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: fixtureTools(
		"vcs_commit: Record changes as a commit",
		"vcs_status: Show the working tree status",
		"vcs_folder: Show a folder",
		"vcs_test: Run the tests",
		"vcs_comet: Show a comet",
	)})
	tests := []struct {
		query, first string // first == "": no result
	}{
		{"comit my changes", "vcs_commit"},
		{"stauts", "vcs_status"},
		{"Tets", "vcs_test"},
		{"comet", "vcs_comet"}, // an exact word is not corrected
		{"bolder", ""},         // nor is a word to another with a different first letter
		{"zzz-no-such-thing", ""},
	}
	for _, tt := range tests {
		got := entryNames(ix.Search(tt.query, "", "", 3))
		if tt.first == "" && len(got) > 0 || tt.first != "" && (len(got) == 0 || got[0] != tt.first) {
			t.Errorf("Search(%q) = %q, want first %q", tt.query, got, tt.first)
		}
	}
	ex := ix.Explain("comit", "", "", 1)
	if len(ex.Corrections) != 1 || ex.Corrections[0].Word != "comit" || !slices.Contains(ex.Corrections[0].Terms, "commit") {
		t.Errorf("Explain(comit).Corrections = %+v, want comit → commit", ex.Corrections)
	}
}

// A query of several words whose only overlap with a tool is a stop word
// does not find it.
func TestRankStopWordsAlone(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "x", Tools: fixtureTools(
		"x_a: Says no to the thing this is about",
		"x_b: Lists my files",
	)})
	for _, q := range []string{"zzz-no-such-thing", "the zzz", "is this my qqq", "no way"} {
		if got := entryNames(ix.Search(q, "", "", 5)); len(got) > 0 {
			t.Errorf("Search(%q) = %q, want nothing", q, got)
		}
	}
	if got := entryNames(ix.Search("files", "", "", 5)); !slices.Equal(got, []string{"x_b"}) {
		t.Errorf(`Search("files") = %q, want x_b`, got)
	}
}

// Keywords are searched, with their own weight, and a keyword phrase held
// whole by the query (a pasted error message) puts its tool first.
func TestRankKeywords(t *testing.T) {
	tools := fixtureTools(
		"box_rm: Delete a container",
		"box_run: Start a container from an image under a name",
		"box_logs: Print a container's logs",
	)
	tools[0].Keywords = []string{"name is already in use", "clean up"}
	tools[2].Keywords = []string{"why did it crash"}
	ix := rankFixture(t, &config.Config{Name: "box", Tools: tools})
	tests := []struct{ query, first string }{
		{"Error: Conflict. The container name \"/web\" is already in use by container 3f2a", "box_rm"},
		{"clean up", "box_rm"},
		{"the container crashed, why?", "box_logs"},
	}
	for _, tt := range tests {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want first %q", tt.query, got, tt.first)
		}
	}
	ex := ix.Explain("clean up", "", "", 1)
	if len(ex.Results) != 1 || len(ex.Results[0].Matches) == 0 || !slices.Contains(ex.Results[0].Matches[0].Fields, "keywords") {
		t.Errorf("Explain(clean up) = %+v, want a match in keywords", ex.Results)
	}
}

// How many tags or words of description a CLI has must not decide between
// two tools that match a query alike.
func TestRankCLIBalance(t *testing.T) {
	var bigTools []string
	for i := range 30 {
		bigTools = append(bigTools, fmt.Sprintf("big_t%d: Work on item %d", i, i))
	}
	bigTools = append(bigTools, "big_log: Show the commit history")
	big := &config.Config{Name: "big", Description: "A large version control system with many commands for branches, history and more",
		Tags: []string{"version-control", "commits", "branches", "history"}, Tools: fixtureTools(bigTools...)}
	small := &config.Config{Name: "small", Description: "Version control", Tags: []string{"version-control"},
		Tools: fixtureTools("small_t0: Work on items", "small_log: Show the commit history")}
	ix := rankFixture(t, big, small)
	for _, q := range []string{"version control commit history", "show the commit history"} {
		got := entryNames(ix.Search(q, "", "", 2))
		if !slices.Equal(got, []string{"big_log", "small_log"}) {
			t.Errorf("Search(%q) = %q, want big_log then small_log (a tie, in load order)", q, got)
		}
	}
}

func TestQueryCaps(t *testing.T) {
	var words []string
	for i := range 100 {
		words = append(words, fmt.Sprintf("w%c%c", 'a'+i/26, 'a'+i%26))
	}
	if got := queryTerms(strings.Join(words, " ")); len(got) != MaxQueryTerms {
		t.Errorf("queryTerms of 100 words gives %d terms, want %d", len(got), MaxQueryTerms)
	}
	long := strings.Repeat("x", MaxQueryBytes) + " container"
	if got := queryTerms(long); len(got) != 1 || got[0].term == "container" {
		t.Errorf("queryTerms(%d x's + container) = %v, want the x's only", MaxQueryBytes, got)
	}
}

// A huge query is answered without memory in proportion to its size.
func TestRankHugeQuery(t *testing.T) {
	ix := compatIndex(t)
	q := strings.Repeat("a b ", 1<<20) // 4 MiB
	ix.Search("warm up", "", "", 5)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix.Search(q, "", "", 5)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("a 4 MiB query allocated %d bytes, want less than 1 MiB", n)
	}
}

func TestExplainMatchesSearch(t *testing.T) {
	ix := compatIndex(t)
	for _, q := range []string{"list running containers", "git", "undo my last commit", "(", "", "comit"} {
		want := entryNames(ix.Search(q, "", "", 5))
		ex := ix.Explain(q, "", "", 5)
		var got []string
		for _, r := range ex.Results {
			got = append(got, r.Entry.ToolName)
		}
		if !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Explain(%q) lists %q, Search %q", q, got, want)
		}
		for _, r := range ex.Results {
			if q != "" && len(r.Matches) == 0 && r.Literal == "" {
				t.Errorf("Explain(%q): %s has neither matches nor a literal match", q, r.Entry.ToolName)
			}
		}
	}
}

func TestLastClause(t *testing.T) {
	tests := []struct{ in, want string }{
		{"list running containers", "list running containers"},
		{"the image is built; push it to the registry", " push it to the registry"},
		{"after the deploy, the pods crash: show their logs.", " show their logs."},
		{"what's in release.tar.gz?", "what's in release.tar.gz?"},           // no space after the dots
		{"error: pathspec 'x' did not match", " pathspec 'x' did not match"}, // pasted messages too
		{"why?", "why?"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := tt.in[lastClause(tt.in):]; got != tt.want {
			t.Errorf("last clause of %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Words before the last clause of a query set the scene: they weigh less
// than those of the request, unless the last clause has none that count.
func TestQueryTermsClauseWeights(t *testing.T) {
	weights := func(q string) map[string]float32 {
		m := map[string]float32{}
		for _, t := range queryTerms(q) {
			m[t.raw] = t.w
		}
		return m
	}
	w := weights("the image is built; push image to the registry")
	if w["built"] != contextWeight || w["push"] != 1 || w["registry"] != 1 {
		t.Errorf("weights %v: want %v for the first clause, 1 for the last", w, contextWeight)
	}
	if w["image"] != 1 {
		t.Errorf("weights %v: a word in both clauses weighs as in the last", w)
	}
	if w := weights("restart the pods, please!"); w["restart"] != 1 || w["pods"] != 1 {
		t.Errorf("weights %v: a last clause of stop words only leaves every word at 1", w)
	}
}

// A long keyword (an error message) is found when the query holds most of
// its words with others in between, as pasted text does; a keyword of two
// words is not found that way, and neither is one whose words the query
// holds too few of.
func TestRankLooseKeywords(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: []config.Tool{
		{Name: "vcs_other", Description: "Show local files that changed"},
		{Name: "vcs_shelve", Description: "Put work aside", Keywords: []string{"your local changes would be overwritten by merge"}},
		{Name: "vcs_pair", Description: "Something", Keywords: []string{"local overwritten"}},
	}})
	got := entryNames(ix.Search("error: Your local changes to the following files would be overwritten by merge", "", "", 3))
	if len(got) == 0 || got[0] != "vcs_shelve" {
		t.Errorf("Search(pasted message) = %q, want vcs_shelve first", got)
	}
	ex := ix.Explain("local changes to be overwritten by the merge", "", "", 3)
	for _, r := range ex.Results {
		switch r.Entry.ToolName {
		case "vcs_shelve":
			if r.Keyword != "your local changes would be overwritten by merge" || r.KeywordScore == 0 {
				t.Errorf("vcs_shelve: keyword %q (%v), want the message as written, with a bonus", r.Keyword, r.KeywordScore)
			}
		case "vcs_pair":
			if r.Keyword != "" {
				t.Errorf("vcs_pair: keyword %q matched loosely: two-word keywords only match whole", r.Keyword)
			}
		}
	}
	ex = ix.Explain("merge changes", "", "", 3)
	for _, r := range ex.Results {
		if r.Keyword != "" {
			t.Errorf("%s: keyword %q matched by two of its six words", r.Entry.ToolName, r.Keyword)
		}
	}
	// The same words out of the message's order are a sentence, not the
	// message.
	ex = ix.Explain("merge overwritten files, would your local changes", "", "", 3)
	for _, r := range ex.Results {
		if r.Entry.ToolName == "vcs_shelve" && r.Keyword != "" {
			t.Errorf("vcs_shelve: keyword %q matched with its words out of order", r.Keyword)
		}
	}
}

func TestInOrder(t *testing.T) {
	for _, tc := range []struct {
		kw, query []int32
		want      int
	}{
		{[]int32{1, 2, 3}, []int32{1, 2, 3}, 3},
		{[]int32{1, 2, 3}, []int32{1, 9, 2, -1, 3}, 3},
		{[]int32{1, 2, 3}, []int32{3, 2, 1}, 1},
		{[]int32{1, 2, 3, 4}, []int32{2, 1, 3, 4}, 3},
		{[]int32{1, 2}, nil, 0},
	} {
		if got := inOrder(tc.kw, tc.query); got != tc.want {
			t.Errorf("inOrder(%v, %v) = %d, want %d", tc.kw, tc.query, got, tc.want)
		}
	}
}

// FuzzTokenize checks the tokenizer's fast path for ASCII against what
// tokens must be: lowercase runs of letters and digits that, joined, are
// the letters and digits of the input in order.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"dockerPs", "HTTPServer", "k8s_pods", "Größe-Wert", "a.b/c:d", "ÉtéABC", "\xff\xfeA"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var joined strings.Builder
		tokenize(s, func(tok []byte) {
			if len(tok) == 0 {
				t.Fatalf("tokenize(%q): empty token", s)
			}
			for _, r := range string(tok) {
				if !isAlnum(r) || unicode.IsUpper(r) && unicode.ToLower(r) != r {
					t.Fatalf("tokenize(%q): token %q holds %q", s, tok, r)
				}
			}
			joined.Write(tok)
		})
		var want strings.Builder
		for _, r := range s {
			if isAlnum(r) {
				want.WriteRune(unicode.ToLower(r))
			}
		}
		if joined.String() != want.String() {
			t.Errorf("tokenize(%q) joined = %q, want %q", s, joined.String(), want.String())
		}
	})
}

// A word naming a loaded program counts fully even in the label of a
// pasted message ("tar: …"), where words before the last clause otherwise
// count as context.
func TestProgramNameInALabelCounts(t *testing.T) {
	bundled := os.DirFS("../configs")
	names, err := config.BundledNames(bundled)
	if err != nil || len(names) == 0 {
		t.Skip("no bundled configs")
	}
	var cfgs []*config.Config
	for _, n := range names {
		c, err := config.LoadFS(bundled, n+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		cfgs = append(cfgs, c)
	}
	ix, _, err := New(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for query, cli := range map[string]string{
		"tar: Error is not recoverable: exiting now":            "tar",
		"rg: regex parse error":                                 "rg",
		"jq: error: syntax error, unexpected INVALID_CHARACTER": "jq",
	} {
		got := ix.Search(query, "", "", 3)
		if len(got) == 0 {
			t.Errorf("%q: no results, want a %s tool first", query, cli)
		} else if got[0].CLIName != cli {
			t.Errorf("%q: first result %s, want a %s tool", query, got[0].ToolName, cli)
		}
	}
}

// A short word the index lacks stands for a word of a tool's name that it
// abbreviates, in names only, unless it fits too many.
func TestRankAbbreviations(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: fixtureTools(
		"vcs_worktree_list: List the linked working trees",
		"vcs_wait: Wait for a condition",
		"vcs_duplicate: Copy a change",
		"vcs_history: Show the log of a file",
		"vcs_network_list: List networks",
		"vcs_status: Show the status of the network",
	)})
	tests := []struct {
		query, first string // first == "": no result
	}{
		{"wt ls", "vcs_worktree_list"},
		{"dup", "vcs_duplicate"},
		{"hist", "vcs_history"},
		{"xq", ""},
	}
	for _, tt := range tests {
		got := entryNames(ix.Search(tt.query, "", "", 3))
		if tt.first == "" && len(got) > 0 || tt.first != "" && (len(got) == 0 || got[0] != tt.first) {
			t.Errorf("Search(%q) = %q, want first %q", tt.query, got, tt.first)
		}
	}
	// An abbreviation stands for a word of names: a tool with the word
	// only in its description is not found through it.
	if got := entryNames(ix.Search("nwk", "", "", 3)); !slices.Equal(got, []string{"vcs_network_list"}) {
		t.Errorf("Search(nwk) = %q, want only vcs_network_list", got)
	}
}

func TestAbbrevLookup(t *testing.T) {
	var ai abbrevIndex
	for i, w := range []string{"worktree", "wait", "watch", "bookmark", "branch", "blame", "block", "ls", "k8s"} {
		ai.add(w, int32(i))
	}
	words := []string{"worktree", "wait", "watch", "bookmark", "branch", "blame", "block", "ls", "k8s"}
	tests := []struct {
		q    string
		want []string
	}{
		{"wt", []string{"worktree", "wait", "watch"}},
		{"wrk", []string{"worktree"}},
		// From three letters, one letter longer is enough: a dropped
		// vowel ("blm" for blame; "wat" for wait and watch).
		{"blm", []string{"blame"}},
		{"wat", []string{"wait", "watch"}},
		{"bk", []string{"bookmark", "block"}},
		{"b", nil}, // too short
		{"bl", []string{"blame", "block"}},
		{"bookmarks", nil}, // too long to be an abbreviation
		{"tw", nil},        // first letters differ
		{"w8", nil},        // not all letters
	}
	for _, tt := range tests {
		terms, n := ai.lookup(tt.q)
		var got []string
		for _, id := range terms[:n] {
			got = append(got, words[id])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("lookup(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
	for i, w := range []string{"wart", "warrant", "weight", "west", "wheat", "whist"} {
		ai.add(w, int32(10+i))
	}
	if _, n := ai.lookup("wt"); n != 0 {
		t.Errorf("lookup(wt) fits nine words and should give none, got %d", n)
	}

	// Among more than maxAbbrevTerms words, those that begin with the
	// abbreviation count, when few enough do: with many tools loaded,
	// "pul" still finds pull.
	var many abbrevIndex
	names := []string{"public", "pull", "publish", "populate", "pulumi", "plural", "plugin", "purple", "purl", "pupil"}
	for i, w := range names {
		many.add(w, int32(i))
	}
	terms, n := many.lookup("pul")
	var got []string
	for _, id := range terms[:n] {
		got = append(got, names[id])
	}
	if want := []string{"pull", "pulumi"}; !slices.Equal(got, want) {
		t.Errorf("lookup(pul) = %q, want %q", got, want)
	}
	for _, w := range []string{"pulse", "pulley", "pulp", "pulsar", "pulpit", "pullover", "pulmonary"} {
		many.add(w, int32(len(names)))
		names = append(names, w)
	}
	if _, n := many.lookup("pul"); n != 0 {
		t.Errorf("lookup(pul) begins nine words and should give none, got %d", n)
	}
}

// A CLI's name at the start of its tools' names is one use of the word,
// like the CLI's name field: its rarity does not depend on how many tools
// the CLI has, so naming the program in a query counts the same whether
// it has two tools or forty.
func TestCLINameRarity(t *testing.T) {
	rarity := func(tools int) float32 {
		vcs, other := &config.Config{Name: "vcs"}, &config.Config{Name: "box"}
		for i := range tools {
			vcs.Tools = append(vcs.Tools, config.Tool{Name: fmt.Sprintf("vcs_op%d", i), Description: "Do something"})
		}
		for i := range 60 - tools {
			other.Tools = append(other.Tools, config.Tool{Name: fmt.Sprintf("box_cmd%d", i), Description: "Run a container"})
		}
		r := rankFixture(t, vcs, other).ranker()
		return r.idf[r.termID["vcs"]]
	}
	if few, many := rarity(2), rarity(40); few != many {
		t.Errorf("idf of a CLI's name: %v with 2 tools, %v with 40; want equal", few, many)
	}
}

// A query's options match the tools that pass them: exactly, and a short
// flag also as the long flags that begin with its letter; combined short
// flags stand for each letter.
func TestRankFlags(t *testing.T) {
	// Each pair has the same words; the second, which would lose the tie
	// by load order, passes the query's option.
	tools := []config.Tool{
		{Name: "vcs_go", Description: "Switch to a branch", Command: "switch --detach"},
		{Name: "vcs_go_new", Description: "Switch to a branch", Command: "switch --create"},
		{Name: "vcs_purge_quiet", Description: "Purge untracked files", Command: "clean --quiet"},
		{Name: "vcs_purge_force", Description: "Purge untracked files", Command: "clean --force",
			Args: []config.Arg{{Name: "directories", Type: "boolean", Flag: "-d"}}},
		{Name: "vcs_make_rules", Description: "Make a target", Command: "make --no-builtin-rules", Keywords: []string{"vcs make all"}},
		{Name: "vcs_make_preview", Description: "Make a target", Command: "make --quiet-builtin-rules", Keywords: []string{"vcs make -n"}},
	}
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: tools})
	for _, tt := range []struct{ query, first string }{
		{"switch branch -c topic", "vcs_go_new"},          // -c for --create
		{"purge untracked files -fdx", "vcs_purge_force"}, // -d of -fdx, exactly
		{"make target -n", "vcs_make_preview"},            // a keyword's option beats a long flag's letter
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
}

func TestEachFlag(t *testing.T) {
	var got []string
	eachFlag(`git tag -l 'v1.*' --sort=-v:refname -N1 x-y - -- -1k --9`, func(f string) { got = append(got, f) })
	if want := []string{"-l", "--sort", "-n1"}; !slices.Equal(got, want) {
		t.Errorf("eachFlag = %q, want %q", got, want)
	}
}

// A query that is a tool's name with spaces or dashes for its
// separators ("npm audit") ranks that tool first, as the name itself
// does.
func TestRankSameName(t *testing.T) {
	tools := []config.Tool{
		{Name: "vcs_audit_fix", Description: "Audit the packages and fix them", Keywords: []string{"vcs audit", "audit fix"}},
		{Name: "vcs_audit", Description: "Audit the packages for known vulnerabilities"},
	}
	for i := range 20 {
		tools = append(tools, config.Tool{Name: fmt.Sprintf("box_op%d", i), Description: "Run a container"})
	}
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: tools})
	for _, q := range []string{"vcs audit", "VCS-audit"} {
		if got := entryNames(ix.Search(q, "", "", 2)); len(got) == 0 || got[0] != "vcs_audit" {
			t.Errorf("Search(%q) = %q, want vcs_audit first", q, got)
		}
	}
	for _, tt := range []struct {
		name, q string
		want    bool
	}{
		{"npm_audit", "npm audit", true},
		{"npm_audit", "npm-audit", true},
		{"npm_audit", "npm audits", false},
		{"npm_audit", "npmaaudit", false},
		{"git_log", "git  log", false},
		{"x", "", false},
	} {
		if got := sameName(tt.name, tt.q); got != tt.want {
			t.Errorf("sameName(%q, %q) = %v, want %v", tt.name, tt.q, got, tt.want)
		}
	}
}

// The word that opens a step of a plan ("First", "Next", "Finally")
// says when, not what.
func TestRankStepMarker(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Tools: fixtureTools(
		"vcs_tag_list: List the tags",
		"vcs_tag_next: Move to the next tag",
		"vcs_log_first: Show the first commit",
		"vcs_log: Show the commit history",
	)})
	for _, tt := range []struct{ query, first string }{
		{"Next list the tags", "vcs_tag_list"},
		{"First I need to see the commit history", "vcs_log"},
		{"the next tag", "vcs_tag_next"}, // not at the start: a word like any other
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 2)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
}

// The options in a tool's command and their values ("run --rm
// --entrypoint sh") are not its subcommand: they count as the tool's
// words, but not as words of its name, so a query word that is only an
// option's ("rm") does not lift the tool over one named for the task.
func TestRankCommandOptionsAreNotItsName(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "box", Tools: []config.Tool{
		{Name: "box_run", Description: "Run a command in a new container of an image", Command: "run --rm --entrypoint sh", Keywords: []string{"box run --rm"}},
		{Name: "box_rmi", Description: "Remove images", Keywords: []string{"rm"}},
		{Name: "box_ps", Description: "List containers"},
		{Name: "box_pull", Description: "Pull an image"},
	}})
	if got := entryNames(ix.Search("rm image", "", "", 2)); len(got) == 0 || got[0] != "box_rmi" {
		t.Errorf(`Search("rm image") = %q, want box_rmi first`, got)
	}
	for _, tt := range []struct{ cmd, sub, opts string }{
		{"run --rm --entrypoint sh", "run", "--rm --entrypoint sh"},
		{"-c core.hooksPath=/dev/null reflog show", "reflog show", "-c core.hooksPath=/dev/null"},
		{"logs tail --format short", "logs tail", "--format short"},
		{"branch --list -vv", "branch", "--list -vv"},
		{"config get-contexts", "config get-contexts", ""},
	} {
		if sub, opts := splitCommand(tt.cmd); sub != tt.sub || opts != tt.opts {
			t.Errorf("splitCommand(%q) = %q, %q, want %q, %q", tt.cmd, sub, opts, tt.sub, tt.opts)
		}
	}
}

// A query that opens with a tool's command line, its program's name and
// subcommand, names that tool; further on the same words are prose.
func TestRankCommandLine(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Command: "vcs", Tools: []config.Tool{
		{Name: "vcs_checkout", Description: "Switch branches or restore files", Command: "checkout", Keywords: []string{"head"}},
		{Name: "vcs_restore", Description: "Restore files in the working tree", Command: "restore"},
		{Name: "vcs_log", Description: "Show the commit history", Command: "log"},
		{Name: "vcs_status", Description: "Show the working tree status", Command: "status"},
	}})
	for _, tt := range []struct{ query, first string }{
		{"vcs restore a file at head", "vcs_restore"},
		{"restore a file at head with vcs", "vcs_checkout"}, // not an opening command line
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
	for _, tt := range []struct {
		query string
		want  bool // vcs_restore is flagged, and no other tool
	}{
		{"vcs restore a file", true},
		{"restore a file at head as in vcs restore", false},
		{"vcs", false}, // the program alone names none of its tools
	} {
		for _, r := range ix.Explain(tt.query, "", "", 4).Results {
			if want := tt.want && r.Entry.ToolName == "vcs_restore"; r.CommandLine != want {
				t.Errorf("Explain(%q): %s has CommandLine %v, want %v", tt.query, r.Entry.ToolName, r.CommandLine, want)
			}
		}
	}
}

// Among scores within 10 % of the best, the first place goes to the
// best tool of the program whose own fields hold the most whole query
// words, and pages still concatenate to the same order.
func TestRankFirstPlaceByCLIFit(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "kube", Description: "Manage deployments in a cluster", Command: "kube", Tools: []config.Tool{
			{Name: "kube_rollout_undo", Description: "Undo a deployment rollout", Keywords: []string{"rollback"}, Command: "rollout undo"},
			{Name: "kube_get", Description: "List resources", Command: "get"},
		}},
		&config.Config{Name: "sls", Description: "Serverless framework", Command: "sls", Tools: []config.Tool{
			// Scores about 8 % more than kube_rollout_undo.
			{Name: "sls_revert", Description: "Rollback to an earlier deployment; rollback", Keywords: []string{"rollback"}},
			{Name: "sls_deploy", Description: "Deploy the service", Command: "deploy"},
		}},
	)
	const q = "rollback deployment"
	all := entryNames(ix.Search(q, "", "", 10))
	if want := []string{"kube_rollout_undo", "sls_revert"}; len(all) < 2 || !slices.Equal(all[:2], want) {
		t.Errorf("Search(%q) = %q, want it to start with %q", q, all, want)
	}
	var paged []string
	for off := range len(all) {
		paged = append(paged, entryNames(ix.SearchPage(q, SearchOptions{Offset: off, Limit: 1}).Results)...)
	}
	if !slices.Equal(paged, all) {
		t.Errorf("pages of 1 of %q = %q, want %q", q, paged, all)
	}
}

// Among near-equal tools of one program, the first place goes to the one
// the query names whole: "revert commit" is vcs_revert, not
// vcs_revert_abort, whose name holds a word the query does not.
func TestRankFirstPlaceByNameLeftOut(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "vcs", Command: "vcs", Tools: []config.Tool{
		// Scores a little more than vcs_revert.
		{Name: "vcs_revert_abort", Description: "Abort the revert of a commit, revert", Command: "revert --abort"},
		{Name: "vcs_revert", Description: "Make a commit that reverts another commit, as a new change", Command: "revert"},
		{Name: "vcs_log", Description: "Show the commit history", Command: "log"},
	}})
	if got := entryNames(ix.Search("revert commit", "", "", 3)); len(got) < 2 || got[0] != "vcs_revert" || got[1] != "vcs_revert_abort" {
		t.Errorf(`Search("revert commit") = %q, want vcs_revert, vcs_revert_abort first`, got)
	}
}

func TestIsFileName(t *testing.T) {
	for _, s := range []string{"go.mod", "package.json", "Cargo.toml", "docker-compose.yml", "src/lib.rs", ".gitignore", "(resp.json)", "build.zip,", "config.toml."} {
		if !isFileName(s) {
			t.Errorf("isFileName(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"v1.2", "1.22", "github.com/google/uuid", "net/http.Client", "./...", "end.", "e.g.", "deploy", "a.verylongext", "x.y"} {
		if isFileName(s) {
			t.Errorf("isFileName(%q) = true, want false", s)
		}
	}
}

// A file's name in a query names what a step acts on, not the action: its
// words weigh as the scene does and do not count towards the name factor,
// so that the project file a query mentions as context does not pick the
// tool named after it.
func TestRankFileNameIsTheObject(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "go", Description: "Build and test Go code", Tools: []config.Tool{
		{Name: "go_test", Description: "Run the tests of packages", Command: "test"},
		{Name: "go_mod_init", Description: "Create a go.mod file for a new module at the project root", Command: "mod init"},
		{Name: "go_mod_tidy", Description: "Add missing and remove unused modules in go.mod", Command: "mod tidy"},
		{Name: "go_build", Description: "Compile packages"},
		{Name: "go_vet", Description: "Report suspicious code in packages"},
	}}, &config.Config{Name: "npm", Tools: []config.Tool{
		{Name: "npm_test", Description: "Run the test script of the project"},
		{Name: "npm_install", Description: "Install the dependencies of the project"},
	}})
	if got := entryNames(ix.Search("run the tests of this project (it has a go.mod)", "", "", 3)); len(got) == 0 || got[0] != "go_test" {
		t.Errorf("Search(run the tests … go.mod) = %q, want go_test first", got)
	}
	// The words of a file's name form no phrase with each other: "go.mod"
	// is no "go mod" for go_mod_init's name.
	for _, r := range ix.Explain("run the tests of this project (it has a go.mod)", "", "", 5).Results {
		if r.Entry.ToolName == "go_mod_init" && slices.Contains(r.Phrases, "go mod") {
			t.Errorf("go_mod_init: phrases %q, want none from the file's name", r.Phrases)
		}
	}
	// A query of a file's name alone is about that file.
	if got := entryNames(ix.Search("go.mod", "", "", 3)); len(got) == 0 || !strings.HasPrefix(got[0], "go_mod_") {
		t.Errorf(`Search("go.mod") = %q, want a go_mod_ tool first`, got)
	}
	w := map[string]queryTerm{}
	for _, qt := range queryTerms("tidy the deps in go.mod") {
		w[qt.raw] = qt
	}
	if !w["mod"].inFile || w["mod"].w != contextWeight || w["tidy"].inFile || w["tidy"].w != 1 {
		t.Errorf("queryTerms: mod %+v, tidy %+v: want mod in a file name at %v, tidy at 1", w["mod"], w["tidy"], contextWeight)
	}
}

// The words after "without", "instead of" or "rather than" say what must
// not happen: a tool that does it is not the one asked for.
func TestRankAvoidedWords(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "pkg", Tools: []config.Tool{
			{Name: "pkg_version", Description: "Bump the package version", Keywords: []string{"bump version"}},
			{Name: "pkg_publish", Description: "Publish the package to the registry"},
		}},
		&config.Config{Name: "vcs", Tools: []config.Tool{
			{Name: "vcs_tag_create", Description: "Create a tag", Keywords: []string{"create release tag"}},
			{Name: "vcs_log", Description: "Show the history"},
		}})
	q := "bump the version for the release without creating a tag"
	if got := entryNames(ix.Search(q, "", "", 2)); len(got) == 0 || got[0] != "pkg_version" {
		t.Errorf("Search(%q) = %q, want pkg_version first", q, got)
	}
	w := map[string]float32{}
	terms := queryTerms("tag the release instead of making a new tag, rather than a branch; keep the history")
	avoided(terms, "tag the release instead of making a new tag, rather than a branch; keep the history")
	for _, qt := range terms {
		w[qt.raw] = qt.w
	}
	if w["making"] != contextWeight*avoidWeight || w["branch"] != contextWeight*avoidWeight || w["tag"] != contextWeight || w["history"] != 1 {
		t.Errorf("weights %v: want the words after instead of / rather than lowered, tag (also used before) not", w)
	}
}

// A keyword of three words (stop words aside) is a task phrase: it counts
// when the query holds its words one after the other, stop words aside,
// not when a sentence holds them apart.
func TestRankShortKeywordNotLoose(t *testing.T) {
	ix := rankFixture(t, &config.Config{Name: "box", Tools: []config.Tool{
		{Name: "box_tag", Description: "Tag an image", Keywords: []string{"tag an image for a registry"}},
		{Name: "box_push", Description: "Push an image", Keywords: []string{"ship image", "upload an image to a registry"}},
		{Name: "box_ps", Description: "List containers"},
	}})
	ex := ix.Explain("ship the already-tagged image up to the container registry", "", "", 3)
	for _, r := range ex.Results {
		if r.Entry.ToolName == "box_tag" && r.Keyword != "" {
			t.Errorf("box_tag: keyword %q matched with other words between its three", r.Keyword)
		}
	}
	// Held one after the other, stop words aside, it counts.
	for _, q := range []string{"tag an image for a registry", "tag image registry", "please tag the image for the registry now"} {
		ex = ix.Explain(q, "", "", 1)
		if len(ex.Results) == 0 || ex.Results[0].Entry.ToolName != "box_tag" || ex.Results[0].KeywordScore == 0 {
			t.Errorf("Explain(%q): want box_tag first with its keyword's bonus, got %+v", q, ex.Results)
		}
	}
}
