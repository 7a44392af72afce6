package index

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file holds the text analysis shared by indexing and querying:
// tokenising, light stemming, query stop words and synonyms. Documents and
// queries go through the same functions, so a word form normalised one way
// is normalised the same way on both sides.

// tokenize calls fn with each lowercase token of s. Tokens are runs of
// letters and digits; they are split at every other character (so "_", "-",
// ".", ":", "/", whitespace and punctuation separate words) and at case
// changes: "dockerPs" gives "docker", "ps" and "HTTPServer" gives "http",
// "server". Digits stay with the letters around them ("ipv6", "k8s").
//
// The token passed to fn is only valid during the call.
func tokenize(s string, fn func(tok []byte)) {
	tokenizeBuf(s, nil, fn)
}

// tokenizeBuf is tokenize using buf as working space; it returns buf,
// possibly grown, for the next call.
func tokenizeBuf(s string, buf []byte, fn func(tok []byte)) []byte {
	buf = buf[:0]
	var prev rune // previous letter or digit in the current token; 0 at a boundary
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && asciiClass[c] != asciiUpper {
			// The common case, on its own: a separator, or a lowercase
			// letter or digit, which needs no case split.
			i++
			if asciiClass[c] == asciiOther {
				if len(buf) > 0 {
					fn(buf)
					buf = buf[:0]
				}
				prev = 0
			} else {
				buf = append(buf, c)
				prev = rune(c)
			}
			continue
		}
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if !isAlnum(r) {
			if len(buf) > 0 {
				fn(buf)
				buf = buf[:0]
			}
			prev = 0
			continue
		}
		if prev != 0 && isUpper(r) {
			split := !isUpper(prev) // fooBar: split before B
			if !split && i < len(s) {
				next, _ := utf8.DecodeRuneInString(s[i:])
				split = unicode.IsLower(next) && !pluralS(s[i:]) // HTTPServer: split before S; not TODOs, PRs
			}
			if split && len(buf) > 0 {
				fn(buf)
				buf = buf[:0]
			}
		}
		prev = r
		if r < utf8.RuneSelf {
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			buf = append(buf, byte(r))
		} else {
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		}
	}
	if len(buf) > 0 {
		fn(buf)
	}
	return buf
}

// Classes of ASCII bytes for tokenizeBuf.
const (
	asciiOther = iota // a separator
	asciiLower        // a lowercase letter or a digit
	asciiUpper        // an uppercase letter
)

var asciiClass = func() (class [utf8.RuneSelf]uint8) {
	for c := range class {
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			class[c] = asciiLower
		case 'A' <= c && c <= 'Z':
			class[c] = asciiUpper
		}
	}
	return class
}()

func isAlnum(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.IsUpper(r)
}

// analyze returns the stemmed terms of s, in order, duplicates kept.
func analyze(s string) []string {
	var terms []string
	tokenize(s, func(tok []byte) { terms = append(terms, stem(string(tok))) })
	return terms
}

// stem removes common English inflections from a lowercase token, lightly:
// plurals ("branches" → "branch", "dependencies" → "dependency"), "-ing"
// and "-ed", a doubled final consonant ("running" → "run") and a final
// silent "e" ("image", "images" and "imaging" all give "imag"). Tokens of
// three letters or fewer, and tokens with anything but ASCII letters, are
// returned as they are. Words ending in "ss", "us" and "is" ("process",
// "status", "analysis") are not taken for plurals.
//
// The stems are not always words; they only need to be the same for the
// forms of a word that a query and a description would use.
func stem(w string) string {
	if len(w) <= 3 || !isASCIILower(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6 && hasVowel(w[:len(w)-3]):
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && len(w) >= 5 && hasVowel(w[:len(w)-2]):
		w = w[:len(w)-2]
		if strings.HasSuffix(w, "i") {
			w = w[:len(w)-1] + "y" // copied → copy
		}
	}
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		w = w[:n-1] // running → run, committed → commit, diff → dif
	}
	if n := len(w); n > 3 && w[n-1] == 'e' && w[n-2] != 'e' {
		w = w[:n-1] // image → imag, tree stays
	}
	return w
}

// pluralS reports whether s, the rest of a token after an uppercase
// letter, is only the "s" of a plural: "TODOs", "PRs", "URLs" are words,
// not "TOD" and "Os".
func pluralS(s string) bool {
	return len(s) > 0 && s[0] == 's' && (len(s) == 1 || !unicode.IsLetter(rune(s[1])))
}

func isASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func hasVowel(s string) bool {
	return strings.ContainsAny(s, "aeiouy")
}

// stopWords are query words too common to say anything about a tool, as
// written (lowercase, not stemmed: "note" stems to "not", which is no stop
// word). They are dropped from queries (unless a query has nothing else),
// so that a query whose only overlap with a tool is a stop word does not
// find it, and they do not form phrases in documents. Single letters are
// stop words too ("it's" gives "it" and "s").
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the to of for in on at by with from into onto
		and or but nor so yet my me mine i is it its this that these those be been being are
		was were am do does did done have has had can could would should will shall may might
		must please some any all your you we our us let lets want wants wanted what whats how
		much many which where there here another other need needs needed no not such thing
		things stuff something anything everything just now then also very really again still
		already actually maybe ok okay hey hi thanks thank about like when while after before
		right exactly quickly don doesn didn isn aren wasn won cant ll ve re im ive`) {
		m[w] = true
	}
	return m
})

// isStopWord reports whether tok, a lowercase token as written, is a stop
// word.
func isStopWord(tok string) bool {
	return len(tok) == 1 || stopWords()[tok]
}

// synonymGroups are sets of words an agent may use for one another. A
// query term also matches the other members of its groups, at
// [synonymWeight]. The groups are deliberately small and general.
var synonymGroups = [][]string{
	{"delete", "remove", "rm", "erase", "del", "destroy", "drop", "gone", "rid"},
	{"list", "ls", "show", "enumerate"},
	{"show", "display", "view", "see"},
	{"show", "print", "display", "echo"},
	{"download", "fetch", "pull", "retrieve"},
	{"upload", "push", "publish"},
	{"repo", "repository"},
	{"commit", "revision", "rev", "changeset"},
	{"history", "log"},
	{"log", "output"},
	{"recent", "latest", "newest", "last"},
	{"old", "older", "previous", "earlier"},
	{"branch", "bookmark"},
	{"diff", "difference", "compare"},
	{"dependency", "dep", "deps", "requirement"},
	{"package", "pkg"},
	{"run", "execute", "exec", "launch", "start"},
	{"stop", "kill", "terminate", "halt"},
	{"create", "new", "init", "initialize"},
	{"search", "find", "grep", "lookup", "locate"},
	{"build", "compile", "built"},
	{"directory", "folder", "dir"},
	{"config", "configuration", "settings", "preferences", "cfg", "conf"},
	{"info", "information", "details", "describe", "inspect", "metadata"},
	{"http", "https", "url", "web"},
	{"archive", "tarball", "tar", "zip", "tgz"},
	{"extract", "unpack", "decompress", "untar", "unzip"},
	{"compress", "pack", "zip"},
	{"database", "db"},
	{"copy", "cp", "duplicate"},
	{"move", "rename", "mv"},
	{"environment", "env"},
	{"format", "fmt", "reformat", "prettify", "pretty", "indent"},
	{"lint", "linter", "vet"},
	{"update", "upgrade", "bump"},
	{"undo", "revert", "restore", "rollback"},
	{"process", "ps", "proc"},
	{"clean", "cleanup", "prune", "purge"},
	{"status", "state"},
	{"tag", "label"},
	{"document", "doc", "docs", "documentation"},
	{"cancel", "abort"},
	{"hash", "sha", "digest"},
	{"change", "modification", "modify", "edit"},
	{"stash", "shelve"},
	{"broken", "dead", "unresolved"},
	{"error", "failure", "fail"},
	// Abbreviations.
	{"kubernetes", "k8s", "kube"},
	{"javascript", "js", "node"},
	{"golang", "go"},
	{"postgres", "postgresql", "psql", "pg"},
	{"vulnerability", "vuln", "cve"},
	{"image", "img"},
	{"context", "ctx"},
	{"service", "svc"},
	{"namespace", "ns"},
	{"memory", "mem", "ram"},
	{"command", "cmd"},
	{"message", "msg"},
	{"container", "ctr"},
	{"volume", "vol"},
	{"variable", "var", "vars"},
	{"argument", "arg", "args"},
	{"credential", "creds", "cred"},
	{"permission", "perms", "perm"},
	{"authentication", "auth", "login"},
	{"library", "lib"},
	{"version", "ver"},
	{"temporary", "tmp", "temp"},
	{"statistics", "stats"},
	{"deployment", "deploy"},
}

// synonyms maps a stemmed word to the stemmed other members of its
// groups; built at the first search, not at every start.
var synonyms = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		for _, w := range g {
			sw := stem(w)
			for _, o := range g {
				if so := stem(o); so != sw && !slices.Contains(m[sw], so) {
					m[sw] = append(m[sw], so)
				}
			}
		}
	}
	return m
})
