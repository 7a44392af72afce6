package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

const watchConfig = `name: w
command: echo
tools:
  - name: w_one
    description: "One"
`

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestWatchReloads(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte(watchConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs lockedBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	replaced := make(chan *index.Index, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	load := func() (*index.Index, []config.Problem, error) {
		return buildIndex([]string{file}, "", false, config.ConfirmNone)
	}
	if err := watch(ctx, watchedFiles([]string{file}, ""), load, func(ix *index.Index) { replaced <- ix }, log); err != nil {
		t.Fatal(err)
	}
	waitReplace := func(what string) *index.Index {
		t.Helper()
		select {
		case ix := <-replaced:
			return ix
		case <-time.After(15 * time.Second):
			t.Fatalf("%s: no reload; log:\n%s", what, logs.String())
			return nil
		}
	}
	noReplace := func(what string) {
		t.Helper()
		// The reload, if any, comes reloadDelay after the last event.
		select {
		case ix := <-replaced:
			t.Fatalf("%s: reloaded with %v", what, ix.Names())
		case <-time.After(10 * reloadDelay):
		}
	}

	// An editor that saves by writing a new file and renaming it over the
	// old one, twice in a row: one reload, with the new tools.
	for _, extra := range []string{"two", "three"} {
		tmp := filepath.Join(dir, ".w.yaml.swp")
		cfg := watchConfig + "  - name: w_" + extra + "\n    description: \"More\"\n"
		if err := os.WriteFile(tmp, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	if ix := waitReplace("rename save"); strings.Join(ix.Names(), " ") != "w_one w_three" {
		t.Errorf("reloaded tools %v, want [w_one w_three]", ix.Names())
	}
	noReplace("after one reload")

	// A config with problems keeps the old set and logs the problem with
	// its position.
	if err := os.WriteFile(file, []byte("name: w\ncommand: echo\ntools: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noReplace("invalid config")
	if !strings.Contains(logs.String(), "reload failed") || !strings.Contains(logs.String(), "w.yaml:3") {
		t.Errorf("invalid config not logged with its position:\n%s", logs.String())
	}

	// A deleted file keeps the old set too.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	noReplace("deleted config")
	if !strings.Contains(logs.String(), "missing or unreadable") {
		t.Errorf("deleted config not logged:\n%s", logs.String())
	}
}
