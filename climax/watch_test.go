package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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

// watchConfigWith is watchConfig with one more tool, w_NAME.
func watchConfigWith(name string) string {
	return watchConfig + "  - name: w_" + name + "\n    description: \"More\"\n"
}

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

// kqueue is whether fsnotify uses kqueue here.
var kqueue = slices.Contains([]string{"darwin", "dragonfly", "freebsd", "netbsd", "openbsd"}, runtime.GOOS)

// watchDeadline bounds every wait of the watch tests; the waits end as
// soon as what they wait for happens.
const watchDeadline = 15 * time.Second

// watchRun is a watcher under test: the tool sets it replaces the served
// one with, and its DEBUG log.
type watchRun struct {
	t        *testing.T
	logs     *lockedBuffer
	replaced chan *index.Index
}

// startWatch loads refs and the policy as climax run --watch does, starts
// the watcher and waits for its first check; it fails the test when
// nothing is watched.
func startWatch(t *testing.T, refs []string, policy string) *watchRun {
	t.Helper()
	return startWatchSettle(t, refs, policy, testSettle)
}

// startWatchSettle is startWatch with the settle time of files written
// in place.
func startWatchSettle(t *testing.T, refs []string, policy string, settle time.Duration) *watchRun {
	t.Helper()
	r := newWatchRun(t)
	w := r.watcher(refs, policy)
	if w == nil {
		t.Fatalf("nothing watched; log:\n%s", r.logs.String())
	}
	w.settle = settle
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		<-w.done
	})
	w.run(ctx, func(ix *index.Index) bool { r.replaced <- ix; return true })
	r.waitLog("watched files unchanged", 1)
	return r
}

func newWatchRun(t *testing.T) *watchRun {
	return &watchRun{t: t, logs: &lockedBuffer{}, replaced: make(chan *index.Index, 10)}
}

// watcher loads refs and the policy and returns the watcher newWatcher
// gives (nil: nothing to watch).
func (r *watchRun) watcher(refs []string, policy string) *watcher {
	r.t.Helper()
	log := slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rec := newFileRecorder()
	load := func(read readFunc) (*index.Index, []config.Problem, error) {
		return buildIndexWith(read, refs, policy, false, config.ConfirmNone)
	}
	if _, _, err := load(rec.read); err != nil {
		r.t.Fatal(err)
	}
	w, err := newWatcher(rec, load, log)
	if err != nil {
		r.t.Fatal(err)
	}
	if w != nil {
		w.settle = testSettle
	}
	return w
}

// testSettle is the settle time of the watch tests (reloadSettle in
// climax run): long enough for the pauses of TestWatchSettles.
const testSettle = time.Second

// waitLog waits until the log holds text at least n times.
func (r *watchRun) waitLog(text string, n int) {
	r.t.Helper()
	deadline := time.Now().Add(watchDeadline)
	for strings.Count(r.logs.String(), text) < n {
		if time.Now().After(deadline) {
			r.t.Fatalf("log does not show %q %d times:\n%s", text, n, r.logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitReplace waits for the next reload and checks its tool names.
func (r *watchRun) waitReplace(what, want string) {
	r.t.Helper()
	select {
	case ix := <-r.replaced:
		if got := strings.Join(ix.Names(), " "); got != want {
			r.t.Errorf("%s: reloaded tools %s, want %s", what, got, want)
		}
	case <-time.After(watchDeadline):
		r.t.Fatalf("%s: no reload; log:\n%s", what, r.logs.String())
	}
}

// noReplace fails if a reload happened.
func (r *watchRun) noReplace(what string) {
	r.t.Helper()
	select {
	case ix := <-r.replaced:
		r.t.Fatalf("%s: reloaded with %v; log:\n%s", what, ix.Names(), r.logs.String())
	default:
	}
}

func write(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatchReloads(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	write(t, file, watchConfig)
	r := startWatch(t, []string{file}, "")

	// An editor that saves by writing a new file and renaming it over the
	// old one, twice in a row: one reload, with the new tools.
	for _, extra := range []string{"two", "three"} {
		tmp := filepath.Join(dir, ".w.yaml.swp")
		write(t, tmp, watchConfigWith(extra))
		if err := os.Rename(tmp, file); err != nil {
			t.Fatal(err)
		}
	}
	r.waitReplace("rename save", "w_one w_three")

	// A config with problems keeps the old set and logs the problem with
	// its position.
	write(t, file, "name: w\ncommand: echo\ntools: 3\n")
	r.waitLog("reload failed", 1)
	if !strings.Contains(r.logs.String(), "w.yaml:3") {
		t.Errorf("invalid config not logged with its position:\n%s", r.logs.String())
	}
	r.noReplace("invalid config")

	// A deleted file keeps the old set too.
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	r.waitLog("missing or unreadable", 1)
	r.noReplace("deleted config")

	// The served content back, then touched: nothing to reload.
	write(t, file, watchConfigWith("three"))
	r.waitLog("nothing to reload", 1)
	unchanged := strings.Count(r.logs.String(), "watched files unchanged")
	now := time.Now()
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	r.waitLog("watched files unchanged", unchanged+1)
	r.noReplace("same content")

	// And a change after all that still reloads.
	write(t, file, watchConfigWith("four"))
	r.waitReplace("edit in place", "w_one w_four")
}

// retryFS retries op until it succeeds: on Windows a removed directory
// that a watch holds open stays until the watch lets go of it.
func retryFS(t *testing.T, what string, op func() error) {
	t.Helper()
	deadline := time.Now().Add(watchDeadline)
	for {
		err := op()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWatchDirectoryRecreated(t *testing.T) {
	// The watched directories are logged by their real paths.
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	x := filepath.Join(root, "x")
	y := filepath.Join(x, "y")
	file := filepath.Join(y, "a.yaml")
	if err := os.MkdirAll(y, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, file, watchConfig)
	r := startWatch(t, []string{file}, "")

	// The file's directory removed and made again.
	retryFS(t, "remove y", func() error { return os.RemoveAll(y) })
	r.waitLog("missing or unreadable", 1)
	retryFS(t, "make y", func() error { return os.Mkdir(y, 0o755) })
	write(t, file, watchConfigWith("two"))
	r.waitReplace("directory made again", "w_one w_two")

	// Its parent too, made again one level at a time: the watch moves
	// down as the directories appear.
	retryFS(t, "remove x", func() error { return os.RemoveAll(x) })
	r.waitLog("missing or unreadable", 2)
	r.waitLog("dir="+root+" names=x", 1)
	retryFS(t, "make x", func() error { return os.Mkdir(x, 0o755) })
	r.waitLog("dir="+x+" names=y", 1)
	retryFS(t, "make y again", func() error { return os.Mkdir(y, 0o755) })
	r.waitLog("dir="+y+" names=a.yaml", 3)
	write(t, file, watchConfigWith("three"))
	r.waitReplace("directories made again", "w_one w_three")
}

func TestWatchSymlinkTarget(t *testing.T) {
	root := t.TempDir()
	targets := filepath.Join(root, "real")
	links := filepath.Join(root, "links")
	for _, d := range []string{targets, links} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(targets, "a.yaml"), watchConfig)
	link := filepath.Join(links, "a.yaml")
	if err := os.Symlink("../real/a.yaml", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	r := startWatch(t, []string{link}, "")

	// The target edited in place.
	write(t, filepath.Join(targets, "a.yaml"), watchConfigWith("two"))
	r.waitReplace("target edited", "w_one w_two")

	// The link re-pointed (replaced by rename), then its new target
	// edited. kqueue (macOS, BSD) watches what the links in a directory
	// point to, never the links: a link re-pointed while its old target
	// stays as it was gives no event there (docs/operations.md).
	if kqueue {
		return
	}
	write(t, filepath.Join(targets, "b.yaml"), watchConfigWith("three"))
	tmp := filepath.Join(links, ".a.yaml.tmp")
	if err := os.Symlink(filepath.Join(targets, "b.yaml"), tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, link); err != nil {
		t.Fatal(err)
	}
	r.waitReplace("link re-pointed", "w_one w_three")
	write(t, filepath.Join(targets, "b.yaml"), watchConfigWith("four"))
	r.waitReplace("new target edited", "w_one w_four")
}

// TestWatchConfigMapUpdate updates a config the way Kubernetes updates a
// ConfigMap volume: NAME -> ..data/NAME, ..data -> a timestamped
// directory; an update writes a new directory, renames a new ..data link
// over the old one and removes the old directory. No event names NAME.
func TestWatchConfigMapUpdate(t *testing.T) {
	mount := t.TempDir()
	versionDir := func(n int) string { return filepath.Join(mount, fmt.Sprintf("..2026_11_23_10_00_%02d.%d", n, 1000+n)) }
	version := func(n int, content string) {
		t.Helper()
		dir := versionDir(n)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "a.yaml"), content)
		tmp := filepath.Join(mount, "..data_tmp")
		if err := os.Symlink(filepath.Base(dir), tmp); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		if err := os.Rename(tmp, filepath.Join(mount, "..data")); err != nil {
			t.Fatal(err)
		}
		if n > 1 {
			if err := os.RemoveAll(versionDir(n - 1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	version(1, watchConfig)
	file := filepath.Join(mount, "a.yaml")
	if err := os.Symlink(filepath.Join("..data", "a.yaml"), file); err != nil {
		t.Fatal(err)
	}
	r := startWatch(t, []string{file}, "")

	version(2, watchConfigWith("two"))
	r.waitReplace("first update", "w_one w_two")
	version(3, watchConfigWith("three"))
	r.waitReplace("second update", "w_one w_three")
}

func TestWatchNothingToWatch(t *testing.T) {
	r := newWatchRun(t)
	if w := r.watcher([]string{"git"}, ""); w != nil {
		t.Errorf("a bundled config is watched: %v", w.files)
	}
	if !strings.Contains(r.logs.String(), "nothing to watch") {
		t.Errorf("not logged:\n%s", r.logs.String())
	}
}

// A file written in place by a writer that pauses is not reloaded half
// written (a policy served without its pattern line would loosen it): only
// once it has read the same for the settle time.
func TestWatchSettles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	write(t, file, watchConfig)
	r := startWatch(t, []string{file}, "")
	full := watchConfigWith("two") + "  - name: w_three\n    description: \"More\"\n"
	half := watchConfigWith("two")
	write(t, file, half)
	time.Sleep(testSettle / 2) // the writer pauses, longer than reloadDelay
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(full[len(half):]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r.waitReplace("written in two parts", "w_one w_two w_three")
	if !strings.Contains(r.logs.String(), "changed in place: reloading once it has stayed the same") {
		t.Errorf("the wait is not logged:\n%s", r.logs.String())
	}
}

// A file that arrives by rename is complete: it is reloaded at once,
// without the settle time that a file written in place waits.
func TestWatchRenameNeedsNoSettle(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	write(t, file, watchConfig)
	r := startWatchSettle(t, []string{file}, "", time.Hour)
	write(t, file, watchConfigWith("two"))
	r.waitLog("changed in place", 1)
	r.noReplace("written in place, not settled")
	tmp := filepath.Join(dir, "w.yaml.tmp")
	write(t, tmp, watchConfigWith("three"))
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	r.waitReplace("renamed into place", "w_one w_three")
}

// A watched file over the size limit is refused from its size, without
// being read (a 512 MiB file is not read whole); the served set stays, and
// a file of a sound size later reloads.
func TestWatchTooLarge(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	write(t, file, watchConfig)
	r := startWatchSettle(t, []string{file}, "", time.Hour)
	tmp := filepath.Join(dir, "big.tmp")
	f, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the size is what counts.
	if err := f.Truncate(512 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	r.waitLog("is 536870912 bytes, over the 4194304-byte (4 MiB) limit of a config or policy file", 1)
	r.noReplace("too large")
	write(t, tmp, watchConfigWith("two"))
	if err := os.Rename(tmp, file); err != nil {
		t.Fatal(err)
	}
	r.waitReplace("back to a sound size", "w_one w_two")
}

// Under --watch the limit holds at start too.
func TestWatchTooLargeAtStart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "w.yaml")
	write(t, file, watchConfig+"# "+strings.Repeat("x", maxConfigFile)+"\n")
	_, err := newFileRecorder().read(file)
	if err == nil || !strings.Contains(err.Error(), "over the 4194304-byte (4 MiB) limit") {
		t.Errorf("err = %v", err)
	}
}
