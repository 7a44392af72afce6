package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The YAML library reports a syntax error as text only ("yaml: line N:
// PROBLEM"), and its N is often not the line of the mistake: it is the
// line where the construct being read starts (a list, a mapping, a plain
// string) rather than where the mistake is, and for some errors one less
// than that line, or the last line of the file when the construct starts
// on line 1. syntax finds the line again with the library itself:
//
//   - it reads the file once more behind one added empty line, which
//     keeps the library from falling back to another position, and turns
//     the N it gives into the line where the construct starts (the
//     library counts differently for errors of its scanner and of its
//     parser, told apart by their text);
//   - for a mistake that the library reports at the start of the block
//     around it (bad indentation, a tab among the indentation of a
//     string's next line), the mistake is on the first line L from there
//     on such that the file's lines 1 to L alone give the same error:
//     reading a correct block only up to one of its lines never gives
//     that error. Found by bisection, it costs a few more readings of
//     the file, on a file that does not load; on a file over maxBisected
//     the error stays at the start of the block, and says so.
//
// The common mistakes then get a message that says what to fix (a tab in
// the indentation, bad indentation, a quoted string never closed); the
// others keep the library's text.

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Problems of the YAML library's parser (the others with a line are its
// scanner's): it counts their lines from 0.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// Problems the library reports at the start of the block around the
// mistake.
var (
	blockProblems = []string{"did not find expected '-' indicator", "did not find expected key"}
	tabProblems   = []string{"found a tab character that violates indentation", "found a tab character where an indentation space is expected"}
)

// maxBisected is the size of the largest file whose mistake is looked
// for line by line (firstFailing). Each step reads the file up to a line
// again: at 1 MiB the search took 1.5 s of CPU, at 4 MiB (the most climax
// reads) 6 s; 256 KiB is about five times the largest bundled config.
const maxBisected = 256 << 10

// unclosedQuote is the library's problem for a file that ends inside a
// quoted string (the only one it words so).
const unclosedQuote = "found unexpected end of stream"

// syntax records a YAML syntax error of data, at the line of the mistake
// where it can be found (see above). The library's message may quote the
// file (an unknown anchor's name): it is shortened.
func (c *checker) syntax(err error, data []byte) {
	p := Problem{File: c.file}
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		// The YAML reader gives no position for bytes it refuses before
		// parsing: find the first one.
		p.Line, p.Column = firstUnreadable(data)
		p.Message = "invalid YAML: " + clip(strings.TrimPrefix(err.Error(), "yaml: "), 2*maxQuoted)
		c.add(p)
		return
	}
	line, _ := strconv.Atoi(m[1])
	p.Line, p.Column, p.Message = locateSyntax(data, line, m[2])
	p.Message = "invalid YAML: " + p.Message
	c.add(p)
}

// locateSyntax returns the line and column (0 when unknown) of the
// mistake behind the library's problem text, reported at line, and the
// message to give: the library's text, shortened, unless a better one is
// known.
func locateSyntax(data []byte, line int, problem string) (int, int, string) {
	src := newLines(data)
	start := src.constructLine(data, problem)
	shown := clip(problem, 2*maxQuoted)
	if start == 0 {
		return line, 0, shown // read differently the second time: keep the library's word
	}
	switch {
	case len(data) > maxBisected && (slices.Contains(blockProblems, problem) || slices.Contains(tabProblems, problem)):
		return start, 0, problem + " (in the block that starts on this line; the mistake is on a later line)"
	case slices.Contains(blockProblems, problem):
		at := src.firstFailing(start, problem)
		what := `list that starts at line %d but is not one of its "- " entries`
		if problem == "did not find expected key" {
			what = "mapping that starts at line %d but is not one of its keys"
		}
		return at, src.indent(at) + 1, fmt.Sprintf("bad indentation: this line is inside the "+what+": indent it like the lines it belongs with (%s)", start, problem)
	case slices.Contains(tabProblems, problem):
		at := src.firstFailing(start, problem)
		if col := src.indentTab(at); col > 0 {
			return at, col, "a tab in the indentation: YAML indents with spaces only"
		}
		return at, 0, shown
	case problem == "found character that cannot start any token":
		if col := src.indentTab(start); col > 0 {
			return start, col, "a tab in the indentation: YAML indents with spaces only"
		}
	case problem == unclosedQuote:
		col, quote := openQuote(src.text(start))
		if col == 0 {
			return start, 0, "a quoted string that starts on this line is never closed (the file ends inside it): add its closing quote"
		}
		return start, col, fmt.Sprintf("the quoted string that starts here is never closed (the file ends inside it): add the closing %c", quote)
	case problem == "did not find expected ',' or ']'" || problem == "did not find expected ',' or '}'":
		closer := problem[len(problem)-2 : len(problem)-1]
		return start, 0, fmt.Sprintf("%s in the flow collection that opens on this line: close it with %s, and separate its items with commas", problem, closer)
	case problem == "mapping values are not allowed in this context":
		return start, 0, problem + `: a "key: value" indented deeper than the line above it, or ": " inside a string that is not quoted (quote it)`
	}
	return start, 0, shown
}

// lines indexes the lines of a file.
type lines struct {
	data  []byte
	start []int // the offset of each line's first byte; line n starts at start[n-1]
}

func newLines(data []byte) *lines {
	l := &lines{data: data, start: []int{0}}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			l.start = append(l.start, i+1)
		}
	}
	return l
}

// text returns line n without its line break; "" past the end.
func (l *lines) text(n int) string {
	if n < 1 || n > len(l.start) {
		return ""
	}
	end := len(l.data)
	if n < len(l.start) {
		end = l.start[n]
	}
	return strings.TrimRight(string(l.data[l.start[n-1]:end]), "\r\n")
}

// upTo returns the file's lines 1 to n.
func (l *lines) upTo(n int) []byte {
	if n >= len(l.start) {
		return l.data
	}
	return l.data[:l.start[n]]
}

// indent returns how many spaces line n starts with.
func (l *lines) indent(n int) int {
	t := l.text(n)
	return len(t) - len(strings.TrimLeft(t, " "))
}

// indentTab returns the 1-based column of the first tab among the blanks
// that start line n, or 0 when there is none.
func (l *lines) indentTab(n int) int {
	t := l.text(n)
	blanks := t[:len(t)-len(strings.TrimLeft(t, " \t"))]
	return strings.IndexByte(blanks, '\t') + 1
}

// constructLine reads data again behind an added empty line and returns
// the line, in data, where the construct the library reports problem in
// starts; 0 when the second reading gives another error.
func (l *lines) constructLine(data []byte, problem string) int {
	bom := 0
	if bytes.HasPrefix(data, []byte("\uFEFF")) {
		bom = 3 // a byte order mark is allowed only first
	}
	shifted := slices.Concat(data[:bom], []byte("\n"), data[bom:])
	m := yamlLine.FindStringSubmatch(errorText(decodeError(shifted)))
	if m == nil || m[2] != problem {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	// Behind the empty line, the library gives a scanner problem's line
	// counted from 1 and a parser problem's counted from 0: the line of
	// data, one less, counted from 1, is either n-1 or n.
	if !slices.Contains(parserProblems, problem) {
		n--
	}
	return min(max(n, 1), len(l.start))
}

// firstFailing returns the first line n, from line from on, such that the
// file's lines 1 to n alone give problem; the last line when none does
// before it.
func (l *lines) firstFailing(from int, problem string) int {
	lo, hi := from, len(l.start) // the answer is in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo)/2
		m := yamlLine.FindStringSubmatch(errorText(decodeError(l.upTo(mid))))
		if m != nil && m[2] == problem {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// decodeError returns the error the loader meets reading data: decoding
// its first document and, when that works, its second; nil when there is
// none.
func decodeError(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for range 2 {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
	return nil
}

func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// openQuote returns the 1-based column (in characters) of the quote that
// opens a quoted string not closed on line, and that quote; 0 when there
// is none. A quote inside a plain string (it's) or a comment opens none.
func openQuote(line string) (int, rune) {
	for i := 0; i < len(line); i++ {
		q := line[i]
		if q == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t') {
			return 0, 0
		}
		if q != '"' && q != '\'' || i > 0 && !strings.ContainsRune(" \t[{,:-?", rune(line[i-1])) {
			continue
		}
		j := i + 1
		for ; j < len(line); j++ {
			if q == '"' && line[j] == '\\' {
				j++
				continue
			}
			if line[j] == q {
				if q == '\'' && j+1 < len(line) && line[j+1] == '\'' {
					j++
					continue
				}
				break
			}
		}
		if j >= len(line) {
			return utf8.RuneCountInString(line[:i]) + 1, rune(q)
		}
		i = j
	}
	return 0, 0
}

// firstUnreadable returns the line and column (1-based, in characters) of
// the first byte of data that YAML does not allow in a file: a control
// character other than tab, newline and carriage return, or invalid UTF-8;
// 0, 0 when there is none.
func firstUnreadable(data []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1,
			r < 0x20 && r != '\t' && r != '\n' && r != '\r',
			r == 0x7f:
			return line, col
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += size
	}
	return 0, 0
}
