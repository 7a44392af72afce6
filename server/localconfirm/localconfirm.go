// Package localconfirm asks the user of this machine to approve a command
// when the MCP client cannot be asked: a native dialog (osascript on
// macOS, zenity or kdialog on Linux and other Unix systems with a display,
// PowerShell on Windows) or the terminal (/dev/tty), never the server's
// stdin, which is the MCP protocol. See docs/security.md, Approving calls.
package localconfirm

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Title is the title of the dialog.
const Title = "CLImax approval"

// An Asker asks one way: a dialog program or the terminal.
type Asker struct {
	// Name says how it asks: "zenity", "kdialog", "osascript",
	// "powershell" or "terminal (/dev/tty)".
	Name string
	ask  func(ctx context.Context, question string) (bool, error)
}

// Ask shows question and waits for the answer until ctx ends: true when
// the user approved, false when they declined. An error means there was
// no answer: the dialog could not be shown, failed, or ctx ended.
func (a *Asker) Ask(ctx context.Context, question string) (bool, error) {
	ok, err := a.ask(ctx, question)
	if err == nil && ctx.Err() != nil {
		return false, context.Cause(ctx)
	}
	return ok, err
}

// Getenv looks up environment variables; os.Getenv in use, a map in
// tests.
type Getenv func(string) string

// HasDisplay reports whether a dialog can be shown: always on macOS and
// Windows, elsewhere when DISPLAY or WAYLAND_DISPLAY is set.
func HasDisplay(getenv Getenv) bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// Dialog returns the native dialog of this system, or why there is none.
// lookPath finds programs (exec.LookPath in use).
func Dialog(getenv Getenv, lookPath func(string) (string, error)) (*Asker, error) {
	if !HasDisplay(getenv) {
		return nil, errors.New("no display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
	}
	switch runtime.GOOS {
	case "darwin":
		p, err := lookPath("osascript")
		if err != nil {
			return nil, errors.New("osascript is not on PATH")
		}
		return &Asker{Name: "osascript", ask: func(ctx context.Context, q string) (bool, error) {
			// The question is an argument of the script, never part of
			// its text.
			return run(ctx, exec.CommandContext(ctx, p,
				"-e", "on run argv",
				"-e", `display dialog (item 1 of argv) with title "`+Title+`" buttons {"Deny", "Approve"} default button "Deny" cancel button "Deny" with icon caution`,
				"-e", "end run", "--", q))
		}}, nil
	case "windows":
		p, err := lookPath("powershell")
		if err != nil {
			return nil, errors.New("powershell is not on PATH")
		}
		return &Asker{Name: "powershell", ask: func(ctx context.Context, q string) (bool, error) {
			// The question goes in an environment variable, never in
			// the script.
			cmd := exec.CommandContext(ctx, p, "-NoProfile", "-NonInteractive", "-Command",
				"Add-Type -AssemblyName System.Windows.Forms; "+
					"$r = [System.Windows.Forms.MessageBox]::Show($env:CLIMAX_QUESTION, '"+Title+"', 'YesNo', 'Warning', 'Button2'); "+
					"if ($r -eq 'Yes') { exit 0 } else { exit 1 }")
			cmd.Env = append(os.Environ(), "CLIMAX_QUESTION="+q)
			return run(ctx, cmd)
		}}, nil
	}
	if p, err := lookPath("zenity"); err == nil {
		return &Asker{Name: "zenity", ask: func(ctx context.Context, q string) (bool, error) {
			return run(ctx, exec.CommandContext(ctx, p, "--question", "--no-markup", "--title="+Title,
				"--ok-label=Approve", "--cancel-label=Deny", "--text="+q))
		}}, nil
	}
	if p, err := lookPath("kdialog"); err == nil {
		return &Asker{Name: "kdialog", ask: func(ctx context.Context, q string) (bool, error) {
			return run(ctx, exec.CommandContext(ctx, p, "--title", Title, "--yes-label", "Approve", "--no-label", "Deny", "--yesno", q))
		}}, nil
	}
	return nil, errors.New("neither zenity nor kdialog is on PATH")
}

// run runs a dialog program: exit status 0 is approval, 1 is a refusal
// (Deny, or the window closed), anything else an error.
func run(ctx context.Context, cmd *exec.Cmd) (bool, error) {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return false, context.Cause(ctx)
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	}
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		line, _, _ := strings.Cut(msg, "\n")
		return false, fmt.Errorf("%s: %v: %s", cmd.Args[0], err, line)
	}
	return false, fmt.Errorf("%s: %v", cmd.Args[0], err)
}

// TTYPath is the terminal the terminal channel opens.
var TTYPath = "/dev/tty"

// TTY returns the terminal channel: the controlling terminal of the
// process, opened for reading and writing, or why there is none. A server
// started by a desktop MCP client has none.
func TTY() (*Asker, error) {
	if runtime.GOOS == "windows" {
		return nil, errors.New("the terminal channel is not supported on Windows")
	}
	f, err := os.OpenFile(TTYPath, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("no terminal to ask in (%v)", err)
	}
	f.Close()
	return &Asker{Name: "terminal (" + TTYPath + ")", ask: askTTY}, nil
}

// askTTY writes the question to the terminal and reads one line: y or
// yes (any case) approves, anything else declines. It gives up when ctx
// ends.
func askTTY(ctx context.Context, q string) (bool, error) {
	f, err := os.OpenFile(TTYPath, os.O_RDWR, 0)
	if err != nil {
		return false, fmt.Errorf("no terminal: %v", err)
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.Close() }) // ends the read
	defer stop()
	return Prompt(f, f, q)
}

// Prompt writes the question to w and reads the answer from r: y or yes
// approves, anything else (an empty line too) declines; an error when r
// ends without a line.
func Prompt(w io.Writer, r io.Reader, q string) (bool, error) {
	bar := strings.Repeat("=", 60)
	if _, err := fmt.Fprintf(w, "\n%s\n%s\n%s\n%s\n\nApprove? [y/N] ", bar, Title, bar, q); err != nil {
		return false, err
	}
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return false, fmt.Errorf("no answer from the terminal: %v", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
