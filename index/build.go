package index

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/climax-mcp/climax/index/config"
)

// This file builds a [ranker]: it reads every tool's fields once, counting
// terms (pass 1), then turns the counts into BM25F scores (pass 2).

// newRanker builds the ranker of tools, in load order.
func newRanker(tools []*config.ResolvedTool) *ranker {
	r := &ranker{
		n:       len(tools),
		termID:  map[string]int32{},
		phrases: map[string][]phrasePosting{},
		tools:   tools,
	}
	r.pool.New = func() any { return newScratch(r.n, len(r.cliProgram)) }
	r.abbrevs = sync.OnceValue(r.newAbbrevIndex)
	// The literal index shares nothing with the rest: build it on another
	// core.
	var lit sync.WaitGroup
	lit.Go(func() { r.lit.build(tools) })
	r.numberCLIs()

	b := newBuilder(r)
	for d, t := range tools {
		b.addTool(int32(d), t)
	}
	b.scorePostings()
	b.countNameWords()
	r.bigrams.build(b.pairs, len(r.vocab), r.n)
	r.loose.build(b.keywords, r.isStop)

	r.termOf = slices.Clone(r.vocab)
	slices.Sort(r.vocab) // after the postings, which are by ID
	lit.Wait()
	return r
}

// numberCLIs numbers the CLIs of r's tools in load order, for diversify,
// and records the words of their names (r.programs) and the programs
// they run (r.cliProgram).
func (r *ranker) numberCLIs() {
	r.cli = make([]int32, len(r.tools))
	cliNum := map[*config.Config]int32{}
	for d, t := range r.tools {
		n, ok := cliNum[t.CLI]
		if !ok {
			n = int32(len(cliNum))
			cliNum[t.CLI] = n
			r.cliProgram = append(r.cliProgram, ProgramName(t.CLI.Command))
			tokenize(t.CLI.Name, func(tok []byte) {
				if r.programs == nil {
					r.programs = map[string]bool{}
					r.cliWords = map[string][]int32{}
				}
				w := stem(string(tok))
				r.programs[w] = true
				r.cliWords[w] = appendNew(r.cliWords[w], n)
			})
			for _, tag := range t.CLI.Tags {
				tokenize(tag, func(tok []byte) {
					if r.cliWords == nil {
						r.cliWords = map[string][]int32{}
					}
					if w := stem(string(tok)); !isStopWord(string(tok)) {
						r.cliWords[w] = appendNew(r.cliWords[w], n)
					}
				})
			}
		}
		r.cli[d] = n
	}
}

// cliTerms are the term IDs of a CLI's fields.
type cliTerms struct {
	tags                 [][]int32
	category, name, desc []int32
}

// occurrence counts one term in one field of the tool being indexed.
type occurrence struct {
	term  int32
	field searchField
	tf    uint16
}

// A builder holds the working state of one [newRanker].
type builder struct {
	r *ranker

	// Pass 1: the occurrences of terms in fields, tool by tool, field
	// lengths and document frequencies (in r.df).
	occs     []occurrence
	occStart []int               // tool d's occurrences are occs[occStart[d]:occStart[d+1]]
	fieldLen [][numFields]uint16 // by tool
	totalLen [numFields]float64
	rawTerm  map[string]int32 // token as written (lowercase) → term ID
	lastDoc  []int32          // by term: 1 + the last tool counted in df
	// Rarity: a term's document frequency for its idf. A tool's own
	// fields count once per tool, the fields a CLI gives all its tools
	// once per CLI (see idfCount).
	idfDF   []int32
	idfDoc  []int32 // by term: 1 + the last tool counted in idfDF
	idfCLI  []int32 // by term: 1 + the last CLI counted in idfDF
	slotDoc []int32 // by term*numFields+field: 1 + the tool of slotOcc
	slotOcc []int32 // … and that tool's occurrence of the term in the field
	byCLI   map[*config.Config]*cliTerms
	curCLI  *cliTerms // the CLI of the tool being indexed
	cliName [][]int32 // by CLI number: the term IDs of its name

	// Scratch space.
	seq      []int32 // the current field's terms, stop words left out, for bigrams
	pairs    []bigramOcc
	keywords []looseKeyword
	termBuf  []int32
	tokBuf   []byte
}

func newBuilder(r *ranker) *builder {
	// Size the lists of occurrences and pairs from the length of the
	// tools' own text (the CLI's fields add a few per tool): a word takes
	// five bytes or more with its separator, and most words are in a field
	// that makes pairs.
	text := 0
	for _, t := range r.tools {
		text += len(t.Tool.Name) + len(t.Tool.Command) + len(t.Tool.Description)
		for _, kw := range t.Tool.Keywords {
			text += len(kw)
		}
		for _, a := range t.Tool.Args {
			text += len(a.Name) + len(a.Description)
		}
	}
	return &builder{
		r:        r,
		occs:     make([]occurrence, 0, text/5+8*r.n),
		pairs:    make([]bigramOcc, 0, text/8),
		occStart: make([]int, r.n+1),
		fieldLen: make([][numFields]uint16, r.n),
		rawTerm:  map[string]int32{},
		byCLI:    map[*config.Config]*cliTerms{},
	}
}

// addTool counts the terms of every field of tool d.
func (b *builder) addTool(d int32, t *config.ResolvedTool) {
	ct := b.cliTerms(t.CLI)
	b.curCLI = ct
	b.count(d, fieldName, b.terms(t.Tool.Name))
	for i, kw := range t.Tool.Keywords {
		ids := b.terms(kw)
		b.r.addPhrase(d, ids)
		b.keywords = append(b.keywords, looseKeyword{d, i, slices.Clone(ids)})
		b.count(d, fieldKeywords, ids)
	}
	for _, tag := range ct.tags {
		b.count(d, fieldTags, tag)
	}
	b.count(d, fieldCategory, ct.category)
	b.count(d, fieldCLI, ct.name)
	sub, opts := splitCommand(t.Tool.Command)
	b.count(d, fieldCommand, b.terms(sub))
	b.r.addCommandLine(d, ct.name, b.termBuf)
	if int(b.r.cli[d]) == len(b.cliName) { // the CLI's first tool
		b.cliName = append(b.cliName, ct.name)
	}
	b.count(d, fieldCommandOpts, b.terms(opts))
	b.count(d, fieldDescription, b.terms(t.Tool.Description))
	b.count(d, fieldCLIDesc, ct.desc)
	for _, a := range t.Tool.Args {
		b.count(d, fieldArgs, b.terms(a.Name))
		b.count(d, fieldArgs, b.terms(a.Description))
		for _, e := range a.Enum {
			b.count(d, fieldArgs, b.terms(e))
		}
	}
	b.count(d, fieldFlags, b.flagTerms(t.Tool))
	b.occStart[d+1] = len(b.occs)
	for f := range numFields {
		b.totalLen[f] += float64(b.fieldLen[d][f])
	}
}

// cliTerms returns the term IDs of c's fields, which are the same for all
// its tools, analysing them the first time.
func (b *builder) cliTerms(c *config.Config) *cliTerms {
	if ct := b.byCLI[c]; ct != nil {
		return ct
	}
	ct := &cliTerms{
		category: slices.Clone(b.terms(c.Category)),
		name:     slices.Clone(b.terms(c.Name)),
		desc:     slices.Clone(b.terms(c.Description)),
	}
	for _, tag := range c.Tags {
		ct.tags = append(ct.tags, slices.Clone(b.terms(tag)))
	}
	b.byCLI[c] = ct
	return ct
}

// terms returns the term IDs of s, adding new terms to the vocabulary.
// The result is valid until the next call.
func (b *builder) terms(s string) []int32 {
	ids := b.termBuf[:0]
	b.tokBuf = tokenizeBuf(s, b.tokBuf, func(tok []byte) {
		id, ok := b.rawTerm[string(tok)]
		if !ok {
			id = b.addWord(tok)
		}
		ids = append(ids, id)
	})
	b.termBuf = ids
	return ids
}

// flagTerms returns the term IDs of the options of tool: the flags of its
// args and the options of its command and of the keywords that are
// command lines ("make -n") (see eachFlag). The result
// is valid until the next call.
func (b *builder) flagTerms(tool *config.Tool) []int32 {
	ids := b.termBuf[:0]
	add := func(f string) {
		id, ok := b.rawTerm[f]
		if !ok {
			id = b.addWord([]byte(f))
		}
		ids = append(ids, id)
	}
	eachFlag(tool.Command, add)
	for _, kw := range tool.Keywords {
		if isCommandLine(kw) {
			eachFlag(kw, add)
		}
	}
	for _, a := range tool.Args {
		eachFlag(a.Flag, add)
	}
	b.termBuf = ids
	return ids
}

// addWord adds tok, a token as written, to the vocabulary and returns the
// ID of its term.
func (b *builder) addWord(tok []byte) int32 {
	r := b.r
	w := string(tok)
	term := stem(w)
	id, ok := r.termID[term]
	if !ok {
		id = int32(len(r.vocab))
		r.termID[term] = id
		r.vocab = append(r.vocab, term)
		r.df = append(r.df, 0)
		r.cliHolds = append(r.cliHolds, nil)
		r.isStop = append(r.isStop, true)
		b.lastDoc = append(b.lastDoc, 0)
		b.idfDF = append(b.idfDF, 0)
		b.idfDoc = append(b.idfDoc, 0)
		b.idfCLI = append(b.idfCLI, 0)
		for range numFields {
			b.slotDoc = append(b.slotDoc, 0)
			b.slotOcc = append(b.slotOcc, 0)
		}
	}
	b.rawTerm[w] = id
	if !isStopWord(w) {
		// A term is a stop word when all its forms are.
		r.isStop[id] = false
		if typoEligible(tok) {
			r.typos.add(w, id)
		}
	}
	return id
}

// count adds the terms ids of field f to tool d: their term frequencies,
// the field's length, the terms' document frequencies and the field's
// bigrams.
func (b *builder) count(d int32, f searchField, ids []int32) {
	r := b.r
	b.seq = b.seq[:0]
	for _, id := range ids {
		if b.lastDoc[id] != d+1 {
			b.lastDoc[id] = d + 1
			r.df[id]++
		}
		b.countRarity(d, f, id)
		if cliField(f) {
			r.cliHolds[id] = appendNew(r.cliHolds[id], r.cli[d])
		}
		if k := int(id)*int(numFields) + int(f); b.slotDoc[k] == d+1 {
			if o := &b.occs[b.slotOcc[k]]; o.tf < math.MaxUint16 {
				o.tf++
			}
		} else {
			b.slotDoc[k], b.slotOcc[k] = d+1, int32(len(b.occs))
			b.occs = append(b.occs, occurrence{term: id, field: f, tf: 1})
		}
		if b.fieldLen[d][f] < math.MaxUint16 {
			b.fieldLen[d][f]++
		}
		if fieldPhrase[f] && !r.isStop[id] {
			b.seq = append(b.seq, id)
		}
	}
	for i := 1; i < len(b.seq); i++ {
		b.pairs = append(b.pairs, bigramOcc{b.seq[i-1], b.seq[i], d, float32(fieldWeight[f])})
	}
}

// cliField reports whether f is one of the fields a CLI gives all its
// tools.
func cliField(f searchField) bool {
	return f == fieldTags || f == fieldCategory || f == fieldCLI || f == fieldCLIDesc
}

// countRarity counts term id of field f of tool d in its idf document
// frequency. A word of a CLI's tags, category, name or description is in
// every one of its tools' fields, but it is one use of the word, not
// one per tool: counting it per tool would make the words a CLI describes
// itself with ("history", "commit" for git) common, and the generic words
// of a query would decide instead. The same holds for the CLI's name in
// its tools' names ("git" in git_log): counted per tool, the rarity of a
// program's name would depend on how many tools it has and how many
// other tools are loaded, and so would how much naming the program in a
// query counts.
func (b *builder) countRarity(d int32, f searchField, id int32) {
	if cliField(f) || f == fieldName && slices.Contains(b.curCLI.name, id) {
		if c := b.r.cli[d] + 1; b.idfCLI[id] != c {
			b.idfCLI[id] = c
			b.idfDF[id]++
		}
		return
	}
	if b.idfDoc[id] != d+1 {
		b.idfDoc[id] = d + 1
		b.idfDF[id]++
	}
}

// scorePostings is pass 2: it computes the idf of every term and each
// tool's BM25F score for each of its terms, into the postings.
func (b *builder) scorePostings() {
	r := b.r
	var avgLen [numFields]float64
	for f := range numFields {
		avgLen[f] = max(b.totalLen[f]/float64(max(r.n, 1)), 1)
	}
	r.idf = make([]float32, len(r.vocab))
	r.maxIDF = float32(idf(r.n, 1))
	r.postings = make([][]posting, len(r.vocab))
	var sum int
	for id := range r.vocab {
		sum += int(r.df[id])
	}
	flat := make([]posting, 0, sum) // one backing array, cut per term
	for id := range r.vocab {
		// A word of a CLI's fields counts once for the CLI on top of
		// the tools that have it in their own fields, so with few tools
		// it can count more often than there are tools: it is then in
		// all of them.
		r.idf[id] = float32(idf(r.n, min(int(b.idfDF[id]), r.n)))
		end := len(flat) + int(r.df[id])
		r.postings[id] = flat[len(flat):len(flat):end]
		flat = flat[:end]
	}
	tfs := make([]float64, len(r.vocab))
	cover := make([]float32, len(r.vocab))
	named := make([]bool, len(r.vocab))
	for d := range r.n {
		doc := b.occs[b.occStart[d]:b.occStart[d+1]]
		for _, o := range doc {
			f := o.field
			norm := 1 - fieldB[f] + fieldB[f]*float64(b.fieldLen[d][f])/avgLen[f]
			tfs[o.term] += fieldWeight[f] * float64(o.tf) / norm
			cover[o.term] = max(cover[o.term], fieldCover[f])
			named[o.term] = named[o.term] || f == fieldName || f == fieldCommand
		}
		for _, o := range doc {
			if tf := tfs[o.term]; tf > 0 {
				s := float64(r.idf[o.term]) * tf / (k1 + tf)
				r.postings[o.term] = append(r.postings[o.term], posting{doc: int32(d), score: float32(s), cover: cover[o.term], named: named[o.term]})
				tfs[o.term], cover[o.term], named[o.term] = 0, 0, false
			}
		}
	}
}

// countNameWords counts, for each tool, the distinct words of its name
// and subcommand, its CLI's name and stop words aside (r.nameWords).
func (b *builder) countNameWords() {
	r := b.r
	r.nameWords = make([]uint8, r.n)
	seen := make([]bool, len(r.vocab))
	for d := range r.n {
		doc := b.occs[b.occStart[d]:b.occStart[d+1]]
		for _, o := range doc {
			if (o.field == fieldName || o.field == fieldCommand) && !r.isStop[o.term] && !seen[o.term] &&
				!slices.Contains(b.cliName[r.cli[d]], o.term) {
				seen[o.term] = true
				r.nameWords[d] = min(r.nameWords[d]+1, math.MaxUint8)
			}
		}
		for _, o := range doc {
			seen[o.term] = false
		}
	}
}

// appendNew appends n to list unless it is its last element.
func appendNew(list []int32, n int32) []int32 {
	if len(list) > 0 && list[len(list)-1] == n {
		return list
	}
	return append(list, n)
}

// ProgramName returns the program a config's command runs, as [Project]
// names it: the base name of its first word, lowercase, without ".exe"
// ("git --no-pager" → "git", "/usr/local/go/bin/go" → "go").
func ProgramName(command string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(command), " ")
	if i := strings.LastIndexAny(first, `/\`); i >= 0 {
		first = first[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(first), ".exe")
}

// projectFactors returns the score factor of each CLI (by number) under
// the project hint p, or nil when p is nil or changes nothing.
func (r *ranker) projectFactors(p *Project) []float64 {
	if p == nil || len(p.Uses)+len(p.Lacks) == 0 {
		return nil
	}
	out := make([]float64, len(r.cliProgram))
	for i, prog := range r.cliProgram {
		switch {
		case prog == "":
			out[i] = 1
		case slices.ContainsFunc(p.Uses, func(u string) bool { return strings.EqualFold(u, prog) }):
			out[i] = ProjectUseFactor
		case slices.ContainsFunc(p.Lacks, func(u string) bool { return strings.EqualFold(u, prog) }):
			out[i] = ProjectLackFactor
		default:
			out[i] = 1
		}
	}
	return out
}
