package executor

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// capBuffer keeps at most limit bytes of a stream: the first half as it
// arrives and the last half in a ring, whatever the stream's length.
type capBuffer struct {
	limit   int
	head    []byte // up to headCap bytes
	headCap int
	ring    []byte // up to limit-headCap bytes, allocated on first use
	pos     int    // next write position in ring once it is full
	full    bool   // ring has wrapped
	total   int64  // bytes written
}

func newCapBuffer(limit int) *capBuffer {
	if limit < 2 {
		limit = 2
	}
	return &capBuffer{limit: limit, headCap: limit / 2}
}

// Write never fails and never keeps more than limit bytes.
func (b *capBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if room := b.headCap - len(b.head); room > 0 {
		k := min(room, len(p))
		if b.head == nil {
			b.head = make([]byte, 0, min(b.headCap, max(k, 512)))
		}
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	tailCap := b.limit - b.headCap
	if !b.full {
		if b.ring == nil {
			b.ring = make([]byte, 0, min(tailCap, max(len(p), 512)))
		}
		if room := tailCap - len(b.ring); room > 0 {
			k := min(room, len(p))
			b.ring = append(b.ring, p[:k]...)
			p = p[k:]
		}
		if len(p) == 0 {
			return n, nil
		}
		b.full = true
		b.pos = 0
	}
	if len(p) >= tailCap {
		copy(b.ring, p[len(p)-tailCap:])
		b.pos = 0
		return n, nil
	}
	k := copy(b.ring[b.pos:], p)
	copy(b.ring, p[k:])
	b.pos = (b.pos + len(p)) % tailCap
	return n, nil
}

// readBuffers holds the read buffers of readFrom: every call reads two
// streams, and a fresh 32 KiB buffer for each was most of what the
// executor allocated per call.
var readBuffers = sync.Pool{New: func() any {
	b := make([]byte, 32*1024)
	return &b
}}

// readFrom copies r into b until EOF or an error (such as the reader being
// closed), so that memory stays bounded whatever r produces.
func (b *capBuffer) readFrom(r io.Reader) {
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	buf := *bp
	for {
		n, err := r.Read(buf)
		if n > 0 {
			b.Write(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// String returns what was kept as valid UTF-8 (invalid bytes become
// U+FFFD) and whether anything was cut. When the stream exceeded the
// limit, the head and the tail are joined by a marker line
// "[... N bytes omitted ...]"; cuts fall on character boundaries.
func (b *capBuffer) String() (string, bool) {
	var tail []byte
	if b.full {
		tail = make([]byte, 0, len(b.ring))
		tail = append(tail, b.ring[b.pos:]...)
		tail = append(tail, b.ring[:b.pos]...)
	} else {
		tail = b.ring
	}
	if int64(len(b.head)+len(tail)) == b.total {
		return validUTF8(string(b.head) + string(tail)), false
	}
	head := b.head
	// Do not cut a character in two: drop a partial one at either end.
	if i := lastRuneStart(head); i >= 0 && !utf8.FullRune(head[i:]) {
		head = head[:i]
	}
	for k := 0; k < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); k++ {
		tail = tail[1:]
	}
	omitted := b.total - int64(len(head)) - int64(len(tail))
	var s strings.Builder
	s.Grow(len(head) + len(tail) + 48)
	s.WriteString(validUTF8(string(head)))
	if len(head) > 0 && head[len(head)-1] != '\n' {
		s.WriteByte('\n')
	}
	fmt.Fprintf(&s, "[... %d bytes omitted ...]\n", omitted)
	s.WriteString(validUTF8(string(tail)))
	return s.String(), true
}

// lastRuneStart returns the index of the last byte that starts a
// character within the final utf8.UTFMax bytes of p, or -1.
func lastRuneStart(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			return i
		}
	}
	return -1
}

func validUTF8(s string) string {
	return strings.ToValidUTF8(s, "\uFFFD")
}
