//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWatchNotRegularFile replaces the watched file with a FIFO and with a
// directory: each is unreadable (logged, old set kept), and reading never
// blocks on the FIFO, so a later valid file still reloads.
func TestWatchNotRegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.yaml")
	write(t, file, watchConfig)
	r := startWatch(t, []string{file}, "")

	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(file, 0o644); err != nil {
		t.Fatal(err)
	}
	r.waitLog("named pipe (FIFO), not a regular file", 1)
	r.noReplace("FIFO")
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	write(t, file, watchConfigWith("two"))
	r.waitReplace("file back after a FIFO", "w_one w_two")

	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o755); err != nil {
		t.Fatal(err)
	}
	r.waitLog("a directory, not a regular file", 1)
	r.noReplace("directory")
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	write(t, file, watchConfigWith("three"))
	r.waitReplace("file back after a directory", "w_one w_three")
}

// TestWatchPipeAtStart gives one config through a FIFO, as
// climax run <(cat x.yaml) does: it is read at start, not watched, and
// reloads keep what it gave instead of opening it again.
func TestWatchPipeAtStart(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "p.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	go os.WriteFile(pipe, []byte("name: p\ncommand: echo\ntools:\n  - name: p_one\n    description: \"P\"\n"), 0o644)
	file := filepath.Join(dir, "w.yaml")
	write(t, file, watchConfig)
	r := startWatch(t, []string{pipe, file}, "")
	if !strings.Contains(r.logs.String(), "not watching a file that is not a regular file") {
		t.Errorf("the pipe's exclusion is not logged:\n%s", r.logs.String())
	}

	write(t, file, watchConfigWith("two"))
	r.waitReplace("watched file edited", "p_one w_one w_two")
}
