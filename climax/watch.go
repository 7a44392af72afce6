package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/fsnotify/fsnotify"
)

// reloadDelay is how long the watcher waits after the last change to a
// watched file before it reloads, so that an editor's write-rename-chmod
// sequence, or several saves in a row, give one reload.
const reloadDelay = 200 * time.Millisecond

// watchedFiles returns the files whose changes reload the tools: the
// config files given by path (bundled configs never change) and the
// policy file, as absolute paths.
func watchedFiles(refs []string, policyFile string) []string {
	var files []string
	for _, ref := range refs {
		if config.IsPath(ref) {
			files = append(files, ref)
		}
	}
	if policyFile != "" {
		files = append(files, policyFile)
	}
	for i, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			files[i] = abs
		}
	}
	return files
}

// watch reloads the tool set whenever one of files changes, until ctx
// ends. It watches the files' directories rather than the files, because
// editors that save by writing a new file and renaming it over the old one
// would otherwise end the watch. A reload loads and checks every config
// and the policy completely; only a valid set replaces the served one
// (through replace), and an invalid one is logged with its problems while
// the old set stays.
func watch(ctx context.Context, files []string, load func() (*index.Index, []config.Problem, error), replace func(*index.Index), log *slog.Logger) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	watched := map[string]bool{}
	dirs := map[string]bool{}
	for _, f := range files {
		watched[f] = true
		dir := filepath.Dir(f)
		if !dirs[dir] {
			if err := w.Add(dir); err != nil {
				w.Close()
				return err
			}
			dirs[dir] = true
		}
	}
	go func() {
		defer w.Close()
		var timer *time.Timer
		var fire <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !watched[filepath.Clean(ev.Name)] {
					continue
				}
				log.Debug("watched file changed", "file", ev.Name, "op", ev.Op.String())
				if timer == nil {
					timer = time.NewTimer(reloadDelay)
				} else {
					timer.Reset(reloadDelay)
				}
				fire = timer.C
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				log.Warn("watching config files", "error", err)
			case <-fire:
				fire = nil
				reload(files, load, replace, log)
			}
		}
	}()
	return nil
}

// reload loads the tool set again and replaces the served one if it is
// valid.
func reload(files []string, load func() (*index.Index, []config.Problem, error), replace func(*index.Index), log *slog.Logger) {
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			log.Warn("reload skipped: a watched file is missing or unreadable; keeping the current tools", "file", f, "error", err)
			return
		}
	}
	ix, warnings, err := load()
	if err != nil {
		log.Error("reload failed; keeping the current tools", "error", err.Error())
		return
	}
	for _, w := range warnings {
		log.Warn(w.String())
	}
	replace(ix)
	log.Warn("tools reloaded", "tools", ix.Len())
}
