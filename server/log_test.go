package server_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/server"
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
		if got, err := server.ParseLevel(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := server.ParseLevel("loud"); err == nil || err.Error() != `unknown log level "loud" (want DEBUG, INFO, WARNING or ERROR)` {
		t.Errorf("ParseLevel(loud): %v", err)
	}
}

func TestNewLogger(t *testing.T) {
	t.Setenv(server.LogFileEnv, "")
	var stderr bytes.Buffer
	logger, closeLog, err := server.NewLogger("warning", &stderr)
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
	if _, _, err := server.NewLogger("verbose", &stderr); err == nil {
		t.Error("NewLogger accepted an unknown level")
	}
}

func TestNewLoggerFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "climax.log")
	t.Setenv(server.LogFileEnv, name)
	var stderr bytes.Buffer
	logger, closeLog, err := server.NewLogger("ERROR", &stderr)
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

	t.Setenv(server.LogFileEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "x.log"))
	if _, _, err := server.NewLogger("", &stderr); err == nil || !strings.Contains(err.Error(), server.LogFileEnv) {
		t.Errorf("unwritable log file: %v", err)
	}
}
