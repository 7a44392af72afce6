package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// scaffoldPrograms are the programs, none of them bundled, that the
// scaffold table drafts configs for; those not installed are skipped. The
// drafting was tuned on terraform, zstd, gzip, ls, pip and the bundled
// programs (kubectl, docker, git, cargo, npm, go, curl, find; then aws,
// claude and npm's audit for the tool ranking, commander.js lists and
// usage choices); the others are here as they were. A program that has
// since become bundled is measured against its config instead.
var scaffoldPrograms = []string{
	"terraform", "sqlite3", "pip", "zstd", "sed", "gzip", "xz", "bzip2", "grep", "diff",
	"sort", "ls", "wget", "openssl", "gpg", "ssh", "unzip", "zip", "rustup", "node",
	"python3", "yq", "awk", "cut", "du", "date", "stat", "file", "head", "tr", "wc",
}

// A scaffoldRow is one program's figures.
type scaffoldRow struct {
	program  string
	drafted  bool
	valid    bool
	problem  string
	tools    int
	flags    int
	accepted int
	rejected int
	seconds  float64
	tokens   int // classic tools/list tokens of the draft

	// Against a bundled config (the answer key).
	bundled       bool
	keyTools      int
	matchedTools  int
	keyFlags      int
	matchedFlags  int
	bundledTokens int // classic tools/list tokens of the bundled config
	bundledTools  int
	missedFlags   []string // "SUBCOMMAND FLAG" of the key that the draft lacks
	missedTools   []string
}

func (r scaffoldRow) acceptance() float64 {
	if r.accepted+r.rejected == 0 {
		return 1
	}
	return float64(r.accepted) / float64(r.accepted+r.rejected)
}

// runScaffold builds climax, drafts a config for each program with
// 'climax scaffold', validates it, checks it with 'climax scaffold
// --verify', and for the bundled programs compares the draft with the
// hand-written config. It prints the table.
func runScaffold(o options, stdout, stderr io.Writer) error {
	dir, err := os.MkdirTemp("", "climax-scaffold-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	bin := o.climax
	if bin == "" {
		if bin, _, err = buildBinaries(dir, "", logf); err != nil {
			return err
		}
	}
	tok, err := newCounter(o.encoding)
	if err != nil {
		return err
	}
	bundled, err := loadConfigs(nil)
	if err != nil {
		return err
	}
	isBundled := map[string]bool{}
	for _, cfg := range bundled {
		if words := executor.BaseCommand(cfg); len(words) > 0 {
			isBundled[words[0]] = true
		}
	}
	var rows, keyRows []scaffoldRow
	for _, prog := range scaffoldPrograms {
		if _, err := exec.LookPath(prog); err != nil || isBundled[prog] || o.only != "" && o.only != prog {
			continue
		}
		logf("scaffold %s", prog)
		rows = append(rows, scaffoldOne(bin, dir, prog, nil, tok))
	}
	for _, cfg := range bundled {
		if _, err := executor.FindProgram(cfg); err != nil {
			continue
		}
		prog := executor.BaseCommand(cfg)[0]
		if o.only != "" && o.only != prog {
			continue
		}
		logf("scaffold %s (bundled)", prog)
		row := scaffoldOne(bin, dir, prog, cfg, tok)
		if len(row.missedTools) > 0 {
			logf("  %s: commands the draft lacks: %s", prog, strings.Join(row.missedTools, ", "))
		}
		if len(row.missedFlags) > 0 {
			logf("  %s: flags the draft lacks: %s", prog, strings.Join(row.missedFlags, ", "))
		}
		keyRows = append(keyRows, row)
	}
	return writeScaffold(stdout, rows, keyRows, o.encoding)
}

var partialRE = regexp.MustCompile(`the draft is partial: .*`)

var verifySummaryRE = regexp.MustCompile(`flags (\d+) accepted, (\d+) rejected, (\d+) uninformative`)

// scaffoldOne drafts, validates and verifies one program; key is its
// bundled config, or nil.
func scaffoldOne(bin, dir, prog string, key *config.Config, tok counter) scaffoldRow {
	r := scaffoldRow{program: prog, bundled: key != nil}
	out := filepath.Join(dir, prog+".yaml")
	os.Remove(out)
	args := []string{"scaffold", "-o", out, prog}
	if key != nil {
		// The answer key is the whole hand-written config: draft
		// everything the program has.
		args = append(args, "--max-tools", "400", "--max-flags", "60")
	}
	start := time.Now()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	r.seconds = time.Since(start).Seconds()
	if key != nil {
		// A program that gave no draft still has an answer key.
		compareWithKey(&r, &config.Config{}, nil, key)
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		r.problem = firstLineOf(stderr.String())
		return r
	}
	if err != nil {
		// A partial draft (the program gave no usable help) is still
		// written, and must validate like any other.
		r.problem = "partial: " + firstLineOf(partialRE.FindString(stderr.String()))
	}
	r.drafted = true
	cfg, err := config.Parse(data, out)
	if err != nil {
		r.problem = firstLineOf(err.Error())
		return r
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		r.problem = firstLineOf(err.Error())
		return r
	}
	r.valid = true
	r.tools = len(cfg.Tools)
	for _, t := range cfg.Tools {
		for _, a := range t.Args {
			if !a.Positional {
				r.flags++
			}
		}
	}
	if list, err := serverToolsList(ix, true); err == nil {
		r.tokens, _ = tok.Count(string(list))
	}
	var vout bytes.Buffer
	v := exec.Command(bin, "scaffold", "--verify", out)
	v.Stdout = &vout
	v.Run()
	if m := verifySummaryRE.FindStringSubmatch(vout.String()); m != nil {
		r.accepted, _ = strconv.Atoi(m[1])
		r.rejected, _ = strconv.Atoi(m[2])
	}
	if key != nil {
		r.keyTools, r.matchedTools, r.keyFlags, r.matchedFlags = 0, 0, 0, 0
		r.missedTools, r.missedFlags = nil, nil
		compareWithKey(&r, cfg, data, key)
		kix, _, err := index.New([]*config.Config{key}, nil)
		if err == nil {
			if list, err := serverToolsList(kix, true); err == nil {
				r.bundledTokens, _ = tok.Count(string(list))
			}
			r.bundledTools = kix.Len()
		}
	}
	return r
}

// commandPath is a tool's subcommand words: those of its command before
// the first option ("branch --list" is "branch", "--max-time 60" is ""),
// after git's settings ("-c core.hooksPath=/dev/null status" is "status").
func commandPath(t *config.Tool) string {
	fields := strings.Fields(t.Command)
	for len(fields) >= 2 && fields[0] == "-c" {
		fields = fields[2:]
	}
	var words []string
	for _, w := range fields {
		if strings.HasPrefix(w, "-") {
			break
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

// argFlag is the option an arg puts on the command line, without "=".
func argFlag(a *config.Arg) string {
	f := a.Flag
	if f == "" {
		f = "--" + strings.ReplaceAll(a.Name, "_", "-")
	}
	return strings.TrimSuffix(f, "=")
}

var (
	aliasRE    = regexp.MustCompile(`- name: .*#.*; also (-\S+)`)
	flagLineRE = regexp.MustCompile(`^\s+flag: "([^"]+)"`)
)

// compareWithKey counts the key's subcommand paths the draft has (tool
// recall) and, over those, the key's flags the draft has in either form
// (flag recall; the draft's comments give a long flag's short form).
func compareWithKey(r *scaffoldRow, draft *config.Config, data []byte, key *config.Config) {
	aliases := map[string]string{} // long flag → short form
	alias := ""
	for _, line := range strings.Split(string(data), "\n") {
		if m := aliasRE.FindStringSubmatch(line); m != nil {
			alias = m[1]
			continue
		}
		if m := flagLineRE.FindStringSubmatch(line); m != nil && alias != "" {
			aliases[strings.TrimSuffix(m[1], "=")] = alias
			alias = ""
		}
	}
	draftFlags := map[string][]string{}
	for i := range draft.Tools {
		t := &draft.Tools[i]
		p := commandPath(t)
		if _, ok := draftFlags[p]; !ok {
			draftFlags[p] = []string{}
		}
		for j := range t.Args {
			f := argFlag(&t.Args[j])
			draftFlags[p] = append(draftFlags[p], f)
			if s := aliases[f]; s != "" {
				draftFlags[p] = append(draftFlags[p], s)
			}
		}
	}
	seen := map[string]bool{}
	for i := range key.Tools {
		t := &key.Tools[i]
		p := commandPath(t)
		flags, ok := draftFlags[p]
		if !seen[p] {
			seen[p] = true
			r.keyTools++
			if ok {
				r.matchedTools++
			} else {
				r.missedTools = append(r.missedTools, p)
			}
		}
		if !ok {
			continue
		}
		for j := range t.Args {
			a := &t.Args[j]
			if a.Positional || a.Stdin || a.Cwd || a.Flag == "--" {
				continue
			}
			r.keyFlags++
			if slices.Contains(flags, argFlag(a)) {
				r.matchedFlags++
			} else {
				r.missedFlags = append(r.missedFlags, strings.TrimSpace(p+" "+argFlag(a)))
			}
		}
	}
}

func firstLineOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

func ratio(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// writeScaffold prints both tables and their summary lines.
func writeScaffold(w io.Writer, rows, keyRows []scaffoldRow, encoding string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## climax scaffold on installed programs that are not bundled\n\n")
	fmt.Fprintf(&b, "| program | drafted | valid | tools | flags | accepted / informative | time (s) | tokens per tool (%s, classic) |\n|---|---|---|---:|---:|---:|---:|---:|\n", encoding)
	var times []float64
	allValid := true
	acc, inf := 0, 0
	for _, r := range rows {
		times = append(times, r.seconds)
		allValid = allValid && r.valid
		acc, inf = acc+r.accepted, inf+r.accepted+r.rejected
		note := ""
		if r.problem != "" {
			note = " (" + r.problem + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s%s | %d | %d | %d / %d = %.3f | %.1f | %s |\n", r.program, yes(r.drafted), yes(r.valid), note,
			r.tools, r.flags, r.accepted, r.accepted+r.rejected, r.acceptance(), r.seconds, perTool(r.tokens, r.tools))
	}
	fmt.Fprintf(&b, "\n%d programs, every draft valid: %s, acceptance over all flags %d / %d = %s, median time %.1f s\n\n",
		len(rows), yes(allValid), acc, inf, ratio(acc, inf), medianOf(times))

	fmt.Fprintf(&b, "## Bundled programs: the hand-written configs as answer key\n\n")
	fmt.Fprintf(&b, "| program | tool recall | flag recall | draft tools | accepted / informative | time (s) | tokens per tool: draft | hand-written |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	kt, mt, kf, mf := 0, 0, 0, 0
	times = times[:0]
	for _, r := range keyRows {
		times = append(times, r.seconds)
		kt, mt, kf, mf = kt+r.keyTools, mt+r.matchedTools, kf+r.keyFlags, mf+r.matchedFlags
		fmt.Fprintf(&b, "| %s | %d / %d = %s | %d / %d = %s | %d | %d / %d | %.1f | %s | %s |\n", r.program,
			r.matchedTools, r.keyTools, ratio(r.matchedTools, r.keyTools), r.matchedFlags, r.keyFlags, ratio(r.matchedFlags, r.keyFlags),
			r.tools, r.accepted, r.accepted+r.rejected, r.seconds, perTool(r.tokens, r.tools), perTool(r.bundledTokens, r.bundledTools))
	}
	fmt.Fprintf(&b, "\n%d bundled programs installed: tool recall %d / %d = %s, flag recall over matched tools %d / %d = %s, median time %.1f s\n",
		len(keyRows), mt, kt, ratio(mt, kt), mf, kf, ratio(mf, kf), medianOf(times))
	_, err := io.WriteString(w, b.String())
	return err
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func perTool(tokens, tools int) string {
	if tools == 0 {
		return "–"
	}
	return strconv.Itoa(tokens / tools)
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
