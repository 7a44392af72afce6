package config

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// suggest returns the candidate closest to s when it is close enough to be
// a likely misspelling (edit distance at most a third of the length, at
// least 1, and less than the length: a one-letter name is no misspelling
// of another), or "" when none is.
func suggest(s string, candidates []string) string {
	n := utf8.RuneCountInString(s)
	limit := max(1, n/3)
	best, bestDist := "", -1
	var ls string
	for _, c := range candidates {
		// The distance is at least the difference in length: a name
		// much longer or shorter than every candidate (a whole file as
		// a key) is compared with none of them.
		if abs(utf8.RuneCountInString(c)-n) > limit {
			continue
		}
		if ls == "" {
			ls = strings.ToLower(s)
		}
		d := editDistance(ls, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist < 0 || bestDist > limit || bestDist >= n {
		return ""
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Damerau–Levenshtein distance (adjacent
// transpositions count as one edit) between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(ra)][len(rb)]
}

// EditDistance is the Damerau–Levenshtein distance between a and b in
// runes: insertions, deletions, substitutions and swaps of two adjacent
// runes count one each.
func EditDistance(a, b string) int { return editDistance(a, b) }

// Suggest returns the name among candidates closest to name when it is
// close enough to be a likely misspelling, or "" otherwise. Callers use it
// for "did you mean" hints.
func Suggest(name string, candidates []string) string { return suggest(name, candidates) }

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
