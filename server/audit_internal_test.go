package server

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// heldWriter takes no write until release is closed, as a FIFO whose
// reader stopped reading.
type heldWriter struct {
	release chan struct{}
	mu      sync.Mutex
	buf     bytes.Buffer
}

func (w *heldWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// flush gives up on a log that takes no writes after exactly its timeout,
// and the queue it could not write is written, then the line that counts
// what was dropped, once the log takes writes again. In a synctest bubble
// the timeout passes on the bubble's clock, without waiting for it.
func TestAuditFlushTimeoutAndResume(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, a := heldLog(maxAuditQueue + 2)
		start := time.Now()
		if a.flush(2 * time.Second) {
			t.Fatal("flush reported a held log written")
		}
		if waited := time.Since(start); waited != 2*time.Second {
			t.Errorf("flush waited %v, want its timeout, 2s", waited)
		}
		out := release(t, w, a)
		// The writer held the first record; the queue took
		// maxAuditQueue more, and the last two were dropped.
		if got := strings.Count(out, `"tool":"t"`); got != maxAuditQueue+1 {
			t.Errorf("%d records written, want %d", got, maxAuditQueue+1)
		}
		if !strings.Contains(out, `"dropped_records":2`) || !strings.Contains(out, `"2 audit records were dropped:`) {
			t.Errorf("no line counting the 2 dropped records:\n%s", out[max(0, len(out)-300):])
		}
	})
}

// heldLog returns an audit log whose writer holds its first record, in
// Write, with n more records added behind it. Call it in a synctest
// bubble.
func heldLog(n int) (*heldWriter, *auditLog) {
	w := &heldWriter{release: make(chan struct{})}
	a := newAuditLog(w)
	a.add(&auditRecord{Tool: "t"})
	synctest.Wait() // the writer holds that one, in Write
	for range n {
		a.add(&auditRecord{Tool: "t"})
	}
	return w, a
}

// release lets w take writes, flushes a and returns what w got.
func release(t *testing.T, w *heldWriter, a *auditLog) string {
	t.Helper()
	close(w.release)
	if !a.flush(time.Second) {
		t.Fatal("flush timed out once the log took writes")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// One dropped record is counted in the singular.
func TestAuditOneDropped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w, a := heldLog(maxAuditQueue + 1)
		out := release(t, w, a)
		if !strings.Contains(out, `"dropped_records":1,"note":"1 audit record was dropped:`) {
			t.Errorf("no line counting the one dropped record:\n%s", out[max(0, len(out)-300):])
		}
	})
}

// Counts in the audit log's cut values agree with their number.
func TestAuditValueCounts(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{[]any{"a"}, "…(an array of 1 item)"},
		{[]any{"a", "b"}, "…(an array of 2 items)"},
		{map[string]any{"a": 1}, "…(an object of 1 member)"},
		{map[string]any{"a": 1, "b": 2}, "…(an object of 2 members)"},
	} {
		if got := auditValue(tc.v, maxAuditDepth); got != tc.want {
			t.Errorf("auditValue(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	for extra, want := range map[int]string{1: "(1 more member)", 2: "(2 more members)"} {
		obj := map[string]any{}
		for i := range maxAuditItems + extra {
			obj[string(rune('a'+i))] = i
		}
		if got := auditObject(obj, 0, looksSecret)["…"]; got != want {
			t.Errorf("%d members: %q, want %q", maxAuditItems+extra, got, want)
		}
	}
}
