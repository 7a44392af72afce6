package index

import (
	"fmt"
	"slices"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// pagingFixture has many tools that tie on "list", spread over three
// CLIs, so that pages cut through runs that diversify reorders.
func pagingFixture(t *testing.T) *Index {
	var cfgs []*config.Config
	for c := range 3 {
		var specs []string
		for i := range 25 {
			specs = append(specs, fmt.Sprintf("cli%d_t%d: List the items of kind %d", c, i, i%4))
		}
		specs = append(specs, fmt.Sprintf("cli%d_list: List items", c))
		cfgs = append(cfgs, &config.Config{Name: fmt.Sprintf("cli%d", c), Tools: fixtureTools(specs...)})
	}
	return rankFixture(t, cfgs...)
}

// Consecutive pages give the order of one large page: no tool repeated or
// skipped, whatever the page size, and the same total on every page.
func TestSearchPageConsecutive(t *testing.T) {
	ix := pagingFixture(t)
	for _, query := range []string{"list items", "", "kind"} {
		all := ix.SearchPage(query, SearchOptions{Limit: 1000})
		if all.Total != len(all.Results) || all.Total == 0 {
			t.Fatalf("%q: Total %d, %d results", query, all.Total, len(all.Results))
		}
		for _, size := range []int{1, 3, 7, 10, 50} {
			var got []string
			for off := 0; off < all.Total+size; off += size {
				p := ix.SearchPage(query, SearchOptions{Offset: off, Limit: size})
				if p.Total != all.Total {
					t.Errorf("%q offset %d: Total %d, want %d", query, off, p.Total, all.Total)
				}
				if want := min(size, max(all.Total-off, 0)); len(p.Results) != want {
					t.Errorf("%q offset %d limit %d: %d results, want %d", query, off, size, len(p.Results), want)
				}
				got = append(got, entryNames(p.Results)...)
			}
			if want := entryNames(all.Results); !slices.Equal(got, want) {
				t.Errorf("%q in pages of %d:\n got %q\nwant %q", query, size, got, want)
			}
		}
	}
}

func TestSearchPageBounds(t *testing.T) {
	ix := pagingFixture(t)
	all := ix.SearchPage("list items", SearchOptions{Limit: 5})
	for _, opts := range []SearchOptions{
		{Offset: all.Total, Limit: 5},
		{Offset: all.Total + 100, Limit: 5},
		{Limit: 0},
		{Offset: 3, Limit: -1},
	} {
		p := ix.SearchPage("list items", opts)
		if p.Results == nil || len(p.Results) != 0 || p.Total != all.Total {
			t.Errorf("%+v: %d results (nil %v), total %d; want none of %d", opts, len(p.Results), p.Results == nil, p.Total, all.Total)
		}
	}
	// A negative offset counts as none.
	if p := ix.SearchPage("list items", SearchOptions{Offset: -4, Limit: 5}); !slices.Equal(entryNames(p.Results), entryNames(all.Results)) {
		t.Errorf("offset -4: %q, want %q", entryNames(p.Results), entryNames(all.Results))
	}
	// Filters count in the total.
	if p := ix.SearchPage("list items", SearchOptions{CLI: "CLI1", Limit: 1}); p.Total != all.Total/3 {
		t.Errorf("cli filter: total %d, want %d", p.Total, all.Total/3)
	}
	if p := ix.SearchPage("", SearchOptions{Category: "none", Limit: 1}); p.Total != 0 {
		t.Errorf("unknown category: total %d", p.Total)
	}
}

// projectFixture has two build tools that match "build the project"
// alike, one of a program that also describes "projects".
func projectFixture(t *testing.T) *Index {
	return rankFixture(t,
		&config.Config{Name: "docker", Command: "docker", Tools: fixtureTools(
			"docker_compose_build: Build the images of a Compose project",
			"docker_ps: List containers")},
		&config.Config{Name: "golang", Command: "/usr/local/go/bin/go -C .", Tools: fixtureTools(
			"go_build: Build packages",
			"go_list: List packages")},
	)
}

func TestSearchPageProject(t *testing.T) {
	ix := projectFixture(t)
	first := func(query string, p *Project) string {
		r := ix.SearchPage(query, SearchOptions{Limit: 5, Project: p}).Results
		if len(r) == 0 {
			return ""
		}
		return r[0].ToolName
	}
	goProject := &Project{Uses: []string{"go"}, Lacks: []string{"docker"}}
	for _, tt := range []struct {
		query string
		p     *Project
		want  string
	}{
		{"build the project", nil, "docker_compose_build"},
		{"build the project", &Project{}, "docker_compose_build"},
		{"build the project", goProject, "go_build"},
		// Programs are matched by the base name of the command, in any case.
		{"build the project", &Project{Uses: []string{"GO"}, Lacks: []string{"Docker"}}, "go_build"},
		{"build the project", &Project{Uses: []string{"docker"}, Lacks: []string{"go"}}, "docker_compose_build"},
		// A query that names a program is not overruled.
		{"docker build the project", goProject, "docker_compose_build"},
		// The hint orders matches; it finds nothing that does not match.
		{"containers", goProject, "docker_ps"},
	} {
		if got := first(tt.query, tt.p); got != tt.want {
			t.Errorf("%q with %+v: first %s, want %s", tt.query, tt.p, got, tt.want)
		}
	}
	if r := ix.SearchPage("containers", SearchOptions{Limit: 5, Project: goProject}); r.Total != 1 {
		t.Errorf("containers in a go project: total %d, want 1", r.Total)
	}
}

func TestProgramName(t *testing.T) {
	for in, want := range map[string]string{
		"git --no-pager":        "git",
		"/usr/bin/docker":       "docker",
		`C:\Go\bin\go.exe -C x`: "go",
		"  Kubectl  ":           "kubectl",
		"":                      "",
		"python -m app":         "python",
	} {
		if got := ProgramName(in); got != want {
			t.Errorf("ProgramName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A word a CLI describes itself with is as rare as the tools that use it
// themselves: "history" in git's own description must not make git_log's
// "history" common.
func TestRarityCountsCLIFieldsOnce(t *testing.T) {
	var tools []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf("vc_t%d: Work on item %d", i, i))
	}
	tools = append(tools, "vc_log: Show the commit history", "vc_commit: Record a commit of the files")
	vc := &config.Config{Name: "vc", Description: "Version control: history, commits, files", Tags: []string{"history"}, Tools: fixtureTools(tools...)}
	other := &config.Config{Name: "other", Tools: fixtureTools("other_files: List the files of a directory")}
	ix := rankFixture(t, vc, other)
	r := ix.ranker()
	if got, want := r.idf[r.termID["history"]], float32(idf(r.n, 2)); got != want {
		t.Errorf("idf(history) = %v, want %v (vc_log and vc's fields: 2 uses)", got, want)
	}
	if got := entryNames(ix.Search("history of the files", "", "", 3)); len(got) == 0 || got[0] != "vc_log" {
		t.Errorf("Search(history of the files) = %q, want vc_log first", got)
	}
}

// A query that picks one program over another ("docker, not k8s") is not
// about the other's tools; "not" in an error message rules nothing out.
func TestRankNegatedProgram(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "kubectl", Tags: []string{"kubernetes", "k8s"}, Tools: fixtureTools(
			"kubectl_logs: Print the logs of a pod",
			"kubectl_exec: Run a command in a pod")},
		&config.Config{Name: "docker", Tags: []string{"containers"}, Tools: fixtureTools(
			"docker_logs: Print the logs of a container",
			"docker_exec: Run a command in a container")},
		&config.Config{Name: "cargo", Tags: []string{"compile"}, Tools: fixtureTools(
			"cargo_build: Compile the crate")},
		&config.Config{Name: "go", Tags: []string{"golang"}, Tools: fixtureTools(
			"go_fmt: Format the package's source files in place")},
		&config.Config{Name: "gofmt", Tags: []string{"golang", "format"}, Tools: fixtureTools(
			"gofmt_list: List the files whose formatting differs from gofmt's")},
	)
	for _, tt := range []struct{ query, first string }{
		{"logs of api (docker, not k8s)", "docker_logs"},
		{"kubectl not docker: logs of api", "kubectl_logs"},
		{"run a command inside it, docker rather than kubernetes", "docker_exec"},
		{"run a command in docker instead of kubectl", "docker_exec"},
		// Without the negation, the pod's words win.
		{"logs of the pod api", "kubectl_logs"},
		// "not" before a CLI's word, with no program named elsewhere.
		{"error: could not compile crate", "cargo_build"},
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
	// The explanation shows the factor of the program ruled out.
	seen := false
	for _, r := range ix.Explain("run a command in the pod with docker instead of kubectl", "", "", 5).Results {
		want := map[string]float64{"kubectl": 0.5}[r.Entry.CLIName]
		seen = seen || want != 0
		if r.Factor != want {
			t.Errorf("%s: factor %v, want %v", r.Entry.ToolName, r.Factor, want)
		}
	}
	if !seen {
		t.Error("no kubectl tool in the explanation")
	}
	// A program's name qualifying a past participle after "not", or a
	// participle stemming to a program's tag, rules nothing out: the files
	// are not formatted, gofmt is what is asked for.
	for _, q := range []string{"which go files are not gofmt formatted", "go files not gofmt-formatted yet",
		"list go files that are not formatted without changing them"} {
		var names []string
		for _, r := range ix.Explain(q, "", "", 5).Results {
			names = append(names, r.Entry.ToolName)
			if r.Factor != 0 {
				t.Errorf("%q: %s has factor %v, want none", q, r.Entry.ToolName, r.Factor)
			}
		}
		if !slices.Contains(names, "gofmt_list") {
			t.Errorf("%q: results %q lack gofmt_list", q, names)
		}
	}
}

// Two query words a tool writes as one ("work tree", "one-line") match
// the word it writes, both of them.
func TestRankCompound(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "vc", Tools: fixtureTools(
			"vc_status: Show the state of the work area and the tree of changes",
			"vc_worktree_add: Add a linked worktree",
			"vc_log: List commits, in the oneline format if asked",
			"vc_blame: Annotate each line with the commit that changed it, line by line, one at a time")},
	)
	for _, tt := range []struct{ query, first string }{
		{"add a work tree", "vc_worktree_add"},
		{"work-tree add", "vc_worktree_add"},
		{"commits in one-line form", "vc_log"},
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
	var via []string
	for _, m := range ix.Explain("add a work tree", "", "", 1).Results[0].Matches {
		via = append(via, m.Term+" "+m.Via)
	}
	if !slices.Contains(via, "worktree compound") {
		t.Errorf("explanation %q lacks the compound", via)
	}
}

// With few tools, a word of the CLI's own fields that its tools also hold
// counts more often than there are tools; it must still count as a match,
// not lose every tool that has it (a two-word query found nothing).
func TestRankWordsOfASmallConfig(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "rg", Description: "ripgrep, to search the files of a tree or to list them", Tools: fixtureTools(
			"rg_search: Search files for a pattern and list the matching lines",
			"rg_files: List the files that would be searched")},
	)
	for _, tt := range []struct{ query, first string }{
		{"list files", "rg_files"},
		{"list python files", "rg_files"},
	} {
		if got := entryNames(ix.Search(tt.query, "", "", 3)); len(got) == 0 || got[0] != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, got, tt.first)
		}
	}
}

// A word too short for typo corrections still names a loaded program when
// two of its neighbouring letters are swapped ("gti" for git).
func TestRankSwappedProgramName(t *testing.T) {
	ix := rankFixture(t,
		&config.Config{Name: "jj", Tools: fixtureTools(
			"jj_status: Show the working copy status")},
		&config.Config{Name: "git", Tools: fixtureTools(
			"git_status: Show the working tree status")},
	)
	if got := entryNames(ix.Search("gti status", "", "", 3)); len(got) == 0 || got[0] != "git_status" {
		t.Errorf("Search(gti status) = %q, want git_status first", got)
	}
	// Not any three letters: "tig" is no swap of git's neighbours.
	var via []string
	for _, r := range ix.Explain("tig status", "", "", 3).Results {
		for _, m := range r.Matches {
			via = append(via, m.Term)
		}
	}
	if slices.Contains(via, "git") {
		t.Errorf("tig matched git: %q", via)
	}
}
