package main

import (
	"os"
	"strings"
	"testing"
)

// The approval keys come from --approval-key-file or --approval-key
// (CLIMAX_APPROVAL_KEY), never both; a bad key stops run before it serves,
// naming what to fix.
func TestApprovalKeyFlags(t *testing.T) {
	dir := t.TempDir()
	k1, k2 := strings.Repeat("1", 64), strings.Repeat("2", 64)
	good := writeFile(t, dir, "keys", "# current, then previous\n"+k1+"\n"+k2+"\n")
	short := writeFile(t, dir, "short", k1+"\n\ntooshort\n")
	empty := writeFile(t, dir, "empty", "# nothing yet\n")
	big := writeFile(t, dir, "big", strings.Repeat(k1+"\n", maxApprovalKeyFile/len(k1)+1))
	// A sparse file of 1 GiB: refused from its size, without being read.
	huge := writeFile(t, dir, "huge", "")
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		args []string
		keys []string
	}{
		{[]string{"--approval-key-file", good}, []string{k1, k2}},
		{[]string{"--approval-key", k2 + "," + k1}, []string{k2, k1}},
		{nil, nil},
	} {
		c := &runCmd{}
		if len(tt.args) > 0 && tt.args[0] == "--approval-key-file" {
			c.ApprovalKeyFile = tt.args[1]
		} else if len(tt.args) > 0 {
			c.ApprovalKey = tt.args[1]
		}
		keys, err := c.approvalKeys()
		var got []string
		for _, k := range keys {
			got = append(got, string(k))
		}
		if err != nil || strings.Join(got, " ") != strings.Join(tt.keys, " ") {
			t.Errorf("%v: keys %q, %v; want %q", tt.args, got, err, tt.keys)
		}
	}

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--approval-key-file", short}, exitError, "approval key file " + short + ": line 3: the key has 8 characters, fewer than 32"},
		{[]string{"--approval-key-file", empty}, exitError, "approval key file " + empty + ": no key in it"},
		{[]string{"--approval-key-file", big}, exitError, "more than the 65536 a few keys take"},
		{[]string{"--approval-key-file", huge}, exitError, "1073741824 bytes, more than the 65536 a few keys take"},
		{[]string{"--approval-key-file", dir}, exitError, "is a directory, not a regular file (fix --approval-key-file / CLIMAX_APPROVAL_KEY_FILE)"},
		{[]string{"--approval-key-file", dir + "/missing"}, exitError, "no such file or directory (fix --approval-key-file / CLIMAX_APPROVAL_KEY_FILE)"},
		{[]string{"--approval-key", k1 + ",short"}, exitError, "(comma-separated, the first signs): key 2: the key has 5 characters"},
		{[]string{"--approval-key", k1, "--approval-key-file", good}, exitUsage, "both set: give the keys one way"},
	} {
		args := append(append([]string{"run"}, tt.args...), "git")
		code, out, errOut := runClimax(t, args...)
		if code != tt.code || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %q; want %q", tt.args, code, tt.code, out, errOut, tt.want)
		}
	}
	// A good key file: the stdio server starts, and ends with its input.
	if code, _, errOut := runClimax(t, "run", "--approval-key-file", good, "git"); code != exitOK {
		t.Errorf("good key file: exit %d, stderr %q", code, errOut)
	}
}
