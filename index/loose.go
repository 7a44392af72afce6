package index

import (
	"math"
	"slices"
)

// This file matches long keywords loosely. A keyword of four words or
// more — typically an error message a user would paste — seldom appears
// in a query word for word: pasted text has names, paths and quotes in the
// middle ("Your local changes to the following files would be
// overwritten"). A tool scores a bonus when the query holds most of the
// words of one of its long keywords, in their order: at least
// [minLooseWords] of them, and two thirds. A keyword of three words is a
// task phrase: it counts when the query holds its words one after the
// other, stop words aside ("run make target" for "run a make target"),
// not apart ("ship the already-tagged image up to the container
// registry" is no "tag an image for a registry"). Shorter keywords only
// count whole (findPhrases): two words anywhere in a query say little.

const (
	minLooseKeyword = 4            // keywords with fewer words (stop words aside) match loosely only as a run of the query's words
	minLooseWords   = 3            // a query must hold at least this many of a longer one's words
	looseMinShare   = 0.67         // … and this fraction of them
	looseWeight     = float32(1.0) // a loosely matched keyword's bonus, per word of it the query holds, times the fraction held
)

// looseIndex holds the long keywords by their words.
type looseIndex struct {
	start []int32   // by term: the keywords holding it are kw[start[t]:start[t+1]]
	kw    []int32   // keyword numbers
	doc   []int32   // by keyword: its tool
	nth   []uint16  // … which of the tool's keywords it is
	words []uint8   // … and how many distinct words it has, stop words aside
	terms [][]int32 // … and those words, in order
}

// looseKeyword is a keyword met while indexing: the nth keyword of tool
// doc, of terms ids.
type looseKeyword struct {
	doc int32
	nth int
	ids []int32
}

// build makes the index from the keywords of the tools, over the
// vocabulary whose stop words isStop tells.
func (li *looseIndex) build(kws []looseKeyword, isStop []bool) {
	li.start = make([]int32, len(isStop)+1)
	var terms [][]int32 // by keyword: its distinct content terms
	for _, k := range kws {
		var ts []int32
		for _, id := range k.ids {
			if !isStop[id] && !slices.Contains(ts, id) {
				ts = append(ts, id)
			}
		}
		if len(ts) < minLooseWords || len(ts) > math.MaxUint8 || k.nth > math.MaxUint16 {
			continue
		}
		li.doc = append(li.doc, k.doc)
		li.nth = append(li.nth, uint16(k.nth))
		li.words = append(li.words, uint8(len(ts)))
		li.terms = append(li.terms, ts)
		terms = append(terms, ts)
		for _, id := range ts {
			li.start[id+1]++
		}
	}
	for t := range len(isStop) {
		li.start[t+1] += li.start[t]
	}
	li.kw = make([]int32, li.start[len(isStop)])
	next := slices.Clone(li.start[:len(isStop)])
	for k, ts := range terms {
		for _, id := range ts {
			li.kw[next[id]] = int32(k)
			next[id]++
		}
	}
}

// matchLoose adds to the score of each tool that has a long keyword most of
// whose words are among the query's terms ids (-1 for words the index
// lacks; no repeats) its bonus, the largest when several match.
func (r *ranker) matchLoose(ids []int32, s *scratch, ex *explainer) {
	li := &r.loose
	if len(li.doc) == 0 {
		return
	}
	if len(s.looseHit) < len(li.doc) {
		s.looseHit = make([]uint8, len(li.doc))
	}
	hits := s.looseKW[:0]
	for _, id := range ids {
		if id < 0 {
			continue
		}
		for _, k := range li.kw[li.start[id]:li.start[id+1]] {
			if s.looseHit[k] == 0 {
				hits = append(hits, k)
			}
			s.looseHit[k]++
		}
	}
	for _, k := range hits {
		n, of := float32(s.looseHit[k]), float32(li.words[k])
		s.looseHit[k] = 0
		if n < minLooseWords || n < looseMinShare*of {
			continue
		}
		// A pasted message keeps its words in order, whatever is
		// inserted between them; a sentence that merely shares words
		// with it seldom does.
		if n = float32(inOrder(li.terms[k], ids)); n < minLooseWords || n < looseMinShare*of {
			continue
		}
		if of < minLooseKeyword && !run(li.terms[k], ids) {
			continue // a task phrase, its words apart
		}
		d := li.doc[k]
		if bonus := looseWeight * n * n / of; bonus > s.phrase[d] {
			s.acc[d] += bonus - s.phrase[d]
			s.phrase[d] = bonus
			if ex != nil {
				ex.looseKeyword(d, int(li.nth[k]), bonus)
			}
		}
	}
	s.looseKW = hits[:0]
}

// run reports whether query (term IDs, stop words aside, -1 for words
// the index lacks) holds the words of kw one after the other.
func run(kw, query []int32) bool {
	for i := 0; i+len(kw) <= len(query); i++ {
		if slices.Equal(query[i:i+len(kw)], kw) {
			return true
		}
	}
	return false
}

// inOrder returns how many words of kw appear in query in the same order
// (the longest common subsequence of the two; query holds no repeats,
// -1 for words the index lacks).
func inOrder(kw, query []int32) int {
	// One row of the dynamic programme over the keyword's words, which
	// are few.
	var rowBuf [32]int
	row := rowBuf[:0]
	if len(kw)+1 > len(rowBuf) {
		row = make([]int, 0, len(kw)+1)
	}
	row = row[:len(kw)+1]
	for i := range row {
		row[i] = 0
	}
	for _, q := range query {
		if q < 0 {
			continue
		}
		prev := 0 // row[j-1] of the previous query word
		for j := 1; j <= len(kw); j++ {
			cur := row[j]
			if kw[j-1] == q {
				row[j] = prev + 1
			} else if row[j-1] > row[j] {
				row[j] = row[j-1]
			}
			prev = cur
		}
	}
	return row[len(kw)]
}
