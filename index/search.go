package index

import "strings"

// ranker orders tools by relevance to a query.
//
// PLACEHOLDER: plain substring filter in load order; to be replaced by the
// ranked search (foundation issue, part 2).
type ranker struct {
	docs []string
}

func newRanker(tools []*ResolvedTool) *ranker {
	r := &ranker{}
	for _, t := range tools {
		c := t.CLI
		r.docs = append(r.docs, strings.ToLower(strings.Join([]string{t.Tool.Name, t.Tool.Description, c.Name, c.Category, strings.Join(c.Tags, "\x00")}, "\x00")))
	}
	return r
}

// rank returns the indices of at most limit tools that keep accepts and
// that match query, best first.
func (r *ranker) rank(query string, keep func(int) bool, limit int) []int {
	q := strings.ToLower(query)
	var out []int
	for i, d := range r.docs {
		if len(out) == limit {
			break
		}
		if keep(i) && strings.Contains(d, q) {
			out = append(out, i)
		}
	}
	return out
}
