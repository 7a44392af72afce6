package scaffold

import (
	"slices"
	"strings"
	"testing"
)

// tree builds a command tree from "a b c" paths, every node from source.
func tree(source string, paths ...string) *Command {
	root := &Command{Source: source}
	for _, p := range paths {
		n := root
		for _, w := range strings.Fields(p) {
			i := slices.IndexFunc(n.Children, func(c *Command) bool { return c.Path[len(c.Path)-1] == w })
			if i < 0 {
				n.Children = append(n.Children, &Command{Path: append(slices.Clone(n.Path), w), Source: source})
				i = len(n.Children) - 1
			}
			n = n.Children[i]
		}
	}
	return root
}

func names(nodes []*Command) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, strings.Join(n.Path, " "))
	}
	return out
}

// A program's own order, when it is not alphabetical, puts its everyday
// commands first (git, docker): it is kept.
func TestRankKeepsTheProgramsOrder(t *testing.T) {
	root := tree("--help", "status", "commit", "add", "bisect", "annotate")
	if got := names(rankChildren(root)); !slices.Equal(got, []string{"status", "commit", "add", "bisect", "annotate"}) {
		t.Errorf("ranked %q", got)
	}
}

// Operations named verb-noun in alphabetical order: everyday verbs on the
// group's central object first, long specialist names last.
func TestRankOperations(t *testing.T) {
	root := tree(figSource,
		"associate-widget-frobnicator-configuration", "create-widget", "delete-widget",
		"describe-widget-attribute-history", "describe-widgets", "get-gadget-policy",
		"list-widgets", "modify-widget-attribute", "put-gadget-policy", "tag-resource")
	got := names(rankChildren(root))
	for _, w := range []string{"describe-widgets", "list-widgets", "create-widget", "delete-widget"} {
		if i := slices.Index(got, w); i > 4 {
			t.Errorf("%s ranked %d: %q", w, i, got)
		}
	}
	if got[len(got)-1] != "associate-widget-frobnicator-configuration" {
		t.Errorf("last %q, want the long specialist name: %q", got[len(got)-1], got)
	}
}

// Commands the installed program lists come before those only a Fig spec
// adds; among services (no verbs), the one with many operations first.
func TestRankSourceAndSize(t *testing.T) {
	root := tree("--help", "alpha list-things")
	big := tree(figSource, "bravo a-x", "bravo b-x", "bravo c-x", "bravo d-x", "bravo e-x", "bravo f-x", "bravo g-x")
	small := tree(figSource, "charlie a-y")
	root.Children = append(root.Children, big.Children[0], small.Children[0])
	if got := names(rankChildren(root)); !slices.Equal(got, []string{"alpha", "bravo", "charlie"}) {
		t.Errorf("ranked %q", got)
	}
}

// --max-tools keeps the heaviest tools (shallow, early in their ranking)
// and writes them in tree order.
func TestSelectTools(t *testing.T) {
	root := tree(figSource,
		"aaa describe-long-specialist-name-of-things", "aaa list-things",
		"bbb get-widget", "bbb list-widgets", "bbb describe-widgets", "bbb create-widget", "bbb tag-resource",
		"ccc")
	keep, dropped := selectTools(root, 4)
	if dropped != 4 {
		t.Errorf("dropped %d, want 4", dropped)
	}
	got := names(keep)
	// ccc is a tool one level down: heavier than any operation below.
	if !slices.Contains(got, "ccc") || !slices.Contains(got, "bbb list-widgets") {
		t.Errorf("kept %q", got)
	}
	if slices.Contains(got, "aaa describe-long-specialist-name-of-things") || slices.Contains(got, "bbb tag-resource") {
		t.Errorf("kept %q: a specialist's command over everyday ones", got)
	}
	order := map[string]int{}
	for i, n := range toolNodes(root) {
		order[strings.Join(n.Path, " ")] = i
	}
	if !slices.IsSortedFunc(got, func(a, b string) int { return order[a] - order[b] }) {
		t.Errorf("kept %q, not in tree order", got)
	}
	if all, d := selectTools(root, 100); len(all) != 8 || d != 0 {
		t.Errorf("max 100: kept %d, dropped %d", len(all), d)
	}
}

// A listing's sorted runs: groups each in alphabetical order (git's
// everyday commands, then its ancillary ones) are runs; another
// collation's order under one first letter is not a new run.
func TestSortedRuns(t *testing.T) {
	for _, c := range []struct {
		paths []string
		runs  []int
	}{
		{[]string{"add", "commit", "worktree", "config", "fsck"}, []int{0, 0, 0, 1, 1}},
		{[]string{"delete-ssh-key", "delete-server-cert", "get-user"}, []int{0, 0, 0}},
		{[]string{"run", "exec", "ps", "build"}, []int{0, 1, 1, 2}},
	} {
		root := tree("--help", c.paths...)
		runs, n := sortedRuns(root.Children)
		if !slices.Equal(runs, c.runs) || n != c.runs[len(c.runs)-1]+1 {
			t.Errorf("%q: runs %v of %d, want %v", c.paths, runs, n, c.runs)
		}
	}
}
