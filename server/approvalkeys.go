package server

import (
	"bytes"
	"fmt"
)

// MinApprovalKeyLen is the length, in bytes, below which [ParseApprovalKeys]
// refuses an approval key: 32 random bytes, or the 64 characters of
// `openssl rand -hex 32`, are what a key should be.
const MinApprovalKeyLen = 32

// WithApprovalKeys sets the keys that sign the request states of approvals
// asked through input requests (MCP 2026-07-28 and later: the client
// retries the call with the user's answer and the state). keys[0] signs new
// states; a state signed with any of the keys is accepted. Replicas given
// the same keys accept each other's states, so a client whose retry
// reaches another replica than the one that asked is not asked again.
// Listing the previous key after the current one rotates keys without
// asking anyone twice (docs/http.md, "Replicas and approvals").
//
// Without keys (the default) each server signs with a random key of its
// own. Each server still accepts a state once; a state is bound to its
// command and expires after the confirm timeout. Keys should be at least
// [MinApprovalKeyLen] random bytes; empty keys are ignored.
func WithApprovalKeys(keys ...[]byte) Option {
	return func(c *options) {
		c.approvalKeys = nil
		for _, k := range keys {
			if len(k) > 0 {
				c.approvalKeys = append(c.approvalKeys, bytes.Clone(k))
			}
		}
	}
}

// ParseApprovalKeys reads approval keys, one per line: the first signs,
// the others are accepted (the previous key while a rotation is under
// way). Blank lines and lines starting with # are skipped, and spaces
// around a key are not part of it. It refuses a text without keys and a
// key shorter than [MinApprovalKeyLen] bytes, naming its line.
func ParseApprovalKeys(data []byte) ([][]byte, error) {
	var keys [][]byte
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if len(line) < MinApprovalKeyLen {
			return nil, fmt.Errorf("line %d: the key has %d characters, fewer than %d: use a long random one, e.g. from: openssl rand -hex 32", i+1, len(line), MinApprovalKeyLen)
		}
		keys = append(keys, line)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no key in it: write one per line (the first signs, the next ones are still accepted), e.g. from: openssl rand -hex 32")
	}
	return keys, nil
}
