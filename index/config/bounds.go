package config

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Loading is bounded whatever the input: in the work aliases can cause
// (expandedLimit), in the problems kept and printed (MaxProblems) and in
// how much of a value a message quotes (maxQuoted).

// MaxProblems is the most problems a [*LoadError] lists for one file: the
// first ones by position. Its Omitted field counts the others.
const MaxProblems = 50

// maxQuoted is how many bytes of a value from a file a message quotes.
const maxQuoted = 80

// expandedLimit is the most nodes a document of size bytes may stand for
// once its aliases (and so its merge keys) are expanded. A document
// without aliases is far below it (every node takes at least a byte of
// text); a few kilobytes of nested aliases are not, and checking them
// would take hours and gigabytes.
func expandedLimit(size int) int { return 10_000 + 4*size }

// quote renders a value from a config or policy for a message: in double
// quotes with control characters escaped, so that the message stays on one
// line, and cut to its first maxQuoted bytes followed by "…" when longer.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:cutAt(s, maxQuoted)]) + "…"
}

// clip renders text from a file, or text that quotes it, for a message
// without quotes: at most n bytes (then "…"), with control characters and
// invalid UTF-8 escaped as in Go strings.
func clip(s string, n int) string {
	cut := false
	if len(s) > n {
		s, cut = s[:cutAt(s, n)], true
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

// cutAt returns the largest index at most n that does not split a UTF-8
// sequence of s (len(s) > n).
func cutAt(s string, n int) int {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// patternError describes why a policy pattern does not compile, quoting at
// most maxQuoted bytes of it.
func patternError(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("error parsing regexp: %s: `%s`", se.Code, clip(se.Expr, maxQuoted))
	}
	return clip(err.Error(), 2*maxQuoted)
}

// add records a problem, keeping only the first MaxProblems by position
// (the earlier-found first among equal positions) and counting the others.
func (c *checker) add(p Problem) {
	after := func(q Problem) bool {
		return q.Line > p.Line || q.Line == p.Line && q.Column > p.Column
	}
	i := len(c.problems)
	for i > 0 && after(c.problems[i-1]) {
		i--
	}
	if i == MaxProblems {
		c.omitted++
		return
	}
	if len(c.problems) == MaxProblems {
		c.problems = c.problems[:MaxProblems-1]
		c.omitted++
	}
	c.problems = append(c.problems, Problem{})
	copy(c.problems[i+1:], c.problems[i:])
	c.problems[i] = p
}

// expansion measures what a document stands for once its aliases are
// expanded, without expanding them.
type expansion struct {
	limit int
	size  map[*yaml.Node]int // expanded size of the anchored nodes measured; -1 while measuring
}

// sizeOf returns the number of nodes n stands for with its aliases
// expanded, at most e.limit+1, or false when n contains an alias to itself
// or to a node around it.
func (e *expansion) sizeOf(n *yaml.Node) (int, bool) {
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return 1, true
		}
		n = n.Alias
	}
	// Only anchored nodes can be reached twice (or from inside
	// themselves): only they are remembered.
	anchored := n.Anchor != ""
	if anchored {
		switch s, seen := e.size[n]; {
		case seen && s < 0:
			return 0, false
		case seen:
			return s, true
		}
		e.size[n] = -1
	}
	total := 1
	for _, c := range n.Content {
		s, ok := e.sizeOf(c)
		if !ok {
			return 0, false
		}
		total = min(total+s, e.limit+1)
	}
	if anchored {
		e.size[n] = total
	}
	return total, true
}

// culprit returns the first alias, in document order, at which the nodes
// of n counted so far (*count, aliases expanded) exceed the limit, or nil.
// It returns the first recursive alias when there is one before.
func (e *expansion) culprit(n *yaml.Node, count *int) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		s, ok := e.sizeOf(n)
		if *count += s; !ok || *count > e.limit {
			return n
		}
		return nil
	}
	*count++
	for _, c := range n.Content {
		if a := e.culprit(c, count); a != nil {
			return a
		}
	}
	return nil
}

// expansionOK reports whether the document under root, of size bytes,
// stays within [expandedLimit] once its aliases and merge keys are
// expanded and has no recursive alias. When it does not it reports why,
// at the alias that crosses the limit.
func (c *checker) expansionOK(root *yaml.Node, size int) bool {
	e := &expansion{limit: expandedLimit(size), size: map[*yaml.Node]int{}}
	if total, ok := e.sizeOf(root); ok && total <= e.limit {
		return true
	}
	count := 0
	a := e.culprit(root, &count)
	if a == nil { // unreachable: the root's size is what culprit counts
		a = root
	}
	name := "*" + clip(a.Value, maxQuoted)
	if _, ok := e.sizeOf(a); !ok {
		c.report(a, "", "alias %s is used inside the node it names: YAML aliases cannot contain themselves; write the value out", name)
		return false
	}
	c.report(a, "", "too many expanded aliases/merge keys: expanding %s here goes past the limit (%d nodes for a file of %d bytes); repeat less through aliases", name, e.limit, size)
	return false
}
