package executor

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// capBuffer keeps at most limit bytes of a stream for the result: the
// first half as it arrives and the last half in a ring, whatever the
// stream's length. It also keeps the byte after the head and the byte
// before the tail, so that String can tell whether a cut already falls
// where a line ends.
type capBuffer struct {
	limit     int
	head      []byte // up to headCap bytes
	headCap   int
	afterHead byte   // the byte written right after the head, once there is one
	ring      []byte // up to ringCap bytes: the tail and the byte before it; allocated on first use
	pos       int    // next write position in ring once it is full
	full      bool   // ring has wrapped
	total     int64  // bytes written
}

func newCapBuffer(limit int) *capBuffer {
	if limit < 2 {
		limit = 2
	}
	return &capBuffer{limit: limit, headCap: limit / 2}
}

// ringCap is the ring's size: the tail's share of the limit and one byte
// more, the byte before the tail.
func (b *capBuffer) ringCap() int { return b.limit - b.headCap + 1 }

// Write never fails and never keeps more than limit+1 bytes.
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
	ringCap := b.ringCap()
	if !b.full {
		if b.ring == nil {
			b.afterHead = p[0]
			b.ring = make([]byte, 0, min(ringCap, max(len(p), 512)))
		}
		if room := ringCap - len(b.ring); room > 0 {
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
	if len(p) >= ringCap {
		copy(b.ring, p[len(p)-ringCap:])
		b.pos = 0
		return n, nil
	}
	k := copy(b.ring[b.pos:], p)
	copy(b.ring, p[k:])
	b.pos = (b.pos + len(p)) % ringCap
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
// "[... N bytes omitted ...]", N counting every byte of the stream not
// shown (a line break added before the marker is not the stream's). The head
// ends where a line ends and the tail starts where one starts when that
// gives up at most a quarter of either half (see cutHead and cutTail);
// otherwise the cuts fall on character boundaries.
func (b *capBuffer) String() (string, bool) {
	if b.total <= int64(b.limit) {
		return validUTF8(string(b.head) + string(b.ring)), false
	}
	// Past the limit the ring is full: its oldest byte is the one before
	// the tail.
	kept := make([]byte, 0, len(b.ring))
	kept = append(kept, b.ring[b.pos:]...)
	kept = append(kept, b.ring[:b.pos]...)
	head := cutHead(b.head, b.afterHead)
	tail := cutTail(kept[1:], kept[0])
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

// lineSlack is how many bytes of a half (head or tail) of size n a cut
// gives up at most to fall where a line ends: a quarter of it. A longer
// partial line is cut at a character boundary instead, so that one huge
// line still shows its start and its end.
func lineSlack(n int) int { return n / 4 }

// cutHead returns the part of the stream to show before the marker, head
// being the bytes kept and next the byte that followed them. When next is a
// newline it is shown too, as the end of head's last line (one byte beyond
// the half, so that what precedes the marker is always the stream's own
// text); otherwise head ends after its last newline when at most
// lineSlack bytes follow that newline, and else before a character the cut
// would split.
func cutHead(head []byte, next byte) []byte {
	if next == '\n' {
		return append(slices.Clip(head), next)
	}
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 && len(head)-(i+1) <= lineSlack(len(head)) {
		return head[:i+1]
	}
	if i := lastRuneStart(head); i >= 0 && !utf8.FullRune(head[i:]) {
		head = head[:i]
	}
	return head
}

// cutTail returns the part of tail to show, prev being the byte before it
// in the stream. A tail that starts a line (prev is a newline) stays as it
// is; otherwise it starts after its first newline when that newline is
// within its first lineSlack bytes, and else after a character the cut
// split.
func cutTail(tail []byte, prev byte) []byte {
	if prev == '\n' {
		return tail
	}
	if j := bytes.IndexByte(tail, '\n'); j >= 0 && j+1 <= lineSlack(len(tail)) {
		return tail[j+1:]
	}
	for k := 0; k < utf8.UTFMax-1 && len(tail) > 0 && !utf8.RuneStart(tail[0]); k++ {
		tail = tail[1:]
	}
	return tail
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
