package executor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
)

// Limits on JSON text that a call holds: a call's arguments, and the text
// of a string that holds a json argument's object or array (docs/calls.md,
// Coercion). The server applies the same to a whole message (its
// shape.go takes these constants; docs/security.md, "Memory per
// message").
const (
	// MaxJSONDepth is the deepest nesting of arrays and objects.
	MaxJSONDepth = 1000
	// MaxJSONItems bounds the array items and object members, all levels
	// together.
	MaxJSONItems = 100_000
)

// A jsonTextError is what checkJSONText finds wrong with JSON text that
// encoding/json would decode anyway, or at a cost beyond the limits.
type jsonTextError struct {
	what string // "name %s twice", written for a plural subject
	args []any
	// singular is what to write for a singular subject.
	singular string
	depth    bool // the text nests too deep
}

func (e *jsonTextError) Error() string { return e.phrase("JSON text", true) }

// phrase is the problem with subject as the sentence's subject
// ("Arguments", plural, or "its JSON text", not).
func (e *jsonTextError) phrase(subject string, singular bool) string {
	f := e.what
	if singular {
		f = e.singular
	}
	return subject + " " + fmt.Sprintf(f, e.args...)
}

func duplicateKeyProblem(key string) *jsonTextError {
	const tail = " twice in one object: send each key once (JSON readers differ on which of the two counts)"
	return &jsonTextError{what: "name %s" + tail, singular: "names %s" + tail, args: []any{key}}
}

func loneSurrogateProblem(esc []byte, at int) *jsonTextError {
	const tail = " (byte %d), half of a UTF-16 surrogate pair without its other half: it stands for no character, and a JSON reader would put U+FFFD in its place; send the character itself, or both halves of the pair"
	return &jsonTextError{what: "hold the escape %s" + tail, singular: "holds the escape %s" + tail, args: []any{string(esc), at}}
}

// checkJSONText checks the JSON text b in one pass, without decoding it:
// no object names a key twice, at any depth (encoding/json would keep the
// last, where another reader of the same text may take the first); no
// string holds a lone UTF-16 surrogate escape such as \udc00
// (encoding/json would put U+FFFD in its place, changing the value);
// nesting at most [MaxJSONDepth] deep; at most [MaxJSONItems] array items
// and object members. The error is a *jsonTextError. Text that is not
// valid JSON gets no false problem about keys; what it gets is left to a
// decoder to say.
func checkJSONText(b []byte) error {
	_, err := scanJSONText(b)
	return err
}

// scanJSONText is checkJSONText, and tells whether b is compact: no white
// space outside strings.
func scanJSONText(b []byte) (compact bool, err error) {
	var s jsonScan
	s.seed = maphash.MakeSeed()
	compact = true
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\r', '\n':
			compact = false
			continue
		}
		if s.opened && c != ']' && c != '}' {
			s.items++ // the first item of a container
		}
		s.opened = false
		switch c {
		case '"':
			end := stringEnd(b, i)
			if err := s.str(b, i, end); err != nil {
				return false, err
			}
			i = end
		case '{', '[':
			if len(s.stack) == MaxJSONDepth {
				return false, &jsonTextError{what: "nest deeper than %s levels of arrays and objects", singular: "nests deeper than %s levels of arrays and objects", args: []any{countText(MaxJSONDepth)}, depth: true}
			}
			s.stack = append(s.stack, jsonFrame{object: c == '{', wantKey: c == '{'})
			s.opened = true
		case '}', ']':
			if len(s.stack) > 0 {
				s.stack = s.stack[:len(s.stack)-1]
			}
		case ',':
			s.items++
			if f := s.top(); f != nil && f.object {
				f.wantKey = true
			}
		}
		if s.items > MaxJSONItems {
			return false, &jsonTextError{what: "hold more than %s array items and object members; send fewer", singular: "holds more than %s array items and object members; send fewer", args: []any{countText(MaxJSONItems)}}
		}
	}
	return compact, nil
}

// jsonScan is checkJSONText's state.
type jsonScan struct {
	stack  []jsonFrame
	items  int
	opened bool // the last token opened a container
	seed   maphash.Seed
}

// jsonFrame is an array or object checkJSONText is in.
type jsonFrame struct {
	object  bool
	wantKey bool // the next string is a key
	// keys are the object's keys seen so far, by the hash of their
	// decoded text, each with the offsets of the keys that hash so in
	// the text: positions, not copies, so that a key costs a few bytes
	// whatever its length.
	keys map[uint64][]int
}

func (s *jsonScan) top() *jsonFrame {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// str checks the JSON string b[start:end+1]: its escapes, and, when it is
// an object's key, that the object has not named it before.
func (s *jsonScan) str(b []byte, start, end int) error {
	text := b[start : end+1]
	if at := loneSurrogate(text); at >= 0 {
		return loneSurrogateProblem(text[at:at+6], start+at)
	}
	f := s.top()
	if f == nil || !f.wantKey {
		return nil
	}
	f.wantKey = false
	key, ok := keyText(text)
	if !ok {
		return nil // not valid JSON: the decoder says so
	}
	h := maphash.Bytes(s.seed, key)
	for _, other := range f.keys[h] {
		if k, _ := keyText(b[other : stringEnd(b, other)+1]); bytes.Equal(k, key) {
			return duplicateKeyProblem(quote(string(key)))
		}
	}
	if f.keys == nil {
		f.keys = map[uint64][]int{}
	}
	f.keys[h] = append(f.keys[h], start)
	return nil
}

// keyText is the decoded text of the JSON string text (with its quotes):
// the bytes between the quotes when it has no escape, else decoded.
func keyText(text []byte) ([]byte, bool) {
	if bytes.IndexByte(text, '\\') < 0 {
		return text[1 : len(text)-1], len(text) >= 2
	}
	var k string
	if json.Unmarshal(text, &k) != nil {
		return nil, false
	}
	return []byte(k), true
}

// loneSurrogate returns the offset in the JSON string text b of the first
// \u escape of a UTF-16 surrogate that is not one half of a pair (a high
// one, \ud800 to \udbff, followed at once by a low one, \udc00 to \udfff),
// or -1 when there is none.
func loneSurrogate(b []byte) int {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 || i+j+1 >= len(b) {
			return -1
		}
		i += j
		if b[i+1] != 'u' {
			i += 2 // \" \\ \n and the like
			continue
		}
		r, ok := hex4(b, i+2)
		switch {
		case !ok || r < 0xd800 || r > 0xdfff:
		case r >= 0xdc00:
			return i // a low half first
		case i+12 > len(b) || b[i+6] != '\\' || b[i+7] != 'u':
			return i // a high half alone
		default:
			if low, ok := hex4(b, i+8); !ok || low < 0xdc00 || low > 0xdfff {
				return i
			}
			i += 6 // the pair's high half; its low half is next
		}
		i += 6
	}
	return -1
}

// hex4 reads the four hex digits of b at i.
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// jsonStringLen is the length of [config.AppendJSONString]'s text for
// the valid UTF-8 text s, so that the text is written into a buffer of
// its exact size (encoding/json's Encoder, whose buffer doubles as it
// grows, cost 124 MB for a 31 MiB string).
func jsonStringLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			n++
		case c < 0x20:
			n += 5
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
			n += 3 // U+2028, U+2029: 3 bytes, written as 6
		}
	}
	return n
}
