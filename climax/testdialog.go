package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/climax-mcp/climax/server/localconfirm"
)

// testDialogCmd shows a sample approval question the way climax run asks
// when the client cannot be asked (--confirm-via), so that a user can see
// whether this machine shows it before relying on it.
type testDialogCmd struct {
	Via     string        `help:"How to ask: dialog, tty, or auto (a dialog when a display is present, then the terminal), as --confirm-via of climax run." default:"auto" enum:"dialog,tty,auto" placeholder:"WAY"`
	Timeout time.Duration `help:"How long to wait for the answer." default:"2m" placeholder:"DURATION"`
}

// testQuestion is the sample question.
const testQuestion = "This is a test approval question from CLImax.\nIf you can read it, climax run can ask you here when your MCP client cannot."

// Run asks the sample question and reports how it was asked and the
// answer. It fails when there is no way to ask, or no answer came.
func (c *testDialogCmd) Run(e *env) error {
	if c.Timeout <= 0 {
		return usagef("--timeout must be positive, e.g. 2m (got %s)", c.Timeout)
	}
	var asker *localconfirm.Asker
	var whys []string
	if c.Via == "dialog" || c.Via == "auto" && localconfirm.HasDisplay(os.Getenv) {
		d, err := localconfirm.Dialog(os.Getenv, exec.LookPath)
		if err == nil {
			asker = d
		} else {
			whys = append(whys, "no dialog: "+err.Error())
		}
	}
	if asker == nil && (c.Via == "tty" || c.Via == "auto") {
		t, err := localconfirm.TTY()
		if err == nil {
			asker = t
		} else {
			whys = append(whys, err.Error())
		}
	}
	if asker == nil {
		if len(whys) == 0 {
			whys = append(whys, "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)")
		}
		return fmt.Errorf("cannot ask on this machine (%s): climax run would apply --confirm-fallback or the policy's headless rule; install zenity or kdialog, or run climax from a terminal", strings.Join(whys, "; "))
	}
	fmt.Fprintf(e.stdout, "Asking via %s...\n", asker.Name)
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
	defer cancel()
	ok, err := asker.Ask(ctx, testQuestion)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s via %s", c.Timeout, asker.Name)
	case err != nil:
		return fmt.Errorf("asking via %s failed: %w", asker.Name, err)
	case ok:
		fmt.Fprintf(e.stdout, "Approved via %s: approval questions work on this machine.\n", asker.Name)
	default:
		fmt.Fprintf(e.stdout, "Denied via %s: approval questions work on this machine (a denied call does not run).\n", asker.Name)
	}
	return nil
}
