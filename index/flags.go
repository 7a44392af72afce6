package index

import (
	"slices"
	"strings"
)

// This file holds flags: a query that writes a program's options ("git
// switch -c topic", "git clean -fdx", "--sort=-v:refname") matches the
// tools whose args or command pass them. A config usually names an
// option by its long form ("--create") where people type the short one
// ("-c"), so a short flag also matches the long flags that begin with its
// letter, at a lower weight: the usual pairing of the two forms (-c
// --create, -l --list, -f --force), which the other words of the query
// then pick among.

const (
	flagLongWeight = float32(0.5) // a long flag for a short one: "--create" for "-c"
	flagLongCover  = float32(0.8) // … how much it counts as a match
	maxFlagLetters = 4            // "-czvf": longer single-dash words are options of their own ("-name")
	maxLongFlags   = 16           // long flags tried per letter
)

// eachFlag calls fn with each option written in s: a word that starts
// with "-" or "--" and then a letter, lowercase and cut at "=" or the
// first character other than a letter, digit or "-" ("--create=" →
// "--create", "-n1" → "-n1", "--sort=-v:refname" → "--sort").
func eachFlag(s string, fn func(flag string)) {
	if strings.IndexByte(s, '-') < 0 {
		return
	}
	for w := range strings.FieldsSeq(s) {
		dashes := len(w) - len(strings.TrimLeft(w, "-"))
		if dashes < 1 || dashes > 2 || len(w) == dashes || !isLetter(w[dashes]) {
			continue
		}
		end := dashes
		for end < len(w) && (isLetter(w[end]) || w[end] >= '0' && w[end] <= '9' || w[end] == '-') {
			end++
		}
		fn(strings.ToLower(w[:end]))
	}
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// queryFlags returns the options written in query as query terms, after
// terms, at most [MaxQueryTerms] in all.
func queryFlags(terms []queryTerm, query string) []queryTerm {
	eachFlag(truncate(query, MaxQueryBytes), func(f string) {
		if len(terms) < MaxQueryTerms && !slices.ContainsFunc(terms, func(t queryTerm) bool { return t.term == f }) {
			terms = append(terms, queryTerm{term: f, raw: f, w: contextWeight})
		}
	})
	return terms
}

// flagVariants appends to vs the flags of the index that match flag, a
// query's option: itself, and for a short flag ("-c") the long flags
// that begin with its letter ("--create"). Combined short flags ("-fdx")
// stand for each of their letters, unless a tool has them as one option
// (find's "-name"). A query's short flag that a tool also has ("-c")
// still matches the long ones, at their lower weight.
func (r *ranker) flagVariants(vs []variant, flag string) []variant {
	id, ok := r.termID[flag]
	if ok {
		vs = append(vs, variant{id, 1, 1, viaExact})
	}
	if strings.HasPrefix(flag, "--") || len(flag) > 1+maxFlagLetters || !allLetters(flag[1:]) || ok && len(flag) > 2 {
		return vs
	}
	for _, c := range []byte(flag[1:]) {
		short := "-" + string(c)
		if id, ok := r.termID[short]; ok && !containsVariant(vs, id) {
			vs = append(vs, variant{id, 1, 1, viaFlag})
		}
		long := "--" + string(c)
		i, _ := slices.BinarySearch(r.vocab, long)
		for n := 0; i < len(r.vocab) && n < maxLongFlags && strings.HasPrefix(r.vocab[i], long); i++ {
			if id := r.termID[r.vocab[i]]; !containsVariant(vs, id) {
				vs = append(vs, variant{id, flagLongWeight, flagLongCover, viaLongFlag})
				n++
			}
		}
	}
	return vs
}

func containsVariant(vs []variant, id int32) bool {
	return slices.ContainsFunc(vs, func(v variant) bool { return v.id == id })
}

// maxCommandWords is the most words a keyword that names options has: a
// command line ("make -n", "checkout -b"), not an error message that
// mentions one ("is a merge but no -m option was given").
const maxCommandWords = 3

// isCommandLine reports whether a keyword is short enough to be a command
// line whose options a tool passes (see maxCommandWords).
func isCommandLine(kw string) bool {
	n := 0
	for range strings.FieldsSeq(kw) {
		if n++; n > maxCommandWords {
			return false
		}
	}
	return true
}

// isFlag reports whether a query term is an option (see eachFlag).
func isFlag(term string) bool { return strings.HasPrefix(term, "-") }

// splitCommand splits a tool's command into its subcommand words ("rollout
// undo", "stash show") and its options with their values ("--rm
// --entrypoint sh", "-c core.hooksPath=/dev/null", "--output json"). An
// option written without "=" takes the word after it as its value,
// unless that word is an option too.
func splitCommand(cmd string) (sub, opts string) {
	var s, o []string
	value := false // the previous word was an option that may take a value
	for w := range strings.FieldsSeq(cmd) {
		switch {
		case strings.HasPrefix(w, "-"):
			o = append(o, w)
			value = !strings.Contains(w, "=")
		case value || strings.Contains(w, "="):
			o = append(o, w)
			value = false
		default:
			s = append(s, w)
		}
	}
	return strings.Join(s, " "), strings.Join(o, " ")
}
