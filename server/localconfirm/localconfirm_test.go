package localconfirm

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestPrompt(t *testing.T) {
	for in, want := range map[string]bool{"y\n": true, "YES\n": true, " yes \r\n": true, "\n": false, "no\n": false, "yess\n": false, "y": true} {
		var out strings.Builder
		got, err := Prompt(&out, strings.NewReader(in), "Delete x?")
		if err != nil || got != want {
			t.Errorf("answer %q: %v, %v; want %v", in, got, err, want)
		}
		if !strings.Contains(out.String(), "Delete x?\n\nApprove? [y/N] ") {
			t.Errorf("prompt %q", out.String())
		}
	}
	if _, err := Prompt(&strings.Builder{}, strings.NewReader(""), "q"); err == nil {
		t.Error("no answer at all is not an error")
	}
}

func TestDialogNeedsADisplayAndAProgram(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	if _, err := Dialog(func(string) string { return "" }, none); err == nil || !HasDisplay(func(string) string { return "" }) && !strings.Contains(err.Error(), "no display") {
		t.Errorf("no display: %v", err)
	}
	env := func(k string) string {
		if k == "DISPLAY" {
			return ":0"
		}
		return ""
	}
	if _, err := Dialog(env, none); err == nil {
		t.Error("a dialog without its program")
	}
	a, err := Dialog(env, func(name string) (string, error) { return "/bin/" + name, nil })
	if err != nil || a.Name == "" {
		t.Fatalf("Dialog = %v, %v", a, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Ask(ctx, "q"); err == nil {
		t.Error("a cancelled question was answered")
	}
}
