package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
)

// parseLevel parses a log level name: DEBUG, INFO, WARNING (or WARN) or
// ERROR, in any case. The empty string is WARNING, the default.
func parseLevel(name string) (slog.Level, error) {
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case "DEBUG":
		return slog.LevelDebug, nil
	case "INFO":
		return slog.LevelInfo, nil
	case "", "WARNING", "WARN":
		return slog.LevelWarn, nil
	case "ERROR":
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("unknown log level %q (want DEBUG, INFO, WARNING or ERROR)", name)
}

// newLogger returns the logger of the climax command: text records at lvl
// and above on stderr and, when logFile is not empty, every record from
// DEBUG up appended to that file too. Nothing goes to stdout. The returned
// function closes the log file (it does nothing without one).
func newLogger(lvl slog.Level, stderr io.Writer, logFile string) (*slog.Logger, func() error, error) {
	handlers := []slog.Handler{slog.NewTextHandler(stderr, handlerOptions(lvl))}
	closer := func() error { return nil }
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("open log file: %w", err)
		}
		handlers = append(handlers, slog.NewTextHandler(f, handlerOptions(slog.LevelDebug)))
		closer = f.Close
	}
	if len(handlers) == 1 {
		return slog.New(handlers[0]), closer, nil
	}
	return slog.New(slog.NewMultiHandler(handlers...)), closer, nil
}

// handlerOptions names levels as the --log-level flag does (WARNING, not
// WARN).
func handlerOptions(lvl slog.Level) *slog.HandlerOptions {
	return &slog.HandlerOptions{
		Level: lvl,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.LevelKey && len(groups) == 0 {
				if l, ok := a.Value.Any().(slog.Level); ok && l == slog.LevelWarn {
					a.Value = slog.StringValue("WARNING")
				}
			}
			return a
		},
	}
}
