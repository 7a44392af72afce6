package index

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/climax-mcp/climax/index/config"
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
	fieldFlags                          // options in the tool's args, command and keywords
	fieldCommandOpts                    // the words of the options in the tool's command, and their values
	numFields
)

// fieldNames name the fields in explanations.
var fieldNames = [numFields]string{"name", "keywords", "tags", "category", "cli", "command", "description", "cli description", "args", "flags", "command options"}

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
	fieldWeight = [numFields]float64{3, 2, 0.5, 0.5, 2, 1, 1, 0.3, 0.3, 1, 1}
	// Keywords and the fields a CLI gives all its tools are not
	// length-normalised: keywords are alternatives, not prose, and how
	// many tags or words of description a CLI has says nothing about
	// which of its tools fits, and must not favour the CLI with fewer.
	fieldB = [numFields]float64{0.5, 0, 0, 0, 0, 0.3, 0.75, 0, 0.75, 0, 0.3}
	// fieldCover is how much a term found only in the field counts
	// towards a tool matching the query's terms: words of the CLI's
	// tags, category or description, or of the arguments, do not make a
	// tool about them.
	fieldCover = [numFields]float32{1, 1, 0.5, 0.5, 1, 1, 1, 0.5, 0.35, 1, 1}
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

	compoundWeight = float32(1) // a query word joined with its neighbour: "worktree" for "work tree"
	contextWeight  = 0.7        // the weight of words before the last clause of a query

	minRelScore = 0.1  // results scoring less than this fraction of the best are left out, unless they contain the query
	tieRange    = 0.05 // scores within this fraction of each other count as equal when spreading results over CLIs
	firstRange  = 0.10 // scores within this fraction of the best may take the first place by their CLI's fit

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
	// nameWords holds, by tool, how many distinct words its name and
	// subcommand have, its CLI's name and stop words aside.
	nameWords []uint8
	// programs holds the (stemmed) words of the CLIs' names: a query word
	// naming a loaded program counts fully wherever it stands ("tar:
	// Error is not recoverable" is about tar, not about its scene).
	programs map[string]bool
	// cliWords maps the (stemmed) words of the CLIs' names and tags to
	// the CLIs that have them ("kubernetes" → kubectl), for the
	// programs a query says not to use.
	cliWords map[string][]int32

	termID map[string]int32
	vocab  []string // all terms, sorted, for prefix lookups
	termOf []string // all terms, by ID
	idf    []float32
	maxIDF float32 // the idf of a term only one tool has
	df     []int32
	isStop []bool // by term ID: every form of the term is a stop word
	// cliHolds lists, by term ID, the CLIs (in load order) whose own
	// fields hold the term: their name, tags, category or description.
	cliHolds [][]int32
	postings [][]posting // by term ID, in load order

	bigrams bigramIndex

	// phrases holds the keywords of two words or more, stop words
	// included, by their term IDs (4 bytes each, as a string), with the
	// tools that have them; a query that holds one scores a bonus.
	phrases      map[string][]phrasePosting
	maxPhraseLen int // the most words in one of them

	// cmdLines holds the tools' command lines, a CLI's name and a
	// tool's subcommand words, by their term IDs (as phrases), with the
	// tools that have them (see cmdline.go).
	cmdLines  map[string][]int32
	maxCmdLen int

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

// idf is the BM25 inverse document frequency, positive for df <= n.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// scratch is the per-call working space of rank, indexed by tool.
type scratch struct {
	acc     []float32 // summed term scores
	cov     []float32 // query terms matched, weighted by how well
	best    []float32 // the current query term's best variant score
	bestVar []int32   // … which variant gave it
	credit  []float32 // … and that variant's weight
	inName  []float32 // … and the best weight of a variant in its name
	named   []float32 // query terms found in the tool's name, weighted
	nameHit []uint8   // query terms found in the tool's name or subcommand, those naming a program aside
	// cliFit is, by CLI, how many of the query's words its own fields
	// hold (its name, tags, category and description), each weighted as
	// the query weighs it and by how it matched (a synonym 0.6, ...):
	// what orders the CLIs of near-equal scores (see diversify).
	cliFit   []float32
	cliBest  []float32 // by CLI: the current query term's best variant weight there
	cliHit   []int32   // the CLIs with cliBest > 0
	cliSeen  []int32   // the CLIs with cliFit > 0, to reset
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
	flagCmdLine             // the query holds its command line (see cmdline.go)
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

func newScratch(n, clis int) *scratch {
	return &scratch{
		acc:     make([]float32, n),
		cov:     make([]float32, n),
		best:    make([]float32, n),
		bestVar: make([]int32, n),
		credit:  make([]float32, n),
		inName:  make([]float32, n),
		named:   make([]float32, n),
		nameHit: make([]uint8, n),
		cliFit:  make([]float32, clis),
		cliBest: make([]float32, clis),
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
		s.nameHit[d] = 0
	}
	for _, c := range s.cliSeen {
		s.cliFit[c] = 0
	}
	s.cliSeen = s.cliSeen[:0]
	s.touched = s.touched[:0]
	s.cands = s.cands[:0]
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

	terms, negated := r.withoutNegated(queryFlags(queryTerms(query), query), query)
	namesProgram := false
	for i := range terms {
		if r.programs[terms[i].term] {
			terms[i].w = 1
			namesProgram = true
		}
	}
	avoided(terms, query)
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
	r.matchBigrams(ids, terms, s, ex)
	r.matchLoose(ids, s, ex)
	qids := r.queryIDs(query, s)
	r.findPhrases(qids, s, ex)
	r.findCommandLines(qids, s)
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
		r.matchTerm(i, ids[i], t, cw, vs, s, ex)
		r.matchCLIs(t.w, vs, s)
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
// name weight to the tool's, and when countName (the term names no
// program) one to its name words held by the query when it is there.
func (r *ranker) matchTerm(i int, exact int32, t queryTerm, cw float32, vs []variant, s *scratch, ex *explainer) {
	qw, countName := t.w, !r.programs[t.term] && !t.inFile
	nw := qw // the term's weight in the name factor
	if t.inFile {
		nw = 0
	}
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
		s.named[d] += nw * s.inName[d]
		if countName && s.inName[d] > 0 && s.nameHit[d] < math.MaxUint8 {
			s.nameHit[d]++
		}
		if ex != nil {
			ex.match(d, i, vs[s.bestVar[d]], s.best[d])
		}
		s.best[d], s.credit[d], s.inName[d] = 0, 0, 0
	}
	s.termHit = s.termHit[:0]
}

// matchCLIs adds query term weight qw to the fit of each CLI whose own
// fields hold the term, scaled by its best variant there.
func (r *ranker) matchCLIs(qw float32, vs []variant, s *scratch) {
	for _, v := range vs {
		for _, c := range r.cliHolds[v.id] {
			if s.cliBest[c] == 0 {
				s.cliHit = append(s.cliHit, c)
			}
			s.cliBest[c] = max(s.cliBest[c], v.w)
		}
	}
	for _, c := range s.cliHit {
		if s.cliFit[c] == 0 {
			s.cliSeen = append(s.cliSeen, c)
		}
		s.cliFit[c] += qw * s.cliBest[c]
		s.cliBest[c] = 0
	}
	s.cliHit = s.cliHit[:0]
}

// matchBigrams adds the bigram bonus of every pair of adjacent query
// terms (exact IDs ids) that a tool has next to each other.
func (r *ranker) matchBigrams(ids []int32, terms []queryTerm, s *scratch, ex *explainer) {
	for i := 1; i < len(ids); i++ {
		if terms[i-1].inFile && terms[i].inFile {
			continue
		}
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
			if fl&flagLitName == 0 && r.lit.nameLen(d) == len(q) && sameName(r.lit.name(d), q) {
				fl |= flagLitName // the query is the name, but for its separators
				s.flags[d] = fl
			}
			switch {
			case fl&flagLitName != 0 && r.lit.nameLen(d) == len(q):
				c.score *= exactNameBoost
			case fl&flagLitName != 0:
				c.score *= literalNameBoost
			case fl&flagLiteral != 0:
				c.score *= literalBoost
			}
			if fl&flagCmdLine != 0 {
				c.score *= commandLineBoost
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
// math.Pow for every candidate would be most of the time of a search over
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
	// Every tool that may take the first place is ranked (see
	// promoteFit), and the run of near-equal scores that the page ends
	// in is spread over CLIs whole, so that a page does not depend on
	// where it ends: the next page continues the same order.
	best, n := firstContenders(s.cands)
	k := max(end, n)
	top := topK(s.cands, k)
	if k < total {
		top = completeRun(top, s.cands[k:])
	}
	out := r.diversify(top, s.cliFit, s.nameHit)
	r.promoteFit(out, s.cliFit, best)
	return out[offset:end], total
}

// firstContenders returns the best score of cands' first tier and how
// many of cands are within firstRange of it (see promoteFit).
func firstContenders(cands []candidate) (best float64, n int) {
	for _, c := range cands {
		if c.tier == 0 {
			best = max(best, c.score)
		}
	}
	for _, c := range cands {
		if contends(c, best) {
			n++
		}
	}
	return best, n
}

// contends reports whether c may take the first place from a best score
// of best (see promoteFit).
func contends(c candidate, best float64) bool {
	return c.tier == 0 && c.score >= best*(1-firstRange)
}

// promoteFit moves to the front of out (candidates in their final order,
// holding every one within firstRange of best, the best score) the best tool
// of the CLI whose own fields hold the most whole query words (cliFit,
// by CLI, rounded down), among the candidates within firstRange of the
// best score, when that is more than the first candidate's CLI holds.
// Scores that close say little about which program is meant, and one
// that describes itself with the query's words is the better guess:
// "rollback deployment" is kubectl's (its tags and description hold
// "deployment"), not serverless's, whose tool has "rollback" in its name.
// Only the first place moves: further on, near-equal scores take turns
// by CLI (see diversify), in a narrower range.
func (r *ranker) promoteFit(out []candidate, cliFit []float32, best float64) {
	if len(out) < 2 {
		return
	}
	fit := func(c candidate) float64 { return math.Floor(float64(cliFit[r.cli[c.doc]])) }
	pick := 0
	for i, c := range out {
		if contends(c, best) && fit(c) > fit(out[pick]) {
			pick = i
		}
	}
	if pick > 0 {
		c := out[pick]
		copy(out[1:pick+1], out[:pick])
		out[0] = c
	}
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
// score order kept within a CLI. Near-equal scores say nothing about which
// CLI the caller wants, so a query like "vcs" shows git and jj tools rather
// than whichever CLI was loaded first. The CLIs take their turns in order
// of how many whole query words their own fields hold (cliFit, by CLI,
// rounded down), then of their best tool: among near-equal tools, the
// program that describes itself with the query's words ("kubernetes" in
// kubectl's tags, "switch to another kubernetes cluster") is the better
// guess than one whose tool merely has the words in its name. In the
// first run, a CLI's tools come in order of how many words of their name
// the query leaves out (nameHit, see unmatchedName), fewest first.
func (r *ranker) diversify(cands []candidate, cliFit []float32, nameHit []uint8) []candidate {
	var out []candidate
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && cands[j].tier == cands[i].tier && cands[j].score >= cands[i].score*(1-tieRange) {
			j++
		}
		run := cands[i:j]
		if j-i > 1 {
			var byName []uint8
			if i == 0 {
				byName = nameHit
			}
			run = r.takeTurns(run, cliFit, byName)
		}
		out = append(out, run...)
		i = j
	}
	return out
}

// takeTurns returns the run of near-equal candidates run with their CLIs
// taking turns (see diversify), each CLI's tools in order of the words of
// their name the query leaves out when nameHit is not nil, then of score.
func (r *ranker) takeTurns(run []candidate, cliFit []float32, nameHit []uint8) []candidate {
	byFit := func(a, b candidate) int {
		return cmp.Compare(math.Floor(float64(cliFit[r.cli[b.doc]])), math.Floor(float64(cliFit[r.cli[a.doc]])))
	}
	if !slices.IsSortedFunc(run, byFit) {
		run = slices.Clone(run)
		slices.SortStableFunc(run, byFit)
	}
	var order []int32
	byCLI := map[int32][]candidate{}
	for _, c := range run {
		cl := r.cli[c.doc]
		if _, ok := byCLI[cl]; !ok {
			order = append(order, cl)
		}
		byCLI[cl] = append(byCLI[cl], c)
	}
	if nameHit != nil {
		for _, q := range byCLI {
			slices.SortStableFunc(q, func(a, b candidate) int {
				return cmp.Compare(r.unmatchedName(a.doc, nameHit), r.unmatchedName(b.doc, nameHit))
			})
		}
	} else if len(order) == 1 {
		return run
	}
	// Round-robin over the CLIs, in order of their best tool.
	out := make([]candidate, 0, len(run))
	for len(out) < len(run) {
		for _, cl := range order {
			if q := byCLI[cl]; len(q) > 0 {
				out = append(out, q[0])
				byCLI[cl] = q[1:]
			}
		}
	}
	return out
}

// unmatchedName returns how many words of tool d's name and subcommand,
// its CLI's name aside, the query does not hold (nameHit: by tool, the
// query words found there). Among near-equal tools of one program, the
// one the query names whole is the better guess: "revert commit" is
// git_revert rather than git_revert_abort, "kubectl apply yaml"
// kubectl_apply rather than kubectl_apply_manifest.
func (r *ranker) unmatchedName(d int32, nameHit []uint8) int {
	if nameHit[d] == 0 {
		return math.MaxInt // a name without the query's words: no order among them
	}
	return max(0, int(r.nameWords[d])-int(nameHit[d]))
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
