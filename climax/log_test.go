package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want slog.Level
	}{
		{"", slog.LevelWarn},
		{"debug", slog.LevelDebug},
		{"INFO", slog.LevelInfo},
		{"Warning", slog.LevelWarn},
		{"warn", slog.LevelWarn},
		{"ERROR", slog.LevelError},
	}
	for _, tt := range tests {
		if got, err := parseLevel(tt.in); err != nil || got != tt.want {
			t.Errorf("parseLevel(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := parseLevel("loud"); err == nil || err.Error() != `unknown log level "loud" (want DEBUG, INFO, WARNING or ERROR)` {
		t.Errorf("ParseLevel(loud): %v", err)
	}
}

func TestNewLogger(t *testing.T) {
	var stderr bytes.Buffer
	logger, closeLog, err := newLogger(slog.LevelWarn, &stderr, "")
	if err != nil {
		t.Fatal(err)
	}
	logger.Info("hidden")
	logger.Warn("shown", "k", "v")
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	out := stderr.String()
	if strings.Contains(out, "hidden") || !strings.Contains(out, `level=WARNING msg=shown k=v`) {
		t.Errorf("stderr log:\n%s", out)
	}
}

func TestNewLoggerFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "climax.log")
	var stderr bytes.Buffer
	logger, closeLog, err := newLogger(slog.LevelError, &stderr, name)
	if err != nil {
		t.Fatal(err)
	}
	logger.Debug("detail")
	logger.Error("failure")
	if !logger.Enabled(context.Background(), slog.LevelDebug) {
		t.Error("DEBUG not enabled with a log file")
	}
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(file), "level=DEBUG msg=detail") || !strings.Contains(string(file), "msg=failure") {
		t.Errorf("log file:\n%s", file)
	}
	if strings.Contains(stderr.String(), "detail") || !strings.Contains(stderr.String(), "msg=failure") {
		t.Errorf("stderr:\n%s", stderr.String())
	}

	if _, _, err := newLogger(slog.LevelWarn, &stderr, filepath.Join(t.TempDir(), "no", "such", "dir", "x.log")); err == nil || !strings.Contains(err.Error(), "open log file") {
		t.Errorf("unwritable log file: %v", err)
	}
}
