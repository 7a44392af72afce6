package index

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// findLiteral marks the tools that contain query literally and returns the
// query in lowercase ("" when it is too long to be in any field).
func (r *ranker) findLiteral(query string, s *scratch) string {
	// A query longer than every tool's fields cannot be in any of them
	// (lowercasing at most triples a length).
	if len(query) > 3*r.lit.maxField {
		return ""
	}
	q := strings.ToLower(query)
	r.lit.find(q, s)
	return q
}

// literalIndex finds the tools whose name, description, CLI name,
// category or a tag contains a string, case-insensitively, without
// scanning every tool.
//
// It holds each tool's searchable fields in lowercase, and an inverted
// index of their words: maximal runs of letters and digits. A query word
// with a non-word character on both sides in the query must be a whole
// word of every tool that contains the query; one with such a character on
// one side must begin or end a word; a query that is one word must lie
// inside one. The words that qualify are found by scanning the
// vocabulary; only their tools are then checked with strings.Contains.
type literalIndex struct {
	text     string  // tool i's fields, NUL-separated, at text[docStart[i]:docStart[i+1]]
	docStart []int32 // len n+1
	nameEnd  []int32 // tool i's name is text[docStart[i]:nameEnd[i]]

	words     string  // "\x00" + every word + "\x00", NUL-separated
	wordStart []int32 // word i is at words[wordStart[i]:], up to the next NUL
	wordID    map[string]int32
	wordDocs  [][]int32 // by word: the tools that have it, in load order
	tools     []*config.ResolvedTool
	maxField  int // the length of the longest field
}

func (li *literalIndex) build(tools []*config.ResolvedTool) {
	li.tools = tools
	li.docStart = make([]int32, len(tools)+1)
	li.nameEnd = make([]int32, len(tools))
	li.wordID = map[string]int32{}
	var text, words strings.Builder
	words.WriteByte(0)
	var ids []int32
	// addWords appends the IDs of the words of f to ids.
	addWords := func(f string) {
		eachWord(f, func(w string) {
			id, ok := li.wordID[w]
			if !ok {
				id = int32(len(li.wordDocs))
				li.wordID[w] = id
				li.wordStart = append(li.wordStart, int32(words.Len()))
				words.WriteString(w)
				words.WriteByte(0)
				li.wordDocs = append(li.wordDocs, nil)
			}
			ids = append(ids, id)
		})
	}
	type cliPart struct {
		text string // "\x00name\x00category\x00tag…"
		ids  []int32
	}
	parts := map[*config.Config]cliPart{}
	for d, t := range tools {
		li.docStart[d] = int32(text.Len())
		ids = ids[:0]
		name := strings.ToLower(t.Tool.Name)
		text.WriteString(name)
		li.nameEnd[d] = int32(text.Len())
		text.WriteByte(0)
		desc := strings.ToLower(t.Tool.Description)
		text.WriteString(desc)
		li.maxField = max(li.maxField, len(name), len(desc))
		addWords(name)
		addWords(desc)
		c := t.CLI
		p, ok := parts[c]
		if !ok {
			var b strings.Builder
			n := len(ids)
			for _, f := range append([]string{c.Name, c.Category}, c.Tags...) {
				f = strings.ToLower(f)
				li.maxField = max(li.maxField, len(f))
				b.WriteByte(0)
				b.WriteString(f)
				addWords(f)
			}
			p = cliPart{text: b.String(), ids: slices.Clone(ids[n:])}
			parts[c] = p
		} else {
			ids = append(ids, p.ids...)
		}
		text.WriteString(p.text)
		text.WriteByte(0)
		for _, id := range ids {
			if ds := li.wordDocs[id]; len(ds) == 0 || ds[len(ds)-1] != int32(d) {
				li.wordDocs[id] = append(ds, int32(d))
			}
		}
	}
	li.docStart[len(tools)] = int32(text.Len())
	li.text = text.String()
	li.words = words.String()
}

// sameName reports whether q (lowercase) is the tool name with other
// separators between its words: "npm audit" and "npm-audit" for
// npm_audit. Separators are the characters other than letters and digits,
// one for one.
func sameName(name, q string) bool {
	if len(name) != len(q) || q == "" {
		return false
	}
	for i := 0; i < len(q); i++ {
		n, c := name[i], q[i]
		if 'A' <= n && n <= 'Z' {
			n += 'a' - 'A'
		}
		if n != c && (isWordByte(n) || isWordByte(c)) {
			return false
		}
	}
	return true
}

// isWordByte reports whether c is an ASCII letter or digit, or part of a
// multi-byte character.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}

// eachWord calls fn with every maximal run of letters and digits of s.
func eachWord(s string, fn func(w string)) {
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isAlnum(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(s[start:])
	}
}

func (li *literalIndex) nameLen(d int32) int { return int(li.nameEnd[d] - li.docStart[d]) }

// name returns tool d's name in lowercase.
func (li *literalIndex) name(d int32) string { return li.text[li.docStart[d]:li.nameEnd[d]] }

// find marks in s every tool that contains q (already lowercase).
func (li *literalIndex) find(q string, s *scratch) {
	if strings.IndexByte(q, 0) >= 0 {
		li.findSlow(q, s)
		return
	}
	for _, d := range li.candidates(q) {
		doc := li.text[li.docStart[d]:li.docStart[d+1]]
		if j := strings.Index(doc, q); j >= 0 {
			s.touch(d)
			s.flags[d] |= flagLiteral
			if j+len(q) <= li.nameLen(d) {
				s.flags[d] |= flagLitName
			}
		}
	}
}

// candidates returns the tools that may contain q, in load order, without
// repeats: those of the most selective word of q. A word with a non-word
// character on both sides must be a whole word of the tool; otherwise the
// longest word (anchored at a side that has such a character) must lie
// inside one of its words. A query with no word at all may be in any tool.
func (li *literalIndex) candidates(q string) []int32 {
	var pattern string
	var exact []int32
	haveExact := false
	forEachQueryWord(q, func(w string, left, right bool) {
		switch {
		case left && right:
			id, ok := li.wordID[w]
			var ds []int32
			if ok {
				ds = li.wordDocs[id]
			}
			if !haveExact || len(ds) < len(exact) {
				exact, haveExact = ds, true
			}
		case len(w)+1 > len(pattern):
			pattern = w
			if left {
				pattern = "\x00" + pattern
			}
			if right {
				pattern += "\x00"
			}
		}
	})
	switch {
	case haveExact:
		return exact
	case pattern == "":
		all := make([]int32, len(li.docStart)-1)
		for d := range all {
			all[d] = int32(d)
		}
		return all
	}
	docs := li.wordsHolding(pattern)
	slices.Sort(docs)
	return slices.Compact(docs)
}

// wordsHolding returns the tools of every word that contains pattern (a
// leading or trailing NUL anchors it at the word's start or end), with
// repeats.
func (li *literalIndex) wordsHolding(pattern string) []int32 {
	var docs []int32
	for pos := 0; pos < len(li.words); {
		j := strings.Index(li.words[pos:], pattern)
		if j < 0 {
			break
		}
		j += pos
		if pattern[0] == 0 {
			j++ // the word starts after the NUL
		}
		w, _ := slices.BinarySearch(li.wordStart, int32(j)+1)
		w-- // the word that holds j
		docs = append(docs, li.wordDocs[w]...)
		if w+1 >= len(li.wordStart) {
			break
		}
		pos = int(li.wordStart[w+1]) - 1 // the NUL before the next word
	}
	return docs
}

// forEachQueryWord calls fn with each maximal run of letters and digits in
// q, and whether another character comes before it (left) and after it
// (right) in q.
func forEachQueryWord(q string, fn func(w string, left, right bool)) {
	start := -1
	for i := 0; i < len(q); {
		r, size := rune(q[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(q[i:])
		}
		if isAlnum(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(q[start:i], start > 0, true)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(q[start:], start > 0, false)
	}
}

// findSlow is find for a query holding a NUL byte, which the NUL-separated
// text cannot answer: it compares field by field.
func (li *literalIndex) findSlow(q string, s *scratch) {
	for d, t := range li.tools {
		c := t.CLI
		for i, f := range append([]string{t.Tool.Name, t.Tool.Description, c.Name, c.Category}, c.Tags...) {
			if strings.Contains(strings.ToLower(f), q) {
				s.touch(int32(d))
				s.flags[d] |= flagLiteral
				if i == 0 {
					s.flags[d] |= flagLitName
				}
				break
			}
		}
	}
}
