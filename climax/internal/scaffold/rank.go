package scaffold

import (
	"math"
	"slices"
	"strings"
)

// When a program has more commands than --max-tools, the draft keeps the
// most central ones rather than the first in the order of its listing
// (aws lists its 400 services alphabetically: the first 100 tools would
// all be accessanalyzer, account and acm). Nothing says how often a
// command is used, so the ranking rests on what the tree shows
// (docs/scaffold.md, "Which tools a large program keeps"):
//
//   - each command is ranked among its siblings by siblingScore;
//   - a command's weight is three quarters of its parent's divided by its
//     rank among its siblings (1, 1/2, 1/3, …, as word frequencies fall
//     off), so a tool deep in the tree or behind minor siblings weighs
//     less;
//   - the heaviest tools are kept, and written in tree order.

// levelWeight is the share of its parent's weight a first-ranked command
// gets: a tool one level deeper weighs less.
const levelWeight = 0.75

// selectTools returns the tools of the tree under root (see toolNodes), at
// most max of them, the most central first kept, in tree order; dropped
// is how many were left out.
func selectTools(root *Command, max int) (keep []*Command, dropped int) {
	nodes := toolNodes(root)
	if len(nodes) <= max {
		return nodes, 0
	}
	order := map[*Command]int{}
	for i, n := range nodes {
		order[n] = i
	}
	keep = byWeight(root, nodes)[:max]
	slices.SortFunc(keep, func(a, b *Command) int { return order[a] - order[b] })
	return keep, len(nodes) - max
}

// byWeight returns nodes of the tree under root, the most central first;
// ties keep their order.
func byWeight(root *Command, nodes []*Command) []*Command {
	weight := map[*Command]float64{root: 1}
	var walk func(n *Command)
	walk = func(n *Command) {
		for rank, c := range rankChildren(n) {
			weight[c] = weight[n] * levelWeight / float64(rank+1)
			walk(c)
		}
	}
	walk(root)
	out := slices.Clone(nodes)
	slices.SortStableFunc(out, func(a, b *Command) int {
		switch wa, wb := weight[a], weight[b]; {
		case wa > wb:
			return -1
		case wa < wb:
			return 1
		}
		return 0
	})
	return out
}

// rankChildren returns n's children, the most central first; ties keep
// the program's order.
func rankChildren(n *Command) []*Command {
	kids := slices.Clone(n.Children)
	if len(kids) < 2 {
		return kids
	}
	runs, total := sortedRuns(kids)
	var nouns map[string]int // of verb-noun names only
	if verbFirst(kids) {
		nouns = nounCounts(kids)
	}
	score := map[*Command]float64{}
	for i, c := range kids {
		score[c] = siblingScore(c, runs[i], total, nouns)
	}
	slices.SortStableFunc(kids, func(a, b *Command) int {
		switch sa, sb := score[a], score[b]; {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	return kids
}

// everydayVerbs are the verbs of the commands people type most, beyond
// those of the annotation guesses (guess.go).
var everydayVerbs = words(`create add new set edit copy cp mv move sync upload download send commit
	merge checkout switch tag branch open tail terminate invoke deploy login configure`)

// listedWeight is the score of the first place in a listing in the
// program's own order, which outweighs the other signals: the program's
// authors know what is used most.
const listedWeight = 6

// siblingScore scores the child c, in the run-th of the runs sorted runs
// of its parent's listing (see sortedRuns). Higher is more central:
//   - a command the installed program lists, over one only a Fig spec
//     knows;
//   - an early place in the listing, unless it is alphabetical: a
//     program's own order, or its groups each sorted (git's everyday
//     commands, then its ancillary ones, then its plumbing; docker's
//     common commands, then its management commands) puts what is used
//     most first;
//   - a name that starts with an everyday verb (list, get, create, …);
//   - a short name: frequent words are short, and a name of several
//     words (describe-instance-credit-specifications) is a specialist's;
//   - a name whose other words recur among its siblings: the group's
//     central object (ec2's instances, cloudformation's stacks);
//   - many commands below it (a service with many operations).
func siblingScore(c *Command, run, runs int, nouns map[string]int) float64 {
	s := 0.0
	if c.Source != figSource {
		s += 2
	}
	if runs > 1 {
		s += listedWeight * (1 - float64(run)/float64(runs))
	}
	name := strings.ToLower(c.Path[len(c.Path)-1])
	parts := nameParts(name)
	if nouns != nil && isVerb(parts[0]) {
		s++
	}
	s -= 0.5*float64(len(parts)-1) + 0.05*float64(len(name))
	best := 0
	for _, p := range parts[1:] {
		best = max(best, nouns[singular(p)])
	}
	if best > 1 {
		s += 0.5 * math.Log2(float64(best))
	}
	if k := len(toolNodes(c)); len(c.Children) > 0 {
		s += 0.25 * math.Log2(float64(1+k))
	}
	return s
}

func isVerb(w string) bool {
	return readVerbs[w] || destroyVerbs[w] || runVerbs[w] || everydayVerbs[w]
}

// verbFirst reports whether the children's names are mostly verb-noun
// (describe-instances, list-functions): operations on objects rather than
// a program's services or areas, which a verb does not rank.
func verbFirst(kids []*Command) bool {
	n := 0
	for _, c := range kids {
		if isVerb(nameParts(strings.ToLower(c.Path[len(c.Path)-1]))[0]) {
			n++
		}
	}
	return n*3 >= len(kids)
}

// nameParts splits a command name into its words (describe-instances,
// get_caller_identity, config:set).
func nameParts(name string) []string {
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ':' || r == '.' })
	if len(parts) == 0 {
		return []string{name}
	}
	return parts
}

// singular is a word without a plural "s" (instances and instance count
// as one noun).
func singular(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// nounCounts counts, for each word after the first of the children's
// names, how many children's names hold it.
func nounCounts(kids []*Command) map[string]int {
	counts := map[string]int{}
	for _, c := range kids {
		parts := nameParts(strings.ToLower(c.Path[len(c.Path)-1]))
		seen := map[string]bool{}
		for _, p := range parts[1:] {
			if p = singular(p); !seen[p] {
				seen[p] = true
				counts[p]++
			}
		}
	}
	return counts
}

// sortedRuns splits the children's listing into its sorted runs: each
// child's run (0 for the first), and how many runs there are. A listing
// in alphabetical order is one run and says nothing about use; a
// program's own order is a run for almost every child. A run ends where
// the first letter goes back (worktree, then config); names out of order
// under one first letter are another collation's order (aws's iam lists
// delete-ssh-public-key before delete-server-certificate), not a new run.
func sortedRuns(kids []*Command) ([]int, int) {
	first := func(c *Command) byte { return strings.ToLower(c.Path[len(c.Path)-1])[0] }
	runs := make([]int, len(kids))
	r := 0
	for i := 1; i < len(kids); i++ {
		if first(kids[i-1]) > first(kids[i]) {
			r++
		}
		runs[i] = r
	}
	return runs, r + 1
}
