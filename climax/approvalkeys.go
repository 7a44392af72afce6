package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/climax-mcp/climax/server"
)

// maxApprovalKeyFile bounds the size of --approval-key-file: a few keys
// take a few hundred bytes.
const maxApprovalKeyFile = 64 << 10

// approvalKeys returns the keys of --approval-key-file or --approval-key
// (CLIMAX_APPROVAL_KEY), the first signing, or nil when neither is set:
// the server then signs with a random key of its own.
func (c *runCmd) approvalKeys() ([][]byte, error) {
	switch {
	case c.ApprovalKeyFile != "" && c.ApprovalKey != "":
		return nil, usagef("--approval-key-file and --approval-key (CLIMAX_APPROVAL_KEY) are both set: give the keys one way")
	case c.ApprovalKeyFile != "":
		// The size is checked before reading: a huge file is refused
		// without being read into memory.
		if fi, err := os.Stat(c.ApprovalKeyFile); err == nil && fi.Mode().IsRegular() && fi.Size() > maxApprovalKeyFile {
			return nil, fmt.Errorf("approval key file %s: %d bytes, more than the %d a few keys take (fix --approval-key-file / CLIMAX_APPROVAL_KEY_FILE)", c.ApprovalKeyFile, fi.Size(), maxApprovalKeyFile)
		}
		data, err := readRegular(c.ApprovalKeyFile)
		if err != nil {
			return nil, fmt.Errorf("approval key file: %w (fix --approval-key-file / CLIMAX_APPROVAL_KEY_FILE)", err)
		}
		if len(data) > maxApprovalKeyFile { // grew since
			return nil, fmt.Errorf("approval key file %s: %d bytes, more than the %d a few keys take (fix --approval-key-file / CLIMAX_APPROVAL_KEY_FILE)", c.ApprovalKeyFile, len(data), maxApprovalKeyFile)
		}
		keys, err := server.ParseApprovalKeys(data)
		if err != nil {
			return nil, fmt.Errorf("approval key file %s: %w", c.ApprovalKeyFile, err)
		}
		return keys, nil
	case c.ApprovalKey != "":
		// Keys separated by commas: an environment variable holds one
		// line more easily than several.
		keys, err := server.ParseApprovalKeys([]byte(strings.ReplaceAll(c.ApprovalKey, ",", "\n")))
		if err != nil {
			return nil, fmt.Errorf("approval keys of --approval-key / CLIMAX_APPROVAL_KEY (comma-separated, the first signs): %s", strings.Replace(err.Error(), "line ", "key ", 1))
		}
		return keys, nil
	}
	return nil, nil
}
