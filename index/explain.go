package index

import (
	"slices"
	"strings"
)

// Explanation says why [Index.Search] returns the tools it does for a
// query, in the order it does. [Index.Explain] makes it with the same
// ranking as Search.
type Explanation struct {
	// Words are the query words ranking considered, lowercase, in query
	// order: stop words, numbers, repeated words and words beyond
	// [MaxQueryTerms] left out.
	Words []string `json:"words"`
	// Corrections are the query words the index lacks that were matched
	// to words a typo away.
	Corrections []Correction `json:"corrections,omitempty"`
	// Results are the tools Search returns, best first.
	Results []ResultExplanation `json:"results"`
}

// Correction is a query word matched to index words a typo away.
type Correction struct {
	Word  string   `json:"word"`
	Terms []string `json:"terms"`
}

// ResultExplanation says why one tool ranks where it does.
type ResultExplanation struct {
	Entry Entry `json:"entry"`
	// Score is the tool's final score; results are ordered by it (tools
	// found only by the literal substring rule come after the others).
	Score float64 `json:"score"`
	// Matches are the query words the tool matched, in query order.
	Matches []TermMatch `json:"matches,omitempty"`
	// Phrases are pairs of adjacent query words found next to each other
	// in one of the tool's fields.
	Phrases []string `json:"phrases,omitempty"`
	// Keyword is the tool's keyword that scored a bonus, and KeywordScore
	// the bonus: the longest keyword the query holds whole, as stems
	// ("merg conflict"), or a keyword of several words most of which the
	// query holds, as written (a pasted error message with names in the
	// middle), whichever scores more.
	Keyword      string  `json:"keyword,omitempty"`
	KeywordScore float64 `json:"keyword_score,omitempty"`
	// TermScore is the sum of the match, phrase and keyword scores; Coverage the
	// fraction of the query's words matched (a word found only in an
	// argument or the CLI's description, or only as a longer or shorter
	// form or a typo, counts partly); InName the fraction found in the
	// tool's name or subcommand. Score is TermScore × Coverage^0.7 × (1 +
	// 0.75 × InName), times a boost for a literal match, one for a
	// command line (CommandLine) and Factor.
	TermScore float64 `json:"term_score"`
	Coverage  float64 `json:"coverage"`
	InName    float64 `json:"in_name"`
	// Factor is the factor of the tool's CLI, when not 1: 0.5 for a
	// program the query rules out ("not k8s").
	Factor float64 `json:"factor,omitempty"`
	// Literal is "name" when the tool's name contains the whole query
	// (or is the query with other separators: "npm audit" for
	// npm_audit), "text" when another searchable field does, "" otherwise.
	Literal string `json:"literal,omitempty"`
	// CommandLine is true when the query opens with the tool's command
	// line, its program's name and subcommand ("git restore ..." for
	// git_restore), which multiplies its score by 1.25.
	CommandLine bool `json:"command_line,omitempty"`
}

// TermMatch is one query word matched by a tool.
type TermMatch struct {
	// Query is the query word as typed (lowercase).
	Query string `json:"query"`
	// Term is the word of the tool it matched (stemmed), and Via how the
	// two are related: "exact", "synonym", "longer form", "shorter
	// form" or "typo".
	Term string `json:"term"`
	Via  string `json:"via"`
	// Fields are the tool's fields that hold Term: "name", "keywords",
	// "tags", "category", "cli", "command" (its subcommand words),
	// "description", "cli description", "args", "flags", "command
	// options" (the words of the options in its command).
	Fields []string `json:"fields"`
	// Score is the word's contribution to TermScore.
	Score float64 `json:"score"`
}

// Explain returns what [Index.Search] returns for the same arguments, with
// the reasons for each result's rank: the query words each tool matched,
// how (exactly, as a synonym, another form or a typo correction) and in
// which fields, phrase bonuses, and the factors of its score.
func (ix *Index) Explain(query, category, cli string, limit int) Explanation {
	r := ix.ranker()
	ex := &explainer{r: r, docs: map[int32]*ResultExplanation{}}
	keep := ix.keep(category, cli)
	var order []int
	if limit > 0 {
		order, _ = r.rank(query, rankRequest{keep: keep, limit: limit}, ex)
	}
	out := Explanation{Words: []string{}, Results: []ResultExplanation{}}
	for _, t := range ex.terms {
		out.Words = append(out.Words, t.raw)
	}
	out.Corrections = ex.corrections
	for _, i := range order {
		re, ok := ex.docs[int32(i)]
		if !ok { // an empty query: every tool, unscored
			re = &ResultExplanation{}
		}
		re.Entry = ix.entries[i]
		out.Results = append(out.Results, *re)
	}
	return out
}

// explainer records what rank does for the tools it ranks.
type explainer struct {
	r           *ranker
	terms       []queryTerm
	corrections []Correction
	docs        map[int32]*ResultExplanation
}

func (ex *explainer) start(terms []queryTerm) { ex.terms = terms }

func (ex *explainer) doc(d int32) *ResultExplanation {
	re := ex.docs[d]
	if re == nil {
		re = &ResultExplanation{}
		ex.docs[d] = re
	}
	return re
}

// variants records the typo corrections among the variants of term i.
func (ex *explainer) variants(i int, r *ranker, vs []variant) {
	var c *Correction
	for _, v := range vs {
		if v.kind != viaTypo {
			continue
		}
		if c == nil {
			ex.corrections = append(ex.corrections, Correction{Word: ex.terms[i].raw})
			c = &ex.corrections[len(ex.corrections)-1]
		}
		c.Terms = append(c.Terms, r.termOf[v.id])
	}
}

// match records that tool d matched query term i through v, scoring sc.
func (ex *explainer) match(d int32, i int, v variant, sc float32) {
	re := ex.doc(d)
	re.Matches = append(re.Matches, TermMatch{
		Query:  ex.terms[i].raw,
		Term:   ex.r.termOf[v.id],
		Via:    v.kind.String(),
		Fields: ex.r.fieldsOf(d, v.id),
		Score:  float64(sc),
	})
}

// phrase records that tool d has query terms i and i+1 next to each other.
func (ex *explainer) phrase(d int32, i int, sc float32) {
	re := ex.doc(d)
	re.Phrases = append(re.Phrases, ex.terms[i].raw+" "+ex.terms[i+1].raw)
}

// keyword records that the query holds tool d's keyword phrase of ids.
func (ex *explainer) keyword(d int32, ids []int32, bonus float32) {
	re := ex.doc(d)
	words := make([]string, len(ids))
	for i, id := range ids {
		words[i] = ex.r.termOf[id]
	}
	re.Keyword = strings.Join(words, " ")
	re.KeywordScore = float64(bonus)
}

// looseKeyword records that the query holds most words of tool d's nth
// keyword.
func (ex *explainer) looseKeyword(d int32, nth int, bonus float32) {
	re := ex.doc(d)
	re.Keyword = ex.r.tools[d].Tool.Keywords[nth]
	re.KeywordScore = float64(bonus)
}

func (ex *explainer) factors(d int32, termScore, coverage, inName, factor float64) {
	re := ex.doc(d)
	re.TermScore, re.Coverage, re.InName = termScore, coverage, inName
	if factor != 1 {
		re.Factor = factor
	}
}

func (ex *explainer) result(d int32, score float64, flags uint8) {
	re := ex.doc(d)
	re.Score = score
	switch {
	case flags&flagLitName != 0:
		re.Literal = "name"
	case flags&flagLiteral != 0:
		re.Literal = "text"
	}
	re.CommandLine = flags&flagCmdLine != 0
}

// fieldsOf returns the names of tool d's fields that hold term id. It
// analyses the tool's text again, as indexing did: explanations are rare
// and the index keeps no positions.
func (r *ranker) fieldsOf(d int32, id int32) []string {
	t := r.tools[d]
	term := r.termOf[id]
	has := func(texts ...string) bool {
		for _, s := range texts {
			found := false
			tokenize(s, func(tok []byte) { found = found || stem(string(tok)) == term })
			if found {
				return true
			}
		}
		return false
	}
	var out []string
	add := func(f searchField, texts ...string) {
		if has(texts...) {
			out = append(out, f.String())
		}
	}
	add(fieldName, t.Tool.Name)
	add(fieldKeywords, t.Tool.Keywords...)
	add(fieldTags, t.CLI.Tags...)
	add(fieldCategory, t.CLI.Category)
	add(fieldCLI, t.CLI.Name)
	sub, opts := splitCommand(t.Tool.Command)
	add(fieldCommand, sub)
	add(fieldDescription, t.Tool.Description)
	add(fieldCLIDesc, t.CLI.Description)
	var args []string
	for _, a := range t.Tool.Args {
		args = append(append(args, a.Name, a.Description), a.Enum...)
	}
	add(fieldArgs, args...)
	flags := false
	eachFlag(t.Tool.Command, func(f string) { flags = flags || f == term })
	for _, kw := range t.Tool.Keywords {
		if isCommandLine(kw) {
			eachFlag(kw, func(f string) { flags = flags || f == term })
		}
	}
	for _, a := range t.Tool.Args {
		eachFlag(a.Flag, func(f string) { flags = flags || f == term })
	}
	if flags {
		out = append(out, fieldFlags.String())
	}
	add(fieldCommandOpts, opts)
	return slices.Clip(out)
}

// keep returns the filter of Search and Explain: tools whose CLI has the
// category and name given, case-insensitively; an empty filter is not
// applied, and with neither it is nil (every tool is kept).
func (ix *Index) keep(category, cli string) func(int) bool {
	if category == "" && cli == "" {
		return nil
	}
	return func(i int) bool {
		c := ix.tools[i].CLI
		return (category == "" || strings.EqualFold(c.Category, category)) &&
			(cli == "" || strings.EqualFold(c.Name, cli))
	}
}
