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
		w := &heldWriter{release: make(chan struct{})}
		a := newAuditLog(w)
		a.add(&auditRecord{Tool: "t"})
		synctest.Wait() // the writer holds that one, in Write
		for range maxAuditQueue + 2 {
			a.add(&auditRecord{Tool: "t"})
		}
		start := time.Now()
		if a.flush(2 * time.Second) {
			t.Fatal("flush reported a held log written")
		}
		if waited := time.Since(start); waited != 2*time.Second {
			t.Errorf("flush waited %v, want its timeout, 2s", waited)
		}
		close(w.release)
		if !a.flush(time.Second) {
			t.Fatal("flush timed out once the log took writes")
		}
		w.mu.Lock()
		out := w.buf.String()
		w.mu.Unlock()
		// The writer held the first record; the queue took
		// maxAuditQueue more, and the last two were dropped.
		if got := strings.Count(out, `"tool":"t"`); got != maxAuditQueue+1 {
			t.Errorf("%d records written, want %d", got, maxAuditQueue+1)
		}
		if !strings.Contains(out, `"dropped_records":2`) {
			t.Errorf("no line counting the 2 dropped records:\n%s", out[max(0, len(out)-300):])
		}
	})
}
