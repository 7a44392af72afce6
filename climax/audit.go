package main

import (
	"fmt"
	"os"
	"time"
)

// auditFlushTimeout is how long a stopping server waits for the audit
// records still queued to be written (a FIFO whose reader stalled makes
// it give up) before it closes the log and exits.
const auditFlushTimeout = 2 * time.Second

// openAuditLog opens the --audit-log file for appending, creating it with
// mode 0600, without waiting: a named pipe (FIFO) that no process reads
// fails at once with a message saying so, instead of blocking the start
// until a reader comes (docs/operations.md, "Audit log"). Writes to the
// file never hold a call: the server writes from a goroutine of its own,
// and a FIFO's writes wait in Go's poller, which closing the file wakes.
func openAuditLog(path string) (*os.File, error) {
	f, err := openAppendNonBlocking(path)
	if err != nil {
		if noReader(err) {
			return nil, fmt.Errorf("audit log: %s is a named pipe (FIFO) that no process has open for reading: start its reader first, or give a regular file (fix --audit-log / CLIMAX_AUDIT_LOG)", path)
		}
		return nil, fmt.Errorf("audit log: %w (fix --audit-log / CLIMAX_AUDIT_LOG)", err)
	}
	return f, nil
}
