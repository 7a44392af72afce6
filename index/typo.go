package index

import (
	"math/bits"
	"slices"
)

// This file holds typo tolerance: a query word that the index does not
// know is matched to the index's words within a small edit distance.

const (
	minTypoLen    = 4  // shorter query words are not corrected: too many words lie one edit away
	longTypoLen   = 8  // words of this length or more may be two edits away, shorter ones one
	maxTypoLen    = 32 // longer words (hashes, paths) are neither indexed for typos nor corrected
	maxTypoTerms  = 8  // corrections per query word, the most common words first
	maxTypoLookup = 16 // query words corrected per query; later ones are left as they are
)

// typoDistance returns the number of edits allowed between a query word
// of n bytes and the word it stands for: 0 (no correction) below
// [minTypoLen], 1 up to 7 letters, 2 from [longTypoLen].
func typoDistance(n int) int {
	switch {
	case n < minTypoLen || n > maxTypoLen:
		return 0
	case n < longTypoLen:
		return 1
	}
	return 2
}

// typoWord is a word of the index as written (lowercase, not stemmed),
// with the term it belongs to.
type typoWord struct {
	word string
	mask uint32 // the letters a-z it holds, bit 0 for 'a'
	term int32
}

// typoIndex holds the index's words by length, so that a lookup only looks
// at words whose length is within the allowed distance, and compares
// first letters and letter sets before computing a distance.
type typoIndex struct {
	byLen [maxTypoLen + 1][]typoWord
}

// typoEligible reports whether w can be indexed for typo lookups: ASCII
// lowercase letters and digits, at least one letter, at most
// [maxTypoLen] bytes and at least minTypoLen-1 (one insertion away from
// the shortest word corrected).
func typoEligible(w []byte) bool {
	if len(w) < minTypoLen-1 || len(w) > maxTypoLen {
		return false
	}
	letter := false
	for _, c := range w {
		switch {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return letter
}

func letterMask(w string) uint32 {
	var m uint32
	for i := 0; i < len(w); i++ {
		if c := w[i]; 'a' <= c && c <= 'z' {
			m |= 1 << (c - 'a')
		}
	}
	return m
}

func (ti *typoIndex) add(w string, term int32) {
	ti.byLen[len(w)] = append(ti.byLen[len(w)], typoWord{word: w, mask: letterMask(w), term: term})
}

// typoMatch is a term within the allowed distance of a query word.
type typoMatch struct {
	term int32
	dist int
}

// lookup appends to out the terms whose words lie within the allowed
// distance of w, at the smallest distance found; df orders them, most
// common first, when there are more than [maxTypoTerms]. skip tells terms
// never to offer (stop words).
func (ti *typoIndex) lookup(out []typoMatch, w string, df func(int32) int, skip func(int32) bool) []typoMatch {
	k := typoDistance(len(w))
	if k == 0 || !typoEligible([]byte(w)) {
		return out
	}
	start := len(out)
	mask := letterMask(w)
	best := k
	var buf [3 * (maxTypoLen + 1)]int
	for n := max(len(w)-k, 1); n <= min(len(w)+k, maxTypoLen); n++ {
		for _, tw := range ti.byLen[n] {
			// An edit changes the set of letters by at most two. And
			// people rarely get the first letter wrong: a word that
			// starts otherwise is another word ("older" is not "folder"),
			// unless the first two letters are swapped.
			if bits.OnesCount32(mask^tw.mask) > 2*best ||
				tw.word[0] != w[0] && (tw.word[0] != w[1] || tw.word[1] != w[0]) {
				continue
			}
			d := osaDistance(w, tw.word, best, buf[:])
			if d > best || skip(tw.term) {
				continue
			}
			if d < best {
				best = d
				out = out[:start]
			}
			if !slices.ContainsFunc(out[start:], func(m typoMatch) bool { return m.term == tw.term }) {
				out = append(out, typoMatch{tw.term, d})
			}
		}
	}
	found := out[start:]
	if len(found) > maxTypoTerms {
		slices.SortStableFunc(found, func(a, b typoMatch) int { return df(b.term) - df(a.term) })
		out = out[:start+maxTypoTerms]
	}
	return out
}

// osaDistance returns the optimal string alignment distance between a and
// b (insertions, deletions, substitutions and transpositions of adjacent
// bytes, each one edit), or a number greater than k as soon as the
// distance is known to exceed k. a and b are at most [maxTypoLen] bytes;
// buf has room for three rows.
func osaDistance(a, b string, k int, buf []int) int {
	if d := len(a) - len(b); d > k || -d > k {
		return k + 1
	}
	n := len(b) + 1
	if len(buf) < 3*n {
		buf = make([]int, 3*n)
	}
	prev2, prev, cur := buf[:n], buf[n:2*n], buf[2*n:3*n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j < n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[n-1]
}
