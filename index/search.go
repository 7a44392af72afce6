package index

import (
	"github.com/climax-mcp/climax/index/config"

	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// A searchField is one part of a tool that search looks at. Fields differ
// in weight: a word in a tool's name says more about it than the same word
// in an argument's description.
type searchField uint8

const (
	fieldName        searchField = iota // tool name
	fieldKeywords                       // the tool's search keywords
	fieldTags                           // CLI tags
	fieldCategory                       // CLI category
	fieldCLI                            // CLI name
	fieldCommand                        // subcommand words
	fieldDescription                    // tool description
	fieldCLIDesc                        // CLI description
	fieldArgs                           // argument names, descriptions and enum values
	numFields
)

// fieldNames name the fields in explanations.
var fieldNames = [numFields]string{"name", "keywords", "tags", "category", "cli", "command", "description", "cli description", "args"}

func (f searchField) String() string { return fieldNames[f] }

// Ranking parameters. fieldWeight and fieldB are the BM25F weight and
// length normalisation of each field.
var (
	// The fields a CLI gives all its tools (tags, category, description)
	// weigh less than a tool's own: they say which CLI fits, not which of
	// its tools, and a tool must not win over its sibling by a word that
	// both have from their CLI (go_list over go_build for "build the go
	// project", through go's category "build"). The CLI's name keeps its
	// weight: a query that names the program means it.
	fieldWeight = [numFields]float64{3, 2, 0.5, 0.5, 2, 1, 1, 0.3, 0.3}
	// Keywords and the fields a CLI gives all its tools are not
	// length-normalised: keywords are alternatives, not prose, and how
	// many tags or words of description a CLI has says nothing about
	// which of its tools fits, and must not favour the CLI with fewer.
	fieldB = [numFields]float64{0.5, 0, 0, 0, 0, 0.3, 0.75, 0, 0.75}
	// fieldCover is how much a term found only in the field counts
	// towards a tool matching the query's terms: words of the CLI's
	// tags, category or description, or of the arguments, do not make a
	// tool about them.
	fieldCover = [numFields]float32{1, 1, 0.5, 0.5, 1, 1, 1, 0.5, 0.35}
	// fieldPhrase marks the fields where two query words next to each
	// other score a bonus when they are next to each other in the field.
	fieldPhrase = [numFields]bool{fieldName: true, fieldKeywords: true, fieldTags: true, fieldCategory: true, fieldCLI: true, fieldDescription: true}
)

const (
	k1 = 2.0 // BM25 term-frequency saturation

	synonymWeight  = 0.6          // a synonym's score, relative to the word itself
	synonymCover   = 1            // how much a synonym counts as a match of the word
	prefixWeight   = 0.5          // a longer or shorter form's score ("config" / "configuration")
	prefixCover    = float32(0.7) // how much it counts as a match
	typoWeight     = float32(0.7) // a word one edit away from a query word that the index lacks
	typoWeight2    = float32(0.5) // … two edits away
	typoCover      = float32(0.9) // how much a correction counts as a match
	bigramWeight   = 0.5          // two query terms next to each other in a name, description, tags or keyword
	phraseWeight   = float32(0.5) // a keyword phrase found whole in the query, per word of it
	phraseStopWord = float32(0.5) // what a stop word in it counts for
	maxPhraseWords = 12           // longer keywords are not looked for as phrases
	maxPrefixes    = 16           // longer forms tried per query term
	minShorterForm = 5            // shortest shorter form a query term matches ("configuration" → "config", not "download" → "down")

	coverCommon = float32(0.5) // how much the most common word counts towards coverage, relative to the rarest
	// covExp softens the coverage factor: a tool that matches four of
	// five words, one of them in its name, is not worth a fifth less than
	// one that matches all five through its keywords.
	covExp = 0.7

	nameBoost = 0.75 // extra weight of query terms found in the tool's name or subcommand, by the fraction found there

	contextWeight = 0.7 // the weight of words before the last clause of a query

	minRelScore = 0.1  // results scoring less than this fraction of the best are left out, unless they contain the query
	tieRange    = 0.05 // scores within this fraction of each other count as equal when spreading results over CLIs

	literalBoost     = 1.2 // the whole query occurs literally in a searchable field
	literalNameBoost = 1.5 // … in the tool name
	exactNameBoost   = 3.0 // the query is the tool name
)

// Query limits: whatever its size, a query costs bounded time and memory.
const (
	// MaxQueryTerms is the number of distinct query words (stop words
	// aside) that ranking considers; later ones are ignored.
	MaxQueryTerms = 32
	// MaxQueryBytes is the length of the query text that ranking splits
	// into words; the rest is ignored. The literal substring match looks
	// at the whole query: a query longer than every tool's fields matches
	// none.
	MaxQueryBytes = 1024
)

// ranker orders tools by relevance to a query. It is built once by
// [newRanker] and read-only afterwards, so any number of goroutines may
// call rank at once; per-call scratch space comes from a sync.Pool.
//
// Ranking is BM25F over the fields above, using an inverted index from
// stemmed term to postings whose scores are computed at build time (they
// do not depend on the query). A query term also matches its synonyms,
// longer or shorter forms and, when the index lacks it, words a typo away,
// at a lower weight. A tool's summed score is scaled by the fraction of
// query terms it matches, so tools that match more of the query come
// first; a term found only in the CLI's description or in argument text,
// or only as a longer or shorter form, counts as partly matched. Adjacent
// query terms that are adjacent in the tool's name, keywords, tags or
// description add a bonus, and so does a keyword the query holds whole
// or, for a long one, mostly (see loose.go).
//
// Every tool whose searchable fields contain the query literally
// (case-insensitively) is found too, with the help of [literalIndex];
// such tools get a boost, and those that matched no term are ranked after
// all term matches.
type ranker struct {
	n          int
	cli        []int32  // by tool: its CLI, numbered in load order
	cliProgram []string // by CLI: the program its command runs (see ProgramName)
	// programs holds the (stemmed) words of the CLIs' names: a query word
	// naming a loaded program counts fully wherever it stands ("tar:
	// Error is not recoverable" is about tar, not about its scene).
	programs map[string]bool
	// cliWords maps the (stemmed) words of the CLIs' names and tags to
	// the CLIs that have them ("kubernetes" → kubectl), for the
	// programs a query says not to use.
	cliWords map[string][]int32

	termID   map[string]int32
	vocab    []string // all terms, sorted, for prefix lookups
	termOf   []string // all terms, by ID
	idf      []float32
	maxIDF   float32 // the idf of a term only one tool has
	df       []int32
	isStop   []bool      // by term ID: every form of the term is a stop word
	postings [][]posting // by term ID, in load order

	bigrams bigramIndex

	// phrases holds the keywords of two words or more, stop words
	// included, by their term IDs (4 bytes each, as a string), with the
	// tools that have them; a query that holds one scores a bonus.
	phrases      map[string][]phrasePosting
	maxPhraseLen int // the most words in one of them

	loose   looseIndex
	typos   typoIndex
	abbrevs func() *abbrevIndex // built at the first query that needs it
	lit     literalIndex
	tools   []*config.ResolvedTool // for explanations

	pool sync.Pool // *scratch
}

// A posting is one tool's score for one term.
type posting struct {
	doc   int32
	score float32
	cover float32 // the largest fieldCover of the fields holding the term
	named bool    // the term is in the tool's name or subcommand
}

// A phrasePosting is a tool that has a keyword phrase, and the phrase's
// bonus.
type phrasePosting struct {
	doc   int32
	bonus float32
}

// addPhrase records that tool d has the keyword of terms ids, when it has
// two words or more, at most [maxPhraseWords], and not only stop words. Its
// bonus grows with its words: a longer phrase says more.
func (r *ranker) addPhrase(d int32, ids []int32) {
	if len(ids) < 2 || len(ids) > maxPhraseWords {
		return
	}
	var bonus float32
	for _, id := range ids {
		if r.isStop[id] {
			bonus += phraseStopWord
		} else {
			bonus++
		}
	}
	if bonus < 1 {
		return
	}
	key := phraseKey(ids)
	ps := r.phrases[key]
	if n := len(ps); n > 0 && ps[n-1].doc == d {
		return
	}
	r.phrases[key] = append(ps, phrasePosting{d, phraseWeight * bonus})
	r.maxPhraseLen = max(r.maxPhraseLen, len(ids))
}

// phraseKey returns the map key of a sequence of term IDs.
func phraseKey(ids []int32) string {
	b := make([]byte, 0, 4*len(ids))
	for _, id := range ids {
		b = binary.LittleEndian.AppendUint32(b, uint32(id))
	}
	return string(b)
}

// idf is the BM25 inverse document frequency, always positive.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// scratch is the per-call working space of rank, indexed by tool.
type scratch struct {
	acc      []float32 // summed term scores
	cov      []float32 // query terms matched, weighted by how well
	best     []float32 // the current query term's best variant score
	bestVar  []int32   // … which variant gave it
	credit   []float32 // … and that variant's weight
	inName   []float32 // … and the best weight of a variant in its name
	named    []float32 // query terms found in the tool's name, weighted
	flags    []uint8
	touched  []int32 // tools with flagSeen, to rank and reset
	termHit  []int32 // tools with best > 0, for the current term
	cands    []candidate
	phrase   []float32 // the keyword phrase bonus added
	looseHit []uint8   // by long keyword: the query terms it holds
	looseKW  []int32   // the long keywords with looseHit > 0
	vs       []variant
	typos    []typoMatch
	ids      []int32
	key      []byte
}

const (
	flagSeen    = 1 << iota // in touched
	flagLiteral             // contains the query literally
	flagLitName             // … in its name
)

type candidate struct {
	score float64
	// strength is score scaled by the coverage once more (to the power
	// 2-covExp: coverage squared in all): what the floor of weak results
	// compares, so that a tool matching one word of several is noise even
	// when that word is rare.
	strength float64
	tier     int8 // 0: matched terms; 1: literal match only
	doc      int32
}

// better reports whether a ranks before b.
func better(a, b candidate) bool {
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.doc < b.doc
}

func newScratch(n int) *scratch {
	return &scratch{
		acc:     make([]float32, n),
		cov:     make([]float32, n),
		best:    make([]float32, n),
		bestVar: make([]int32, n),
		credit:  make([]float32, n),
		inName:  make([]float32, n),
		named:   make([]float32, n),
		phrase:  make([]float32, n),
		flags:   make([]uint8, n),
	}
}

func (s *scratch) touch(d int32) {
	if s.flags[d]&flagSeen == 0 {
		s.flags[d] |= flagSeen
		s.touched = append(s.touched, d)
	}
}

func (s *scratch) reset() {
	for _, d := range s.touched {
		s.acc[d], s.cov[d], s.named[d], s.phrase[d], s.flags[d] = 0, 0, 0, 0, 0
	}
	s.touched = s.touched[:0]
	s.cands = s.cands[:0]
}

// How a variant is related to the query term it stands for.
type variantKind uint8

const (
	viaExact variantKind = iota
	viaSynonym
	viaLonger  // a longer form: "config" for "conf"
	viaShorter // a shorter form: "config" for "configuration"
	viaTypo    // a word a typo away
	viaAbbrev  // a word of the tools' names it abbreviates: "worktree" for "wt"
)

var variantKindNames = [...]string{"exact", "synonym", "longer form", "shorter form", "typo", "abbreviation"}

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
}

// queryTerms returns the distinct words of query without stop words and
// numbers (unless that would leave none), at most [MaxQueryTerms] of them,
// from the first [MaxQueryBytes] bytes of query.
func queryTerms(query string) []queryTerm {
	query = truncate(query, MaxQueryBytes)
	var terms, rest []queryTerm
	add := func(list []queryTerm, t queryTerm) []queryTerm {
		if i := slices.IndexFunc(list, func(q queryTerm) bool { return q.term == t.term }); i >= 0 {
			list[i].w = max(list[i].w, t.w)
		} else if len(list) < MaxQueryTerms {
			list = append(list, t)
		}
		return list
	}
	cut := lastClause(query)
	words := func(part string, w float32) {
		tokenize(part, func(tok []byte) {
			t := queryTerm{term: stem(string(tok)), raw: string(tok), w: w}
			if isStopWord(t.raw) || isNumber(t.term) {
				rest = add(rest, t)
			} else {
				terms = add(terms, t)
			}
		})
	}
	words(query[:cut], contextWeight)
	n := len(terms)
	words(query[cut:], 1)
	if len(terms) == n { // the last clause has no words that count: no context
		for i := range terms {
			terms[i].w = 1
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
	exact, ok := r.termID[t.term]
	if ok {
		vs = append(vs, variant{exact, 1, 1, viaExact})
	}
	for _, syn := range synonyms[t.term] {
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

// findPhrases adds to the score of every tool whose keyword phrase the
// query holds, as consecutive words, its bonus (the largest, when it has
// several). It looks at the words of the first [MaxQueryBytes] bytes.
func (r *ranker) findPhrases(query string, s *scratch, ex *explainer) {
	if r.maxPhraseLen == 0 {
		return
	}
	ids := s.ids[:0]
	tokenize(truncate(query, MaxQueryBytes), func(tok []byte) {
		id, ok := r.termID[stem(string(tok))]
		if !ok {
			id = -1
		}
		ids = append(ids, id)
	})
	s.ids = ids
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

// A rankRequest is what rank needs besides the query: which tools to
// keep (nil: all), the page, and a factor per CLI (the project hint; nil
// for none).
type rankRequest struct {
	keep          func(int) bool
	offset, limit int
	cliFactor     []float64 // by CLI number
}

// rank returns the indices of at most req.limit tools that req.keep
// accepts and that match query, best first, after skipping the first
// req.offset; ties keep load order. It also returns how many tools match
// in all. An empty query matches every tool, in load order. When ex is
// not nil, it records why each returned tool ranks where it does.
func (r *ranker) rank(query string, req rankRequest, ex *explainer) (page []int, total int) {
	if strings.TrimSpace(query) == "" {
		return r.first(req)
	}
	s := r.pool.Get().(*scratch)
	defer func() {
		s.reset()
		r.pool.Put(s)
	}()

	terms, negated := r.withoutNegated(queryTerms(query), query)
	namesProgram := false
	for i := range terms {
		if r.programs[terms[i].term] {
			terms[i].w = 1
			namesProgram = true
		}
	}
	// A query that names a program, or one not to use ("docker, not
	// k8s"), says which CLI it means: the project hint does not overrule
	// it, and the tools of a program ruled out rank after the others.
	factor := req.cliFactor
	switch {
	case len(negated) > 0:
		factor = r.negatedFactors(negated)
	case namesProgram:
		factor = nil
	case factor != nil:
		terms = withoutProjectWords(terms)
	}
	if ex != nil {
		ex.start(terms)
	}
	ids, weights := r.matchTerms(terms, s, ex)
	r.matchBigrams(ids, s, ex)
	r.matchLoose(ids, s, ex)
	r.findPhrases(query, s, ex)
	q := r.findLiteral(query, s)
	r.score(s, req.keep, weights, factor, q, ex)
	best, total := r.best(s, req.offset, req.limit)

	page = make([]int, len(best))
	for i, c := range best {
		page[i] = int(c.doc)
		if ex != nil {
			ex.result(c.doc, c.score, s.flags[c.doc])
		}
	}
	return page, total
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

// first returns the tools that req.keep accepts, in load order, from
// req.offset on, at most req.limit of them, and how many it accepts in
// all.
func (r *ranker) first(req rankRequest) (page []int, total int) {
	for i := range r.n {
		if req.keep != nil && !req.keep(i) {
			continue
		}
		if total >= req.offset && len(page) < req.limit {
			page = append(page, i)
		}
		total++
	}
	return page, total
}

// matchTerms adds to each tool's summed score, coverage and name weight
// what it gets for each query term: the best score among the term's
// variants. It returns the exact term IDs of the query terms (-1 where the
// index lacks one) and the number of query terms some tool matches.
func (r *ranker) matchTerms(terms []queryTerm, s *scratch, ex *explainer) (ids []int32, total totals) {
	ids = make([]int32, len(terms))
	typoLookups := 0
	for i, t := range terms {
		ids[i] = -1
		if id, ok := r.termID[t.term]; ok {
			ids[i] = id
		} else {
			typoLookups++
		}
		vs := r.variants(s.vs[:0], s, t, typoLookups <= maxTypoLookup)
		s.vs = vs
		cw := t.w * r.coverWeight(ids[i], vs)
		if len(vs) > 0 { // a term no tool has cannot tell tools apart
			total.terms += t.w
			total.cover += cw
		}
		if ex != nil {
			ex.variants(i, r, vs)
		}
		r.matchTerm(i, ids[i], t.w, cw, vs, s, ex)
	}
	return ids, total
}

// totals are the weights of the query terms that some tool matches: as
// terms (what the name weight is a fraction of) and as coverage (what
// coverage is a fraction of).
type totals struct{ terms, cover float32 }

// coverWeight is how much matching a query term (exact term ID exact, or
// -1, and its variants vs) counts towards coverage: the rarer the word,
// the more. Missing a word most tools have ("project", "file") says less
// about a tool than missing a word few have ("history").
func (r *ranker) coverWeight(exact int32, vs []variant) float32 {
	if len(vs) == 0 {
		return 0
	}
	var w float32
	if exact >= 0 {
		w = r.idf[exact]
	} else {
		for _, v := range vs {
			w = max(w, r.idf[v.id])
		}
	}
	return coverCommon + (1-coverCommon)*w/r.maxIDF
}

// matchTerm finds, for query term i (exact term ID exact, or -1), each
// tool's best variant among vs, and adds its score, coverage credit and
// name weight to the tool's.
func (r *ranker) matchTerm(i int, exact int32, qw, cw float32, vs []variant, s *scratch, ex *explainer) {
	for vi, v := range vs {
		// A variant scores with the query word's rarity when the index
		// has that word: a rare synonym ("rev") must not outrank the
		// common word the user typed ("commit").
		w := v.w * qw
		if exact >= 0 && v.id != exact {
			w *= r.idf[exact] / r.idf[v.id]
		}
		for _, p := range r.postings[v.id] {
			if v.kind == viaAbbrev && !p.named {
				continue // abbreviations stand for words of names
			}
			if sc := w * p.score; sc > s.best[p.doc] {
				if s.best[p.doc] == 0 {
					s.termHit = append(s.termHit, p.doc)
				}
				s.best[p.doc] = sc
				s.bestVar[p.doc] = int32(vi)
			}
			s.credit[p.doc] = max(s.credit[p.doc], v.cover*p.cover)
			if p.named {
				s.inName[p.doc] = max(s.inName[p.doc], v.w)
			}
		}
	}
	for _, d := range s.termHit {
		s.touch(d)
		s.acc[d] += s.best[d]
		s.cov[d] += cw * s.credit[d]
		s.named[d] += qw * s.inName[d]
		if ex != nil {
			ex.match(d, i, vs[s.bestVar[d]], s.best[d])
		}
		s.best[d], s.credit[d], s.inName[d] = 0, 0, 0
	}
	s.termHit = s.termHit[:0]
}

// matchBigrams adds the bigram bonus of every pair of adjacent query
// terms (exact IDs ids) that a tool has next to each other.
func (r *ranker) matchBigrams(ids []int32, s *scratch, ex *explainer) {
	for i := 1; i < len(ids); i++ {
		if ids[i-1] >= 0 && ids[i] >= 0 {
			for _, p := range r.bigrams.lookup(ids[i-1], ids[i]) {
				s.acc[p.doc] += p.score // the tool matched both terms: already touched
				if ex != nil {
					ex.phrase(p.doc, i-1, p.score)
				}
			}
		}
	}
}

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

// score appends to s.cands every touched tool that keep accepts, with its
// final score: the summed term score scaled by the query coverage and by
// the name weight, boosted for a literal match (total is
// the number of query terms some tool matches, q the lowercase query).
// Tools found only literally go to tier 1.
func (r *ranker) score(s *scratch, keep func(int) bool, total totals, cliFactor []float64, q string, ex *explainer) {
	for _, d := range s.touched {
		if keep != nil && !keep(int(d)) {
			continue
		}
		c := candidate{doc: d}
		fl := s.flags[d]
		if s.acc[d] > 0 {
			cov := float64(s.cov[d] / total.cover)
			base := float64(s.acc[d]) * (1 + nameBoost*float64(s.named[d]/total.terms))
			c.score = base * softCoverage(cov)
			switch {
			case fl&flagLitName != 0 && r.lit.nameLen(d) == len(q):
				c.score *= exactNameBoost
			case fl&flagLitName != 0:
				c.score *= literalNameBoost
			case fl&flagLiteral != 0:
				c.score *= literalBoost
			}
			factor := 1.0
			if cliFactor != nil {
				factor = cliFactor[r.cli[d]]
				c.score *= factor
				base *= factor
			}
			// The floor weighs coverage squared: score × cov^(2-covExp),
			// without the literal boosts.
			c.strength = base * cov * cov
			if ex != nil {
				ex.factors(d, float64(s.acc[d]), cov, float64(s.named[d]/total.terms), factor)
			}
		} else {
			c.tier = 1
			if fl&flagLitName != 0 {
				c.score = 1
			}
		}
		s.cands = append(s.cands, c)
	}
}

// softCoverage returns cov^covExp for a coverage in [0, 1], from a table:
// math.Pow for every candidate was most of the time of a search over
// thousands of tools.
func softCoverage(cov float64) float64 {
	x := max(0, min(cov, 1)) * (coverSteps - 1)
	i := int(x)
	if i >= coverSteps-1 {
		return coverPow[coverSteps-1]
	}
	f := x - float64(i)
	return coverPow[i]*(1-f) + coverPow[i+1]*f
}

// coverSteps is the size of the table of softCoverage.
const coverSteps = 1025

var coverPow = func() (t [coverSteps]float64) {
	for i := range t {
		t[i] = math.Pow(float64(i)/(coverSteps-1), covExp)
	}
	return t
}()

// best returns the page of s.cands from offset, at most limit of them,
// spread over CLIs where scores tie, and how many candidates there are in
// all once those that match far worse than the strongest are left out.
func (r *ranker) best(s *scratch, offset, limit int) ([]candidate, int) {
	// Tools that match the query's words far worse than the best one are
	// noise that costs the caller tokens; those that contain the whole
	// query stay.
	var strongest float64
	for _, c := range s.cands {
		if c.tier == 0 {
			strongest = max(strongest, c.strength)
		}
	}
	floor := strongest * minRelScore
	s.cands = slices.DeleteFunc(s.cands, func(c candidate) bool {
		return c.tier == 0 && c.strength < floor && s.flags[c.doc]&flagLiteral == 0
	})
	total := len(s.cands)
	if offset >= total || limit <= 0 {
		return nil, total
	}
	end := offset + min(limit, total-offset)
	top := topK(s.cands, end)
	// The run of near-equal scores that the page ends in is spread over
	// CLIs whole, so that a page does not depend on where it ends: the
	// next page continues the same order.
	if end < total {
		top = completeRun(top, s.cands[end:])
	}
	return r.diversify(top)[offset:end], total
}

// completeRun appends to top (the best candidates, in order) the
// candidates of rest that belong to top's last run of near-equal scores
// (see diversify), in order.
func completeRun(top, rest []candidate) []candidate {
	// diversify starts runs greedily from the top: find the start of the
	// run holding the last candidate as it does.
	start := 0
	for i := 0; i < len(top); {
		j := i + 1
		for j < len(top) && top[j].tier == top[i].tier && top[j].score >= top[i].score*(1-tieRange) {
			j++
		}
		if j == len(top) {
			start = i
			break
		}
		i = j
	}
	first := top[start]
	var more []candidate
	for _, c := range rest {
		if c.tier == first.tier && c.score >= first.score*(1-tieRange) {
			more = append(more, c)
		}
	}
	slices.SortFunc(more, cmpCandidates)
	return append(top, more...)
}

// diversify reorders runs of near-equal candidates (sorted best first) so
// that their CLIs take turns: within a run whose scores lie within tieRange
// of its best, the first tool of each CLI comes before the second of any,
// load order kept within a CLI. Near-equal scores say nothing about which
// CLI the caller wants, so a query like "vcs" shows git and jj tools rather
// than whichever CLI was loaded first.
func (r *ranker) diversify(cands []candidate) []candidate {
	var out []candidate
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].tier == cands[i].tier && cands[j].score >= cands[i].score*(1-tieRange) {
			j++
		}
		run := cands[i:j]
		if j-i > 1 {
			// Round-robin over the CLIs, in order of their best tool.
			var order []int32
			byCLI := map[int32][]candidate{}
			for _, c := range run {
				cl := r.cli[c.doc]
				if _, ok := byCLI[cl]; !ok {
					order = append(order, cl)
				}
				byCLI[cl] = append(byCLI[cl], c)
			}
			if len(order) > 1 {
				run = make([]candidate, 0, len(run))
				for len(run) < j-i {
					for _, cl := range order {
						if q := byCLI[cl]; len(q) > 0 {
							run = append(run, q[0])
							byCLI[cl] = q[1:]
						}
					}
				}
			}
		}
		out = append(out, run...)
		i = j
	}
	return out
}

// topK reorders cands so that its first min(k, len(cands)) elements are
// the best, in order, and returns them; the others follow them in cands,
// in no order.
func topK(cands []candidate, k int) []candidate {
	if k >= len(cands) {
		slices.SortFunc(cands, cmpCandidates)
		return cands
	}
	// A heap of the k best so far, worst at the root.
	h := cands[:k]
	worse := func(i, j int) bool { return better(h[j], h[i]) }
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= k {
				return
			}
			if r := l + 1; r < k && worse(r, l) {
				l = r
			}
			if !worse(l, i) {
				return
			}
			h[i], h[l] = h[l], h[i]
			i = l
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for i := k; i < len(cands); i++ {
		if better(cands[i], h[0]) {
			h[0], cands[i] = cands[i], h[0]
			down(0)
		}
	}
	slices.SortFunc(h, cmpCandidates)
	return h
}

func cmpCandidates(a, b candidate) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
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

// find marks in s every tool that contains q (already lowercase).
func (li *literalIndex) find(q string, s *scratch) {
	if strings.IndexByte(q, 0) >= 0 {
		li.findSlow(q, s)
		return
	}
	check := func(d int32) {
		doc := li.text[li.docStart[d]:li.docStart[d+1]]
		if j := strings.Index(doc, q); j >= 0 {
			s.touch(d)
			s.flags[d] |= flagLiteral
			if j+len(q) <= li.nameLen(d) {
				s.flags[d] |= flagLitName
			}
		}
	}

	// Pick the most selective word of q.
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
	if haveExact {
		for _, d := range exact {
			check(d)
		}
		return
	}
	if pattern == "" { // no word at all: look everywhere
		for d := range li.docStart[:len(li.docStart)-1] {
			check(int32(d))
		}
		return
	}
	// The words that contain pattern, and their tools.
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
		if w+1 < len(li.wordStart) {
			pos = int(li.wordStart[w+1]) - 1 // the NUL before the next word
		} else {
			break
		}
	}
	if len(docs) == 0 {
		return
	}
	slices.Sort(docs)
	for i, d := range docs {
		if i == 0 || d != docs[i-1] {
			check(d)
		}
	}
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
// nothing out. Words the query also uses elsewhere stay; so does
// everything when that would leave nothing.
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
		if len(clis) == 0 {
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
