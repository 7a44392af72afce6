package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
	"github.com/climax-mcp/climax/server"
	"github.com/tiktoken-go/tokenizer/codec"
)

// Encodings the token table can count with.
const (
	cl100kBase = "cl100k_base"
	o200kBase  = "o200k_base"
)

// searchLimit is the number of results of the climax_search responses the
// "find and call" row counts; wideSearchLimit that of the second column of
// the search table (climax_search's default).
const (
	searchLimit     = 5
	wideSearchLimit = metatools.DefaultLimit
)

// searchQueries are what an agent might type into climax_search before
// calling a tool; the "find and call" row averages their responses.
var searchQueries = []string{
	"show uncommitted changes",
	"commit staged files",
	"create a new branch",
	"list running containers",
	"view pod logs",
	"run go tests",
	"install npm package",
	"build rust project",
	"run make target",
	"extract tar archive",
	"filter json",
	"http get request",
	"list database tables",
	"describe the current change",
}

// A counter counts the tokens of a text.
type counter interface {
	Count(text string) (int, error)
}

// The codecs are built at most once per process: building one takes tens
// of milliseconds.
var (
	cl100k = sync.OnceValue(func() counter { return codec.NewCl100kBase() })
	o200k  = sync.OnceValue(func() counter { return codec.NewO200kBase() })
)

// newCounter returns the tokenizer of the named encoding.
func newCounter(encoding string) (counter, error) {
	switch encoding {
	case cl100kBase:
		return cl100k(), nil
	case o200kBase:
		return o200k(), nil
	}
	return nil, fmt.Errorf("unknown encoding %q (want %s or %s)", encoding, cl100kBase, o200kBase)
}

// loadConfigs resolves config references (bundled names or paths); no
// references means every bundled config, in name order.
func loadConfigs(refs []string) ([]*config.Config, error) {
	if len(refs) == 0 {
		names, err := config.BundledNames(configs.FS)
		if err != nil {
			return nil, fmt.Errorf("list bundled configs: %w", err)
		}
		refs = names
	}
	cfgs := make([]*config.Config, 0, len(refs))
	for _, ref := range refs {
		c, err := config.LoadRef(ref, configs.FS)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", ref, err)
		}
		cfgs = append(cfgs, c)
	}
	return cfgs, nil
}

// serverToolsList returns the tools/list result the climax server sends
// for ix in the given mode, byte for byte as it arrives on the wire: the
// real server, served over in-memory pipes, so that whatever go-sdk adds
// to the result is counted too.
func serverToolsList(ix *index.Index, classic bool) ([]byte, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	srv := server.New(ix, executor.New(), server.WithClassic(classic))
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(ctx, toServerR, fromServerW)
		fromServerW.Close()
	}()
	got, err := toolsListDialogue(toServerW, fromServerR, "climax server")
	toServerW.Close()
	cancel()
	go io.Copy(io.Discard, fromServerR) // let the server finish writing
	<-done
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	return got, nil
}

// A tokenRow compares the tools/list of one tool set in both modes.
type tokenRow struct {
	label     string
	tools     int
	classic   int // tokens of the classic tools/list
	discovery int // tokens of the discovery tools/list (plus searches, for "find and call")
}

func (r tokenRow) saved() int { return r.classic - r.discovery }

// A searchRow is one query of the "find and call" row: its climax_search
// responses with [searchLimit] and with [wideSearchLimit] results at most.
type searchRow struct {
	query   string
	results int
	tokens  int
	// results10 and tokens10 are those of the response with
	// wideSearchLimit.
	results10, tokens10 int
}

// A tokenReport holds every figure the token table prints.
type tokenReport struct {
	encoding    string
	configs     []tokenRow // one per config, in load order
	total       tokenRow   // every config loaded together
	searches    []searchRow
	findAndCall tokenRow
}

// measureTokens counts the tokens of the classic and discovery tools/list
// of each config alone and of all of them together, and of climax_search
// responses over [searchQueries] against all of them.
func measureTokens(cfgs []*config.Config, encoding string) (*tokenReport, error) {
	tok, err := newCounter(encoding)
	if err != nil {
		return nil, err
	}
	count := func(data []byte) (int, error) { return tok.Count(string(data)) }

	row := func(label string, cs []*config.Config) (tokenRow, *index.Index, error) {
		ix, _, err := index.New(cs, nil)
		if err != nil {
			return tokenRow{}, nil, fmt.Errorf("index %s: %w", label, err)
		}
		r := tokenRow{label: label, tools: ix.Len()}
		for _, m := range []struct {
			classic bool
			tokens  *int
		}{{true, &r.classic}, {false, &r.discovery}} {
			list, err := serverToolsList(ix, m.classic)
			if err != nil {
				return tokenRow{}, nil, err
			}
			if *m.tokens, err = count(list); err != nil {
				return tokenRow{}, nil, err
			}
		}
		return r, ix, nil
	}

	rep := &tokenReport{encoding: encoding}
	for _, c := range cfgs {
		r, _, err := row(c.Name, []*config.Config{c})
		if err != nil {
			return nil, err
		}
		rep.configs = append(rep.configs, r)
	}
	total, ix, err := row(fmt.Sprintf("all %d configs", len(cfgs)), cfgs)
	if err != nil {
		return nil, err
	}
	rep.total = total

	mt := metatools.New(ix, executor.New())
	// search returns the number of results and the tokens of one response.
	search := func(q string, limit int) (results, tokens int, err error) {
		out := mt.Search(map[string]any{"query": q, "limit": limit})
		if out.IsError {
			return 0, 0, fmt.Errorf("climax_search %q: %s", q, out.Text)
		}
		var resp struct {
			Results []json.RawMessage `json:"results"`
		}
		if err := json.Unmarshal([]byte(out.Text), &resp); err != nil {
			return 0, 0, fmt.Errorf("climax_search %q: %w", q, err)
		}
		n, err := tok.Count(out.Text)
		return len(resp.Results), n, err
	}
	sum := 0
	for _, q := range searchQueries {
		r := searchRow{query: q}
		if r.results, r.tokens, err = search(q, searchLimit); err != nil {
			return nil, err
		}
		if r.results10, r.tokens10, err = search(q, wideSearchLimit); err != nil {
			return nil, err
		}
		rep.searches = append(rep.searches, r)
		sum += r.tokens
	}
	rep.findAndCall = tokenRow{
		label:     "find and call",
		tools:     total.tools,
		classic:   total.classic,
		discovery: total.discovery + roundDiv(sum, len(searchQueries)),
	}
	return rep, nil
}

// roundDiv returns a/b rounded half up, for non-negative a and positive b.
func roundDiv(a, b int) int { return (2*a + b) / (2 * b) }

// write prints the report as Markdown: the token table, then the
// climax_search responses behind its "find and call" row.
func (rep *tokenReport) write(w io.Writer) error {
	t := table{
		header: []string{"Config", "Tools", "Classic tokens", "Discovery tokens", "Saved tokens", "Saved"},
		aligns: []align{left, right, right, right, right, right},
	}
	add := func(r tokenRow) {
		t.addRow(r.label, formatInt(r.tools), formatInt(r.classic), formatInt(r.discovery), formatInt(r.saved()), formatPercent(r.saved(), r.classic))
	}
	for _, r := range rep.configs {
		add(r)
	}
	add(rep.total)
	add(rep.findAndCall)

	var b strings.Builder
	fmt.Fprintf(&b, "Tokens of the tools/list result, classic mode against discovery mode (%s).\n\n", rep.encoding)
	if err := t.write(&b); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\n\"find and call\": the discovery tools/list plus the average climax_search response (limit %d) over the %d queries below, against the classic tools/list of all configs. The last two columns are the same queries with limit %d.\n\n", searchLimit, len(rep.searches), wideSearchLimit)

	s := table{
		header: []string{"climax_search query", "Results", "Tokens", fmt.Sprintf("Results (limit %d)", wideSearchLimit), fmt.Sprintf("Tokens (limit %d)", wideSearchLimit)},
		aligns: []align{left, right, right, right, right},
	}
	var sum, results, sum10, results10 int
	for _, r := range rep.searches {
		s.addRow(r.query, formatInt(r.results), formatInt(r.tokens), formatInt(r.results10), formatInt(r.tokens10))
		sum += r.tokens
		results += r.results
		sum10 += r.tokens10
		results10 += r.results10
	}
	if n := len(rep.searches); n > 0 {
		s.addRow("average", fmt.Sprintf("%.1f", float64(results)/float64(n)), formatInt(roundDiv(sum, n)),
			fmt.Sprintf("%.1f", float64(results10)/float64(n)), formatInt(roundDiv(sum10, n)))
	}
	if err := s.write(&b); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}
