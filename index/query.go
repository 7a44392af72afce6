package index

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
)

// How a variant is related to the query term it stands for.
type variantKind uint8

const (
	viaExact variantKind = iota
	viaSynonym
	viaLonger   // a longer form: "config" for "conf"
	viaShorter  // a shorter form: "config" for "configuration"
	viaTypo     // a word a typo away
	viaAbbrev   // a word of the tools' names it abbreviates: "worktree" for "wt"
	viaFlag     // one of combined short flags: "-d" for "-fdx"
	viaLongFlag // a long flag for a short one: "--create" for "-c"
	viaCompound // the word joined with its neighbour: "worktree" for "work tree"
)

var variantKindNames = [...]string{"exact", "synonym", "longer form", "shorter form", "typo", "abbreviation", "one of the flags", "long flag", "compound"}

func (k variantKind) String() string { return variantKindNames[k] }

// variant is a term that counts as a match for a query term, with the
// weight of its score and how much it counts as a match of the term.
type variant struct {
	id    int32
	w     float32
	cover float32
	kind  variantKind
}

// queryTerm is a distinct word of a query: its stem, and the word as typed
// (lowercase), for typo lookups.
type queryTerm struct {
	term, raw string
	w         float32 // its weight: less in the clauses that set the scene
	// inFile: every use of the word in the query is in a file's name
	// ("go.mod", "package.json", "docker-compose.yml"). A file is what a
	// step acts on or where it happens, not the action: its words weigh
	// as the scene does, wherever they stand, and do not count towards
	// the name factor ("run the tests; the project has a go.mod" is
	// go_test, not go_mod_init).
	inFile bool
	// compounds are the stems of the word written together with the
	// word before or after it ("work tree", "one-line", "set up"), both
	// words counting: a tool may spell them as one (see variants).
	compounds []string
}

// queryTerms returns the distinct words of query without stop words and
// numbers (unless that would leave none), at most [MaxQueryTerms] of them,
// from the first [MaxQueryBytes] bytes of query.
func queryTerms(query string) []queryTerm {
	query = withoutStepMarker(truncate(query, MaxQueryBytes))
	var terms, rest []queryTerm
	add := func(list []queryTerm, t queryTerm) []queryTerm {
		if i := slices.IndexFunc(list, func(q queryTerm) bool { return q.term == t.term }); i >= 0 {
			list[i].w = max(list[i].w, t.w)
			list[i].inFile = list[i].inFile && t.inFile
		} else if len(list) < MaxQueryTerms {
			list = append(list, t)
		}
		return list
	}
	cut := lastClause(query)
	words := func(part string, w float32) {
		prev := ""   // the previous word, when it counts
		prevAt := -1 // … and its index in terms
		for _, field := range strings.Fields(part) {
			inFile := isFileName(field)
			tokenize(field, func(tok []byte) {
				t := queryTerm{term: stem(string(tok)), raw: string(tok), w: w, inFile: inFile}
				if isStopWord(t.raw) || isNumber(t.term) {
					rest = add(rest, t)
					prev, prevAt = "", -1
					return
				}
				terms = add(terms, t)
				at := slices.IndexFunc(terms, func(q queryTerm) bool { return q.term == t.term })
				if prev != "" && at >= 0 && prevAt >= 0 {
					c := stem(prev + t.raw)
					terms[at].compounds = append(terms[at].compounds, c)
					terms[prevAt].compounds = append(terms[prevAt].compounds, c)
				}
				prev, prevAt = t.raw, at
			})
		}
	}
	words(query[:cut], contextWeight)
	n := len(terms)
	words(query[cut:], 1)
	if len(terms) == n { // the last clause has no words that count: no context
		for i := range terms {
			terms[i].w = 1
		}
	}
	onlyFiles := !slices.ContainsFunc(terms, func(t queryTerm) bool { return !t.inFile })
	for i := range terms {
		switch {
		case onlyFiles: // a query of file names alone is about them
			terms[i].inFile = false
		case terms[i].inFile:
			terms[i].w *= contextWeight
		}
	}
	if len(terms) == 0 {
		for i := range rest {
			rest[i].w = 1
		}
		return rest
	}
	return terms
}

// stepMarkers are the words that open a step of a plan ("First, I need
// to...", "Next, check...", "Finally, push..."): they say when, not what.
var stepMarkers = []string{"first", "next", "finally", "afterwards", "lastly", "second", "third"}

// withoutStepMarker returns query without the step marker it opens with
// (see stepMarkers), if any.
func withoutStepMarker(query string) string {
	word, rest, _ := strings.Cut(strings.TrimLeft(query, " \t\n"), " ")
	if rest != "" && slices.Contains(stepMarkers, strings.ToLower(strings.TrimRight(word, ",:"))) {
		return rest
	}
	return query
}

// lastClause returns where the last clause of query starts: after the last
// ";", ",", ":", ".", "!" or "?" followed by a space, 0 when there is none.
// A query that sets the scene first says what it wants last ("the image is
// built; push it to the registry").
func lastClause(query string) int {
	q := strings.TrimRight(query, " \t\n.!?")
	for i := len(q) - 2; i >= 0; i-- {
		if strings.IndexByte(";,:.!?", q[i]) >= 0 && (q[i+1] == ' ' || q[i+1] == '\t' || q[i+1] == '\n') {
			return i + 1
		}
	}
	return 0
}

// isFileName reports whether a word of a query, as written between
// spaces, names a file: its last path element is two characters or more,
// a dot and an extension of one to five lowercase letters or digits, at
// least one a letter ("go.mod", "Cargo.toml", "docker-compose.yml",
// "src/lib.rs"), or a dot and lowercase letters or digits (".gitignore");
// not a version ("v1.2"), an abbreviation ("e.g.") nor a domain in a path
// ("github.com/google/uuid").
func isFileName(field string) bool {
	field = strings.TrimRight(field, ",;:!?)]}'\"`")
	field = strings.TrimRight(field, ".")
	base := field[strings.LastIndexByte(field, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	switch ext := len(base) - dot - 1; {
	case dot < 0 || ext < 1 || ext > 16:
		return false
	case dot == 1 || dot > 1 && ext > 5: // "e.g", "v1.2.0-beta.12345678"
		return false
	}
	letter := false
	for _, c := range []byte(base[dot+1:]) {
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// truncate returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// isNumber reports whether t is all digits: version numbers and counts in
// a query ("v1.2.0", "last 5 commits") say nothing about which tool fits.
func isNumber(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return t != ""
}

// variants appends to vs the terms of the index that match query term t,
// the exact term first. typoOK allows typo corrections when the index
// lacks the word.
func (r *ranker) variants(vs []variant, s *scratch, t queryTerm, typoOK bool) []variant {
	if isFlag(t.term) {
		return r.flagVariants(vs, t.term)
	}
	exact, ok := r.termID[t.term]
	if ok {
		vs = append(vs, variant{exact, 1, 1, viaExact})
	}
	for _, c := range t.compounds {
		if id, ok := r.termID[c]; ok && !r.isStop[id] && c != t.term {
			vs = append(vs, variant{id, compoundWeight, 1, viaCompound})
		}
	}
	for _, syn := range synonyms()[t.term] {
		if id, ok := r.termID[syn]; ok && !r.isStop[id] {
			vs = append(vs, variant{id, synonymWeight, synonymCover, viaSynonym})
		}
	}
	// Three letters are too short to stand for a longer word ("tar" is not
	// "target", "log" not "login").
	if len(t.term) >= 4 {
		i, _ := slices.BinarySearch(r.vocab, t.term)
		for n := 0; i < len(r.vocab) && n < maxPrefixes && strings.HasPrefix(r.vocab[i], t.term); i++ {
			if id := r.termID[r.vocab[i]]; r.vocab[i] != t.term && !r.isStop[id] {
				vs = append(vs, variant{id, prefixWeight, prefixCover, viaLonger})
				n++
			}
		}
		for k := len(t.term) - 1; k >= minShorterForm; k-- {
			if id, ok := r.termID[t.term[:k]]; ok && !r.isStop[id] {
				vs = append(vs, variant{id, prefixWeight, prefixCover, viaShorter})
				break
			}
		}
	}
	if !ok && len(t.raw) < minTypoLen {
		// Too short for typo corrections, but two letters swapped in a
		// program's name are still that program ("gti" for git).
		if id, found := r.swappedProgram(t.raw); found {
			vs = append(vs, variant{id, typoWeight, typoCover, viaTypo})
		}
	}
	if !ok && typoOK {
		s.typos = r.typos.lookup(s.typos[:0], t.raw,
			func(id int32) int { return int(r.df[id]) },
			func(id int32) bool { return r.isStop[id] })
		for _, m := range s.typos {
			w := float32(typoWeight)
			if m.dist > 1 {
				w = typoWeight2
			}
			vs = append(vs, variant{m.term, w, typoCover, viaTypo})
		}
	}
	if !ok && len(vs) == 0 && typoOK {
		// Nothing else: maybe an abbreviation.
		terms, n := r.abbrevs().lookup(t.raw)
		for _, id := range terms[:n] {
			if !r.isStop[id] {
				vs = append(vs, variant{id, abbrevWeight, abbrevCover, viaAbbrev})
			}
		}
	}
	return vs
}

// swappedProgram returns the term of the loaded program whose name is w
// with two neighbouring letters swapped, if there is one.
func (r *ranker) swappedProgram(w string) (int32, bool) {
	b := []byte(w)
	for i := 0; i+1 < len(b); i++ {
		if b[i] == b[i+1] {
			continue
		}
		b[i], b[i+1] = b[i+1], b[i]
		name := string(b)
		b[i], b[i+1] = b[i+1], b[i]
		if r.programs[name] {
			if id, ok := r.termID[name]; ok {
				return id, true
			}
		}
	}
	return 0, false
}

// queryIDs returns the term IDs of the words of the first
// [MaxQueryBytes] bytes of query, stop words included, -1 for a word the
// index lacks, in s.ids.
func (r *ranker) queryIDs(query string, s *scratch) []int32 {
	ids := s.ids[:0]
	tokenize(truncate(query, MaxQueryBytes), func(tok []byte) {
		id, ok := r.termID[stem(string(tok))]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	})
	s.ids = ids
	return ids
}

// findPhrases adds to the score of every tool whose keyword phrase the
// query holds, as consecutive words (ids, see queryIDs), its bonus (the
// largest, when it has several).
func (r *ranker) findPhrases(ids []int32, s *scratch, ex *explainer) {
	if r.maxPhraseLen == 0 {
		return
	}
	key := s.key[:0]
	for i := range ids {
		key = key[:0]
		for j := i; j < len(ids) && j-i < r.maxPhraseLen && ids[j] >= 0; j++ {
			key = binary.LittleEndian.AppendUint32(key, uint32(ids[j]))
			if j == i {
				continue
			}
			for _, p := range r.phrases[string(key)] {
				if s.acc[p.doc] == 0 {
					continue // only tools that matched a term: the phrase's words are terms
				}
				if p.bonus > s.phrase[p.doc] {
					s.acc[p.doc] += p.bonus - s.phrase[p.doc]
					s.phrase[p.doc] = p.bonus
					if ex != nil {
						ex.keyword(p.doc, ids[i:j+1], p.bonus)
					}
				}
			}
		}
	}
	s.key = key
}

// projectWords are the words a query uses for the caller's project itself
// ("build the project", "test this repo", "format the code"). With a
// project hint they name what the hint already says, and only set apart
// the tools of other programs that happen to mention projects.
var projectWords = map[string]bool{"project": true, "repo": true, "repository": true, "codebase": true, "code": true, "app": true}

// withoutProjectWords returns terms without [projectWords], unless that
// leaves none.
func withoutProjectWords(terms []queryTerm) []queryTerm {
	rest := slices.DeleteFunc(slices.Clone(terms), func(t queryTerm) bool { return projectWords[t.raw] || projectWords[t.term] })
	if len(rest) == 0 {
		return terms
	}
	return rest
}

// isParticiple reports whether tok looks like a past participle
// ("formatted", "tracked", "installed"): a word of at least five letters
// ending in "ed".
func isParticiple(tok string) bool {
	return len(tok) >= 5 && strings.HasSuffix(tok, "ed")
}

// negatedProgramFactor is the score factor of the tools of a program a
// query rules out ("not k8s").
const negatedProgramFactor = 0.5

// negatedFactors returns the score factor of each CLI (by number) for a
// query that rules out the CLIs of negated.
func (r *ranker) negatedFactors(negated []int32) []float64 {
	out := make([]float64, len(r.cliProgram))
	for i := range out {
		out[i] = 1
	}
	for _, c := range negated {
		out[c] = negatedProgramFactor
	}
	return out
}

// withoutNegated returns terms without the words that a clause of query
// says not to use — "not git blame", "instead of docker", "rather than
// rg" — when the first of them names a loaded CLI (its name or one of its
// tags: "not a kubernetes pod") other than those the rest of the query
// names, and the CLIs ruled out. A request that picks one program over
// another ("docker (local, not k8s): logs of container api") is not about
// the other one's tools. A query that names no program outside the
// negation is left alone: "could not compile" in an error message rules
// nothing out, and neither does a program's name that qualifies a past
// participle, or a participle that stems to a program's tag: files "not
// gofmt formatted" and files "that are not formatted" (gofmt's tag is
// format) are what is asked for. Words the
// query also uses elsewhere stay; so does everything when that would
// leave nothing.
func (r *ranker) withoutNegated(terms []queryTerm, query string) ([]queryTerm, []int32) {
	query = truncate(query, MaxQueryBytes)
	var negated []int32
	positive := map[int32]bool{} // CLIs named outside negations
	drop := map[string]int{}     // stem → negated uses
	uses := map[string]int{}     // stem → all uses
	for _, clause := range strings.FieldsFunc(query, func(c rune) bool { return strings.ContainsRune(",;:()[]{}.!?\n", c) }) {
		var toks []string
		tokenize(clause, func(tok []byte) { toks = append(toks, string(tok)) })
		after := -1
		for i, tok := range toks {
			uses[stem(tok)]++
			switch {
			case after >= 0:
			case tok == "not", tok == "instead" && i+1 < len(toks) && toks[i+1] == "of",
				tok == "rather" && i+1 < len(toks) && toks[i+1] == "than":
				after = i + 1
				if tok != "not" {
					after++
				}
			}
		}
		outside := toks
		if after >= 0 {
			outside = toks[:after]
		}
		for _, t := range outside {
			for _, c := range r.cliWords[stem(t)] {
				positive[c] = true
			}
		}
		if after < 0 {
			continue
		}
		rest := toks[min(after, len(toks)):]
		first := slices.IndexFunc(rest, func(t string) bool { return !isStopWord(t) })
		if first < 0 {
			continue
		}
		clis := r.cliWords[stem(rest[first])]
		if len(clis) == 0 || isParticiple(rest[first]) || first+1 < len(rest) && isParticiple(rest[first+1]) {
			continue
		}
		negated = append(negated, clis...)
		for _, t := range rest {
			drop[stem(t)]++
		}
	}
	negated = slices.DeleteFunc(negated, func(c int32) bool { return positive[c] })
	if len(negated) == 0 || len(positive) == 0 {
		return terms, nil
	}
	kept := slices.DeleteFunc(slices.Clone(terms), func(t queryTerm) bool { return drop[t.term] > 0 && drop[t.term] == uses[t.term] })
	if len(kept) == 0 {
		return terms, negated
	}
	return kept, negated
}

// avoidWeight is the weight of the words of what a query says to avoid
// ("without creating a tag", "instead of making a new one").
const avoidWeight = 0.5

// avoided lowers the weight of the query terms that query uses only after
// "without", "instead of" or "rather than" in a clause: they say what
// must not happen, and a tool that does it is the opposite of the one
// asked for ("bump the version without creating a git tag" is not
// git_tag_create).
func avoided(terms []queryTerm, query string) {
	query = truncate(query, MaxQueryBytes)
	var clauses [][]string
	some := false // a clause says what to avoid
	for _, clause := range strings.FieldsFunc(query, func(c rune) bool { return strings.ContainsRune(",;:()[]{}.!?\n", c) }) {
		var toks []string
		tokenize(clause, func(tok []byte) {
			toks = append(toks, string(tok))
			some = some || string(tok) == "without" || string(tok) == "instead" || string(tok) == "rather"
		})
		clauses = append(clauses, toks)
	}
	if !some {
		return // most queries: nothing to stem twice
	}
	in, uses := map[string]int{}, map[string]int{}
	for _, toks := range clauses {
		after := len(toks)
		for i, tok := range toks {
			uses[stem(tok)]++
			switch {
			case i >= after:
				in[stem(tok)]++
			case tok == "without":
				after = i + 1
			case (tok == "instead" && i+1 < len(toks) && toks[i+1] == "of") || (tok == "rather" && i+1 < len(toks) && toks[i+1] == "than"):
				after = i + 2
			}
		}
	}
	for i, t := range terms {
		if in[t.term] > 0 && in[t.term] == uses[t.term] {
			terms[i].w *= avoidWeight
		}
	}
}
