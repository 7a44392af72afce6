package index

import "strings"

// This file holds abbreviations: a short query word that the index does
// not know ("wt", "dup", "hist") may stand for a longer word of the tools'
// names that starts with the same letter and holds its letters in order
// ("worktree", "duplicate", "history"), as people shorten words in chat.

const (
	minAbbrevLen   = 2 // shorter query words are single letters: stop words
	maxAbbrevLen   = 5 // longer words are typos or words of their own, not abbreviations
	maxAbbrevTerms = 8 // an abbreviation that fits more name words says nothing
	abbrevWeight   = float32(0.5)
	abbrevCover    = float32(0.8)
)

// A nameWord is a word of a tool's name as written (lowercase), with the
// term it belongs to.
type nameWord struct {
	word string
	term int32
}

// abbrevIndex holds the words of the tools' names, by first letter.
type abbrevIndex struct {
	byFirst [26][]nameWord
	seen    map[string]bool // while building
}

// newAbbrevIndex returns the abbreviation index of r's tool names. It is
// built when a query first needs it: few queries have a word the index
// lacks, and building it would add to every start.
func (r *ranker) newAbbrevIndex() *abbrevIndex {
	ai := &abbrevIndex{seen: map[string]bool{}}
	for _, t := range r.tools {
		tokenize(t.Tool.Name, func(tok []byte) {
			if id, ok := r.termID[stem(string(tok))]; ok {
				ai.add(string(tok), id)
			}
		})
	}
	ai.seen = nil
	return ai
}

// add records w, a word of a tool's name, unless it is too short to be
// abbreviated, has anything but letters or was added before.
func (ai *abbrevIndex) add(w string, term int32) {
	if len(w) < minAbbrevLen+2 || !allLetters(w) || ai.seen[w] {
		return
	}
	if ai.seen == nil {
		ai.seen = map[string]bool{}
	}
	ai.seen[w] = true
	ai.byFirst[w[0]-'a'] = append(ai.byFirst[w[0]-'a'], nameWord{w, term})
}

// lookup returns the terms of the name words q may abbreviate: words
// longer than q (see minAbbrevGap), with q's first letter first and all of
// q's letters in order. When more than [maxAbbrevTerms] terms fit, only
// the words that begin with q count ("pul" for pull, not pulumi's
// neighbours "plugin" and "public"), if few enough do. It returns none
// when q is no abbreviation candidate (too short or long, not all
// letters) or still fits more than maxAbbrevTerms terms.
func (ai *abbrevIndex) lookup(q string) (terms [maxAbbrevTerms]int32, n int) {
	if len(q) < minAbbrevLen || len(q) > maxAbbrevLen || !allLetters(q) {
		return terms, 0
	}
	var prefixed [maxAbbrevTerms]int32
	np, all := 0, 0
	for _, w := range ai.byFirst[q[0]-'a'] {
		if len(w.word) < len(q)+minAbbrevGap(q) || !isSubsequence(q[1:], w.word[1:]) {
			continue
		}
		if !containsTerm(terms[:n], w.term) {
			if n < maxAbbrevTerms {
				terms[n] = w.term
				n++
			} else {
				all++
			}
		}
		if strings.HasPrefix(w.word, q) && !containsTerm(prefixed[:np], w.term) {
			if np == maxAbbrevTerms {
				return terms, 0
			}
			prefixed[np] = w.term
			np++
		}
	}
	if all == 0 {
		return terms, n
	}
	return prefixed, np
}

// allLetters reports whether s is non-empty and all ASCII lowercase
// letters.
func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// isSubsequence reports whether the letters of q appear in w in order.
func isSubsequence(q, w string) bool {
	for i := 0; i < len(w) && q != ""; i++ {
		if w[i] == q[0] {
			q = q[1:]
		}
	}
	return q == ""
}

func containsTerm(terms []int32, t int32) bool {
	for _, x := range terms {
		if x == t {
			return true
		}
	}
	return false
}

// minAbbrevGap is how many letters longer than q a name word must be for
// q to abbreviate it: two for a word of two letters ("wt" is not "wit"),
// one from three on, where a dropped vowel is the usual shortening
// ("pul" for pull, "drp" for drop, "edt" for edit).
func minAbbrevGap(q string) int {
	if len(q) < 3 {
		return 2
	}
	return 1
}
