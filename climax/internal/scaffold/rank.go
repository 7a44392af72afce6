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
//   - a command's weight is half its parent's divided by its rank among
//     its siblings (1, 1/2, 1/3, …, as word frequencies fall off), so a
//     tool deep in the tree or behind minor siblings weighs less;
//   - the heaviest tools are kept, and written in tree order.

// levelWeight is the share of its parent's weight a first-ranked command
// gets: a tool one level deeper weighs half.
const levelWeight = 0.5

// selectTools returns the tools of the tree under root (see toolNodes), at
// most max of them, the most central first kept, in tree order; dropped
// is how many were left out.
func selectTools(root *Command, max int) (keep []*Command, dropped int) {
	nodes := toolNodes(root)
	if len(nodes) <= max {
		return nodes, 0
	}
	weight := map[*Command]float64{root: 1}
	var walk func(n *Command)
	walk = func(n *Command) {
		for rank, c := range rankChildren(n) {
			weight[c] = weight[n] * levelWeight / float64(rank+1)
			walk(c)
		}
	}
	walk(root)
	order := map[*Command]int{}
	for i, n := range nodes {
		order[n] = i
	}
	byWeight := slices.Clone(nodes)
	slices.SortStableFunc(byWeight, func(a, b *Command) int {
		switch wa, wb := weight[a], weight[b]; {
		case wa > wb:
			return -1
		case wa < wb:
			return 1
		}
		return 0
	})
	keep = byWeight[:max]
	slices.SortFunc(keep, func(a, b *Command) int { return order[a] - order[b] })
	return keep, len(nodes) - max
}

// rankChildren returns n's children, the most central first; ties keep
// the program's order.
func rankChildren(n *Command) []*Command {
	kids := slices.Clone(n.Children)
	if len(kids) < 2 {
		return kids
	}
	listed := !alphabetical(kids)
	var nouns map[string]int // of verb-noun names only
	if verbFirst(kids) {
		nouns = nounCounts(kids)
	}
	score := map[*Command]float64{}
	for i, c := range kids {
		score[c] = siblingScore(c, i, len(kids), listed, nouns)
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

// siblingScore scores the child c, at position i of the n children its
// parent lists; listed says the listing is in the program's own order
// (not alphabetical), which puts everyday commands first (git, docker,
// kubectl). Higher is more central:
//   - a command the installed program lists, over one only a Fig spec
//     knows;
//   - an early place in a listing that is not alphabetical;
//   - a name that starts with an everyday verb (list, get, create, …);
//   - a short name: frequent words are short, and a name of several
//     words (describe-instance-credit-specifications) is a specialist's;
//   - a name whose other words recur among its siblings: the group's
//     central object (ec2's instances, cloudformation's stacks);
//   - many commands below it (a service with many operations).
func siblingScore(c *Command, i, n int, listed bool, nouns map[string]int) float64 {
	s := 0.0
	if c.Source != figSource {
		s += 2
	}
	if listed {
		s += 2 * (1 - float64(i)/float64(n))
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

// alphabetical reports whether the children are listed in alphabetical
// order (then their order says nothing about what is used most).
func alphabetical(kids []*Command) bool {
	inOrder := 0
	for i := 1; i < len(kids); i++ {
		if kids[i-1].Path[len(kids[i-1].Path)-1] <= kids[i].Path[len(kids[i].Path)-1] {
			inOrder++
		}
	}
	return inOrder*10 >= (len(kids)-1)*9
}
