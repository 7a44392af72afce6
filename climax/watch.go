package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/fsnotify/fsnotify"
)

// reloadDelay is how long the watcher waits after the last change to a
// watched file before it looks, so that an editor's write-rename-chmod
// sequence, or several saves in a row, give one reload.
const reloadDelay = 200 * time.Millisecond

// reloadSettle is how long a file written in place must read the same
// before it is reloaded (docs/operations.md, "Reloading"): a writer that
// pauses must not have its half-written file served. A file that arrives
// by rename is complete at once and is not waited for.
const reloadSettle = 2 * time.Second

// maxConfigFile bounds a config or policy file: a larger file is refused
// without being read whole (on a reload under --watch, logged; the served
// set stays).
const maxConfigFile = 4 << 20

// maxLinks bounds the symbolic links followed while resolving one watched
// path, as the kernel bounds them (ELOOP).
const maxLinks = 40

// A fileRecorder reads the files of the first load and records what it
// read, for the watcher: a regular file is watched and compared by its
// hash later; anything else (a pipe such as <(cat x.yaml), a device) is
// read once, as without --watch, and its content kept for every reload.
type fileRecorder struct {
	mu    sync.Mutex
	files map[string]startFile // absolute path -> what the first load read
}

// startFile is what the first load read from one path.
type startFile struct {
	name    string // as given
	regular bool
	state   fileState // a regular file's
	data    []byte    // anything else's content
}

func newFileRecorder() *fileRecorder {
	return &fileRecorder{files: map[string]startFile{}}
}

// read reads name like os.ReadFile, pipes included, and records it.
func (r *fileRecorder) read(name string) ([]byte, error) {
	data, fi, err := readFileInfo(name)
	if err != nil {
		return nil, err
	}
	rec := startFile{name: name, regular: fi.Mode().IsRegular()}
	if rec.regular {
		rec.state = fileState{sum: sha256.Sum256(data)}
	} else {
		rec.data = data
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files[absPath(name)] = rec
	return data, nil
}

// absPath returns name as a clean absolute path (name itself when the
// working directory is unknown).
func absPath(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// fileState is what a watched path reads at one moment: the hash of its
// content, or why it cannot be read (missing, not a regular file, ...).
type fileState struct {
	sum [sha256.Size]byte
	err string
}

// A watcher reloads the tool set when what a watched path reads changes.
//
// fsnotify events are only triggers. It watches the directories whose
// entries decide what each path reads (see traceEntries): the path's own
// directory, the directories of the symbolic links on the way and of
// their targets, and, while a directory on the way is missing, its
// nearest existing ancestor. reloadDelay after the last event it
// updates those watches, reads every watched path and reloads only when
// something differs from what the served set was loaded from. A change
// that came with a write event (a file written in place, perhaps not
// completely yet) is reloaded only once the files have read the same for
// settle; one that came without (a file renamed into place, a link
// re-pointed, a file removed) at once.
type watcher struct {
	files   []string          // absolute paths watched, sorted
	pinned  map[string][]byte // absolute path -> content read once at start
	load    func(readFunc) (*index.Index, []config.Problem, error)
	log     *slog.Logger
	fsw     *fsnotify.Watcher
	replace func(*index.Index) bool

	loaded map[string]fileState // what the served set was loaded from
	seen   map[string]fileState // what the last check read
	dirs   map[string]*dirWatch // watched directory -> what matters in it
	done   chan struct{}        // closed when run's goroutine ends

	settle  time.Duration // how long files written in place must read the same
	written bool          // a write event came since the last read
	seenAt  time.Time     // when the last read first saw what seen holds
	settled bool          // what seen holds has been acted on
}

// dirWatch is one watched directory.
type dirWatch struct {
	names map[string]bool // entries whose changes matter
	id    os.FileInfo     // the directory when the watch was added
}

// newWatcher returns the watcher of the regular files rec read, or nil
// (logged) when there is none: bundled configs never change, and a pipe
// is read once. load loads the whole set again with the files it is
// given.
func newWatcher(rec *fileRecorder, load func(readFunc) (*index.Index, []config.Problem, error), log *slog.Logger) (*watcher, error) {
	w := &watcher{pinned: map[string][]byte{}, load: load, log: log, loaded: map[string]fileState{}, dirs: map[string]*dirWatch{}, settle: reloadSettle, settled: true}
	for _, abs := range slices.Sorted(maps.Keys(rec.files)) {
		f := rec.files[abs]
		if !f.regular {
			log.Warn("--watch: not watching a file that is not a regular file (it is read once, at start)", "file", f.name)
			w.pinned[abs] = f.data
			continue
		}
		w.files = append(w.files, abs)
		w.loaded[abs] = f.state
	}
	if len(w.files) == 0 {
		log.Warn("--watch: nothing to watch (bundled configs do not change, and pipes are read once)")
		return nil, nil
	}
	w.seen = maps.Clone(w.loaded)
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w.fsw = fsw
	w.done = make(chan struct{})
	return w, nil
}

// run watches until ctx ends, replacing the served set with replace, which
// reports whether the tools/list clients see changed. The first check
// runs at once, so that a change between the first load and the start of
// the watch is not missed.
func (w *watcher) run(ctx context.Context, replace func(*index.Index) bool) {
	w.replace = replace
	go func() {
		defer close(w.done)
		defer w.fsw.Close()
		timer := time.NewTimer(0)
		defer timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.fsw.Events:
				if !ok {
					return
				}
				if w.matters(ev) {
					w.log.Debug("watched path changed", "path", ev.Name, "op", ev.Op.String())
					if ev.Has(fsnotify.Write) {
						w.written = true
					}
					timer.Reset(reloadDelay)
				}
			case err, ok := <-w.fsw.Errors:
				if !ok {
					return
				}
				// Events may have been lost (an overflow): look, as
				// after a write.
				w.log.Warn("watching config files", "error", err)
				w.written = true
				timer.Reset(reloadDelay)
			case <-timer.C:
				wait, watched := w.check(time.Now())
				switch {
				case !watched:
					// A directory vanished between finding it and
					// watching it: look again once things settle.
					timer.Reset(reloadDelay)
				case wait > 0:
					timer.Reset(wait)
				}
			}
		}
	}()
}

// matters reports whether ev can change what a watched path reads. An
// event of a watched directory itself (removed, renamed, created anew)
// also means its watch is gone or stale: it is added again at the next
// check.
func (w *watcher) matters(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	if _, ok := w.dirs[name]; ok {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) || ev.Has(fsnotify.Create) {
			delete(w.dirs, name)
		}
		return true
	}
	d := w.dirs[filepath.Dir(name)]
	return d != nil && d.names[filepath.Base(name)]
}

// check updates the watches, reads every watched path and reloads when
// what they read differs from what the served set was loaded from (now
// being the time). It reports false when a directory could not be
// watched because it vanished meanwhile, and how long to wait before the
// files written in place have settled (0: nothing to wait for).
func (w *watcher) check(now time.Time) (wait time.Duration, watched bool) {
	watched = w.updateWatches()
	return w.reloadIfChanged(now), watched
}

// reloadIfChanged reads every watched path and reloads when what they
// read differs from what the served set was loaded from, once settled: a
// change that came with a write event waits until the files have read the
// same for w.settle; it returns how long is left to wait.
func (w *watcher) reloadIfChanged(now time.Time) (wait time.Duration) {
	states := make(map[string]fileState, len(w.files))
	contents := make(map[string][]byte, len(w.files))
	for _, f := range w.files {
		data, err := readRegular(f)
		if err != nil {
			states[f] = fileState{err: err.Error()}
			continue
		}
		states[f] = fileState{sum: sha256.Sum256(data)}
		contents[f] = data
	}
	written := w.written
	w.written = false
	switch {
	case !maps.Equal(states, w.seen):
		w.seen, w.seenAt, w.settled = states, now, false
		if written && w.settle > 0 {
			w.log.Info("a watched file changed in place: reloading once it has stayed the same for the settle time (write by rename to reload at once)", "settle", w.settle)
			return w.settle
		}
	case w.settled:
		w.log.Debug("watched files unchanged")
		return 0
	default:
		if rest := w.seenAt.Add(w.settle).Sub(now); rest > 0 {
			return rest
		}
	}
	w.settled = true
	unreadable := false
	for _, f := range w.files {
		if err := states[f].err; err != "" {
			w.log.Warn("reload skipped: a watched file is missing or unreadable; keeping the current tools", "file", f, "error", err)
			unreadable = true
		}
	}
	if unreadable {
		return 0
	}
	if maps.Equal(states, w.loaded) {
		w.log.Info("watched files read as when the current tools were loaded; nothing to reload")
		return 0
	}
	ix, warnings, err := w.load(func(name string) ([]byte, error) {
		abs := absPath(name)
		if data, ok := contents[abs]; ok {
			return data, nil
		}
		if data, ok := w.pinned[abs]; ok {
			return data, nil
		}
		return nil, fmt.Errorf("%s: not among the files climax read at start", name)
	})
	if err != nil {
		w.log.Error("reload failed; keeping the current tools", "error", err.Error())
		return 0
	}
	for _, p := range warnings {
		w.log.Warn(p.String())
	}
	w.loaded = states
	changed := w.replace(ix)
	w.log.Warn("tools reloaded", "tools", ix.Len(), "list_changed", changed)
	return 0
}

// updateWatches watches the directories that decide what the watched
// paths read now, and stops watching the others. It reports false when a
// directory vanished before it could be watched.
func (w *watcher) updateWatches() (ok bool) {
	want := map[string]map[string]bool{}
	for _, f := range w.files {
		for _, e := range traceEntries(f) {
			if want[e.dir] == nil {
				want[e.dir] = map[string]bool{}
			}
			want[e.dir][e.name] = true
		}
	}
	listed := map[string]bool{}
	for _, dir := range w.fsw.WatchList() {
		listed[dir] = true
		if want[dir] == nil {
			w.fsw.Remove(dir) // gone already when the directory was
			delete(w.dirs, dir)
		}
	}
	for dir := range w.dirs {
		if want[dir] == nil {
			delete(w.dirs, dir)
		}
	}
	ok = true
	for dir, names := range want {
		fi, err := os.Stat(dir)
		if err != nil {
			ok = false
			continue
		}
		if d := w.dirs[dir]; d != nil && listed[dir] && os.SameFile(d.id, fi) {
			d.names = names
			continue
		}
		if listed[dir] {
			w.fsw.Remove(dir) // a watch of what the path named before
		}
		delete(w.dirs, dir)
		if err := w.fsw.Add(dir); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				ok = false
			} else {
				w.log.Warn("cannot watch a directory of a watched file", "dir", dir, "error", err)
			}
			continue
		}
		w.log.Debug("watching", "dir", dir, "names", strings.Join(slices.Sorted(maps.Keys(names)), " "))
		w.dirs[dir] = &dirWatch{names: names, id: fi}
	}
	return ok
}

// entry is a name in a directory.
type entry struct{ dir, name string }

// traceEntries returns the directory entries that decide what path (clean
// and absolute) reads, resolving it one name at a time: each symbolic
// link on the way (re-pointing it changes the path), each name in the
// directory a link's target leads to, and the path's last name. Where a
// name is missing, the trace ends with it: its directory is the nearest
// existing ancestor, where it will appear. Plain directories on the way
// are not included: removing one removes the watched directories below
// it, which is seen. Nor are links in the root directory (/tmp and /var
// on macOS): they are part of the system, and watching the root would
// mean watching every entry in it (kqueue).
func traceEntries(path string) []entry {
	var out []entry
	vol := filepath.VolumeName(path)
	root := vol + string(filepath.Separator)
	cur := root
	todo := splitPath(path[len(vol):])
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		switch {
		case err != nil:
			return append(out, entry{cur, name})
		case fi.Mode()&fs.ModeSymlink != 0:
			if cur != root {
				out = append(out, entry{cur, name})
			}
			target, err := os.Readlink(next)
			if links++; err != nil || links > maxLinks {
				return out
			}
			if tvol := filepath.VolumeName(target); filepath.IsAbs(target) {
				cur = tvol + string(filepath.Separator)
				target = target[len(tvol):]
			}
			todo = append(splitPath(target), todo...)
		case len(todo) == 0 || !fi.IsDir():
			return append(out, entry{cur, name})
		default:
			cur = next
		}
	}
	return out
}

// splitPath splits a path at its separators.
func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) })
}

// readRegular reads the file name, following symbolic links, if it is a
// regular file; anything else (a FIFO, a directory, a device) is an error,
// and it never blocks opening one.
func readRegular(name string) ([]byte, error) {
	// Opened without blocking, then checked: opening a FIFO the usual way
	// would wait for a writer.
	f, err := openNonBlocking(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegularError(name, fi.Mode())
	}
	return readCapped(f, name, fi)
}

// readCapped reads f, opened from name, whose Stat gave fi, unless it
// holds more than maxConfigFile bytes: a larger file is refused from its
// size, without being read, and one that grows past it while read is
// refused too.
func readCapped(f *os.File, name string, fi fs.FileInfo) ([]byte, error) {
	tooLarge := func(size string) error {
		return fmt.Errorf("%s %s, over the %d-byte (4 MiB) limit of a config or policy file (split a large config into several files)", name, size, maxConfigFile)
	}
	if fi.Mode().IsRegular() && fi.Size() > maxConfigFile {
		return nil, tooLarge(fmt.Sprintf("is %d bytes", fi.Size()))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfigFile {
		return nil, tooLarge("holds more")
	}
	return data, nil
}

func notRegularError(name string, mode fs.FileMode) error {
	kind := "a special file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case mode&fs.ModeDevice != 0:
		kind = "a device"
	case mode&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s is %s, not a regular file", name, kind)
}
