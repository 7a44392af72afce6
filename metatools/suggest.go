package metatools

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// Suggestions returns up to five names among candidates that the caller of
// an unknown name probably meant, best first: a name differing only in
// case, then likely misspellings ([config.Suggest] and others within the
// same edit distance), then names that start with or contain the given
// name or are contained in it (at least three characters). Hyphens, dots
// and spaces compare equal to underscores.
func Suggestions(name string, candidates []string) []string {
	type scored struct {
		name        string
		class, dist int
		order       int
	}
	norm := func(s string) string {
		return strings.NewReplacer("-", "_", ".", "_", " ", "_").Replace(strings.ToLower(s))
	}
	n := norm(name)
	if n == "" {
		return nil
	}
	best := config.Suggest(name, candidates)
	threshold := max(1, len([]rune(name))/3)
	var found []scored
	for i, c := range candidates {
		if c == name {
			continue
		}
		lc := norm(c)
		s := scored{name: c, order: i, class: -1}
		short := min(len(n), len(lc))
		switch {
		case lc == n:
			s.class = 0
		case c == best:
			s.class, s.dist = 1, 0
		default:
			if d, ok := closeEnough(n, lc, threshold); ok {
				s.class, s.dist = 1, d
			} else if short >= 3 && (strings.HasPrefix(lc, n) || strings.HasPrefix(n, lc)) {
				s.class, s.dist = 2, abs(len(lc)-len(n))
			} else if short >= 3 && (strings.Contains(lc, n) || strings.Contains(n, lc)) {
				s.class, s.dist = 3, abs(len(lc)-len(n))
			}
		}
		if s.class >= 0 {
			found = append(found, s)
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.class, b.class), cmp.Compare(a.dist, b.dist), cmp.Compare(a.order, b.order))
	})
	var out []string
	for _, s := range found {
		if len(out) == maxSuggestions {
			break
		}
		out = append(out, s.name)
	}
	return out
}

// closeEnough returns the edit distance between a and b when it is at
// most threshold. The distance is at least the difference in length, so a
// name far longer than the other (a whole file sent as a tool name) is not
// compared: the distance costs the product of the two lengths in time and
// memory.
func closeEnough(a, b string, threshold int) (int, bool) {
	if abs(utf8.RuneCountInString(a)-utf8.RuneCountInString(b)) > threshold {
		return 0, false
	}
	d := config.EditDistance(a, b)
	return d, d <= threshold
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
