//go:build unix

package main

import (
	"errors"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// errStdoutClosed is why a stdio server stops when its client closed the
// reading end of stdout.
var errStdoutClosed = errors.New("the client closed stdout")

// watchStdout calls gone once the reading end of out has been closed, as
// poll reports it on the writing end (POLLERR for a pipe, POLLHUP for a
// socket), without anything being written. It watches pipes, and on Linux
// sockets too (elsewhere a socket reports its peer's half-close, which
// only ends stdin, the same way); other files — terminals, regular files —
// are not watched. The returned function stops watching.
func watchStdout(out *os.File, gone func()) (stop func(), err error) {
	fi, err := out.Stat()
	if err != nil {
		return nil, err
	}
	watch := fi.Mode()&os.ModeNamedPipe != 0 || runtime.GOOS == "linux" && fi.Mode()&os.ModeSocket != 0
	if !watch {
		return func() {}, nil
	}
	outFD, err := fd(out)
	if err != nil {
		return nil, err
	}
	// Closing wakeW wakes the poll up (POLLHUP on wakeR) to stop.
	wakeR, wakeW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	wakeFD, err := fd(wakeR)
	if err != nil {
		wakeR.Close()
		wakeW.Close()
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// POLLHUP is requested for systems that report it only when asked
		// (on Linux it is always reported); POLLIN is not, so that a
		// terminal or socket with input to read does not wake the poll.
		fds := []unix.PollFd{{Fd: int32(outFD), Events: unix.POLLHUP}, {Fd: int32(wakeFD), Events: unix.POLLIN}}
		for {
			fds[0].Revents, fds[1].Revents = 0, 0
			if _, err := unix.Poll(fds, -1); err != nil {
				if err == unix.EINTR {
					continue
				}
				return
			}
			switch {
			case fds[1].Revents != 0: // stop
				return
			case fds[0].Revents&unix.POLLNVAL != 0:
				return
			case fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0:
				gone()
				return
			}
		}
	}()
	return func() {
		wakeW.Close()
		<-done
		wakeR.Close()
	}, nil
}

// fd returns the descriptor of f without changing its mode (f.Fd would
// make it blocking).
func fd(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	n := -1
	if err := rc.Control(func(d uintptr) { n = int(d) }); err != nil {
		return 0, err
	}
	return n, nil
}
