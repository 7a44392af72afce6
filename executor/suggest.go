package executor

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// This file holds the weaker guesses of [SuggestArgFor]: what a name that
// is neither another spelling, a misspelling nor a common alias of an
// argument may stand for. Each guess counts only when exactly one
// argument fits it (two fitting equally say nothing) and, when the value
// is known, only among the arguments that take a value of its JSON type
// (a path sent as a string is no boolean switch's value, a number no
// path). The working-directory argument is left to the aliases:
// "output_dir" is no working directory.

// maxGuessedName bounds the names the weaker guesses look at (in bytes):
// a longer key is no abbreviation and splitting it costs for nothing.
const maxGuessedName = 64

// guessArg returns the argument of t that name probably stands for by
// the first of these rules that exactly one argument fits, or "":
//
//   - the name is the argument's option without its dashes: "o" for
//     flag -o, "one_top_level" for --one-top-level=;
//   - the name is the argument's cut short to at least 3 letters ("dest"
//     for destination, "out" for output), or the argument's with at most
//     two letters more ("outputs");
//   - one name abbreviates the other: the same first two letters and
//     last letter, the shorter's letters (at least 3) in order in the
//     longer, which is at most three times as long ("vars" for
//     variables and back);
//   - the name contracts the argument's, a single word: at least 3
//     letters, fewer than it has, the same first letter, then only
//     consonants, all in order in the argument's and at least half as
//     many as it has after its first letter ("pkg" for package, "cfg"
//     for config: the vowels dropped, as such abbreviations do); a
//     name that is a synonym of some word ("src" is source's, not
//     service's) takes no part;
//   - the name's words (split at "_", "-" and camelCase, filler words
//     left out) are words of the argument's name or option (as in the
//     second rule, or a synonym: "target" and "into" for destination) or,
//     exactly, of the first clause of its description: "output_dir" for
//     a destination described as "Directory to extract into". A word in
//     the name or option counts twice one in the description, and at
//     least one shared word must say more than a kind of value ("dir",
//     "file", "name"): the best score must be one argument's alone.
//
// A generic name ("name", "file", "path") takes no part in the second,
// third and fourth rules.
func guessArg(t *config.Tool, name string, v any, typed bool) string {
	if len(name) > maxGuessedName || name == "" {
		return ""
	}
	var cands []*config.Arg
	for i := range t.Args {
		a := &t.Args[i]
		if a.Cwd {
			continue
		}
		if typed && !fitsType(a, v) {
			continue
		}
		cands = append(cands, a)
	}
	n := normalize(name)
	// A generic name ("name", "file") starts or abbreviates too many
	// others to stand for them: "name" is not kubectl's namespace.
	generic := slices.Contains(genericWords, n)
	rules := []func(a *config.Arg) bool{
		func(a *config.Arg) bool { return isOptionOf(name, a.Flag) },
		func(a *config.Arg) bool { return !generic && isPrefixName(n, normalize(a.Name)) },
		func(a *config.Arg) bool { return !generic && abbreviates(n, normalize(a.Name)) },
		func(a *config.Arg) bool { return !generic && contracts(n, a.Name) },
	}
	for _, fits := range rules {
		if a := only(cands, fits); a != nil {
			return a.Name
		}
	}
	return byWords(cands, name)
}

// otherTypeArg returns the argument of t that name clearly stands for
// although value v is not of its type, or nil: the one argument (never
// the cwd one) that has name, one word and not a generic one, as a whole
// word of its own name ("vet" for skip_vet, a boolean, sent as "off"); a
// null value has no type to differ.
// The weaker guesses of [SuggestArgFor] leave such an argument out, as
// they look at the arguments of v's type only; a whole word of the name
// is clear enough to be named with its type ([IgnoredArg].DidYouMeanType).
func otherTypeArg(t *config.Tool, name string, v any) *config.Arg {
	keys := words(name)
	if v == nil || len(name) > maxGuessedName || len(keys) != 1 || normalize(name) != keys[0] || slices.Contains(genericWords, keys[0]) {
		return nil
	}
	var found *config.Arg
	for i := range t.Args {
		a := &t.Args[i]
		if a.Cwd || !slices.Contains(words(a.Name), keys[0]) {
			continue
		}
		if found != nil {
			return nil
		}
		found = a
	}
	if found == nil || fitsType(found, v) {
		return nil
	}
	return found
}

// fitsType reports whether v is a value of a's type as sent, not only
// one that converts to it: a string for a string, a number (or a string
// holding one) for a number, a boolean for a boolean (a json argument
// takes any), so that a number sent as "limit" is not taken for a path.
func fitsType(a *config.Arg, v any) bool {
	if a.Type == config.TypeJSON {
		return true
	}
	if a.Type == config.TypeArray {
		if list, ok := v.([]any); ok {
			return len(list) == 0 || fitsItem(a.ItemType(), list[0])
		}
	}
	return fitsItem(a.ItemType(), v)
}

func fitsItem(typ config.ArgType, v any) bool {
	switch v.(type) {
	case string:
		if typ == config.TypeInteger || typ == config.TypeNumber {
			_, err := coerce(typ, v) // a number sent as text ("5")
			return err == nil
		}
		return typ == config.TypeString || typ == ""
	case bool:
		return typ == config.TypeBoolean
	case float64, json.Number, int, int64:
		return typ == config.TypeInteger || typ == config.TypeNumber
	}
	return false
}

// only returns the one argument of cands that fits, or nil when none or
// several do.
func only(cands []*config.Arg, fits func(*config.Arg) bool) *config.Arg {
	var found *config.Arg
	for _, a := range cands {
		if fits(a) {
			if found != nil {
				return nil
			}
			found = a
		}
	}
	return found
}

// isOptionOf reports whether name is the option of flag (its last word,
// "=" dropped) without its dashes: exactly, for a one-letter option (-o
// and -O differ), else in any spelling ([normalize]).
func isOptionOf(name, flag string) bool {
	words := strings.Fields(flag)
	if len(words) == 0 {
		return false
	}
	opt := strings.TrimSuffix(words[len(words)-1], "=")
	if !strings.HasPrefix(opt, "-") {
		return false
	}
	opt = strings.TrimLeft(opt, "-")
	if utf8.RuneCountInString(opt) == 1 {
		return name == opt
	}
	return opt != "" && normalize(opt) == normalize(name)
}

// isPrefixName reports whether the name n (normalized) and the argument
// name m start one with the other: n cut short ("dest" for destination,
// at least 3 letters), or m with at most two letters more ("outputs" for
// output; "format" is not kubectl's "for").
func isPrefixName(n, m string) bool {
	ln, lm := utf8.RuneCountInString(n), utf8.RuneCountInString(m)
	if ln <= lm {
		return ln >= 3 && strings.HasPrefix(m, n)
	}
	return lm >= 3 && ln-lm <= 2 && strings.HasPrefix(n, m)
}

// abbreviates reports whether the shorter of a and b (at least 3 letters)
// abbreviates the longer without being its start (that is
// [isPrefixName]'s case): the same first two letters and the same last
// one, its letters in order in the longer, which is at most three times
// as long ("vars" and variables; not "src" and service, "file" and
// filter, nor "for" and format).
func abbreviates(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(ra) < 3 || len(rb) > 3*len(ra) || ra[0] != rb[0] || ra[1] != rb[1] || ra[len(ra)-1] != rb[len(rb)-1] ||
		strings.HasPrefix(string(rb), string(ra)) {
		return false
	}
	i := 0
	for _, r := range rb {
		if i < len(ra) && r == ra[i] {
			i++
		}
	}
	return i == len(ra)
}

// contracts reports whether n (normalized) is a contraction of the
// argument name m: m is one word; n has at least 3 letters and fewer than
// m, starts with m's first letter and goes on with consonants only, in
// order in m, at least half as many as m has after its first letter
// ("pkg" for packages, "cfg" for config, "ctx" for context; not "tmp" for
// timestamps, "dry" for directory, nor "stn" for stack_name: the letters
// of a name of several words say less). A synonym of some word ("src"
// means source, never service; "rev" revision) contracts nothing;
// two-letter abbreviations ("db" for database) are [synonyms], since two
// letters in order fit too many names.
func contracts(n, m string) bool {
	if ws := words(m); len(ws) != 1 || ws[0] != normalize(m) {
		return false
	}
	rn, rm := []rune(n), []rune(normalize(m))
	if len(rn) < 3 || len(rn) >= len(rm) || rn[0] != rm[0] || isSynonym(n) {
		return false
	}
	i, consonants := 1, 0
	for _, r := range rm[1:] {
		if isConsonant(r) {
			consonants++
		}
		if i < len(rn) && r == rn[i] {
			i++
		}
	}
	tail := rn[1:]
	return i == len(rn) && !slices.ContainsFunc(tail, func(r rune) bool { return !isConsonant(r) }) && 2*len(tail) >= consonants
}

// isConsonant reports whether r is a lower-case ASCII letter other than
// a vowel ("y" counts as a consonant).
func isConsonant(r rune) bool {
	return r >= 'a' && r <= 'z' && !strings.ContainsRune("aeiou", r)
}

// isSynonym reports whether n is one of the [synonyms] of a word.
func isSynonym(n string) bool {
	for _, syns := range synonyms {
		if slices.Contains(syns, n) {
			return true
		}
	}
	return false
}

// byWords returns the argument of cands whose name, option and
// description share the most words with name (see [guessArg]), or ""
// when none shares one or two share equally many. A name whose only
// shared words are generic ones ("dir", "file", "name") says nothing.
func byWords(cands []*config.Arg, name string) string {
	keys := words(name)
	if len(keys) == 0 {
		return ""
	}
	// One short word is too weak a hint on its own to take from a
	// description.
	describedOK := len(keys) > 1 || utf8.RuneCountInString(keys[0]) >= 4
	best, bestScore, tie := "", 0, false
	for _, a := range cands {
		named := append(words(a.Name), words(a.Flag)...)
		var described []string
		if describedOK {
			described = words(headClause(a.Description))
		}
		score, specific := 0, false
		for _, k := range keys {
			hit := 0
			switch {
			case slices.ContainsFunc(named, func(w string) bool { return sameWord(k, w) }):
				hit = 2
			case slices.ContainsFunc(described, func(w string) bool { return k == w || k == w+"s" || w == k+"s" }):
				hit = 1
			}
			score += hit
			specific = specific || hit > 0 && !slices.Contains(genericWords, k)
		}
		if !specific {
			continue
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = a.Name, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// genericWords name a kind of value rather than a role: shared alone,
// they do not say which argument a name means ("output_dir" is not
// docker exec's workdir for "Directory inside the container").
var genericWords = []string{"data", "dir", "dirs", "directory", "folder", "file", "files", "path", "paths", "name", "names", "id", "ids", "type", "list", "string", "number", "flag", "option", "options", "arg", "args"}

// synonyms maps a word of an argument's name to other words a caller
// uses for it: "target_dir" and "into" for a destination. Only this way
// round: a caller's "target" is a destination, but a build target is not.
var synonyms = map[string][]string{
	"destination": {"dest", "target", "output", "out", "into"},
	"output":      {"out"},
	"source":      {"src", "from"},
	"directory":   {"dir", "folder"},
	"message":     {"msg"},
	// Two-letter abbreviations, too short for the contraction rule.
	"database":  {"db"},
	"namespace": {"ns"},
	// git's names for one commit: git_show's object is the others'
	// revision.
	"object":   {"revision", "rev", "commit"},
	"revision": {"rev", "commit", "object"},
}

// headClause is a description's first clause: up to its first ",", ";",
// ":", "." or "(" ("Directory to extract into, created if missing" is
// "Directory to extract into"): what the argument is, without the
// asides that mention other things ("(default: the image's WORKDIR)").
func headClause(d string) string {
	if i := strings.IndexAny(d, ",;:.("); i >= 0 {
		return d[:i]
	}
	return d
}

// sameWord reports whether a word k of a name and a word w of an
// argument's name or option are one word: equal, one the other with a
// plural "s", k cut short or w with a letter or two more ([isPrefixName]:
// "dir" for directory, not "extract" for ext), or k one of w's
// [synonyms].
func sameWord(k, w string) bool {
	return k == w || k == w+"s" || w == k+"s" || isPrefixName(k, w) || slices.Contains(synonyms[w], k)
}

// fillerWords are words too common to say which argument a name means.
var fillerWords = []string{
	"a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "as", "is", "it", "if", "or", "and", "not", "no",
	"be", "with", "from", "this", "that", "these", "those", "its", "all", "any", "each", "every", "only", "some",
	"default", "value", "values", "eg", "etc", "use", "used", "set", "get", "true", "false",
	"out", "up", "off", "over", "down", "via", "per",
}

// words splits s into lower-case words at every character that is not a
// letter or digit and between a lower-case letter and an upper-case one
// ("outputDir" is output and dir), leaving out one-letter words and
// [fillerWords].
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		w := strings.ToLower(string(cur))
		cur = cur[:0]
		if utf8.RuneCountInString(w) > 1 && !slices.Contains(fillerWords, w) {
			out = append(out, w)
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return out
}
