package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -o FILE gets the draft only once the whole draft validated: a draft that
// does not leaves no file (and no temporary file) behind.
func TestScaffoldWritesOnlyValidatedDrafts(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "draft.yaml")
	c := &scaffoldCmd{Output: out}
	var stdout bytes.Buffer
	e := &env{stdout: &stdout, stderr: &bytes.Buffer{}}

	bad := []byte("name: widget\ncommand: widget\ntools:\n  - name: widget\n    args:\n      - {name: n, type: nonsense}\n")
	if _, err := c.writeValidated(e, bad); err == nil || !strings.Contains(err.Error(), "does not validate") {
		t.Fatalf("err = %v, want a validation error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("files left after a draft that does not validate: %v", entries)
	}

	good := []byte("name: widget\ncommand: widget\ntools:\n  - name: widget\n    description: Count widgets.\n")
	if _, err := c.writeValidated(e, good); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(out); err != nil || !bytes.Equal(data, good) {
		t.Fatalf("draft.yaml = %q, %v", data, err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout got %q with -o", stdout.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files in the directory: %v, want draft.yaml alone", entries)
	}
}
