package executor_test

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

func BenchmarkBuildArgv(b *testing.B) {
	rt := &config.ResolvedTool{
		Tool: &config.Tool{Name: "git_log", Command: "log", Args: []config.Arg{
			{Name: "path", Positional: true},
			{Name: "max_count", Type: config.TypeInteger, Flag: "-n", Default: 10},
			{Name: "format", Flag: "--format="},
			{Name: "all", Type: config.TypeBoolean},
			{Name: "author", Flag: "--author"},
		}},
		CLI: &config.Config{Command: "git", GlobalArgs: []config.Arg{{Name: "no_pager", Type: config.TypeBoolean, Default: true}}},
	}
	args := map[string]any{"path": "src", "max_count": 42.0, "format": "%h %s", "all": true}
	b.Run("validate+build", func(b *testing.B) {
		for b.Loop() {
			v, err := executor.Validate(rt, args)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := executor.BuildArgv(rt, v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("build", func(b *testing.B) {
		v, _ := executor.Validate(rt, args)
		for b.Loop() {
			if _, err := executor.BuildArgv(rt, v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTrue compares running `true` through the Runner with a bare
// exec.Command("true").Run() in the same run.
func BenchmarkTrue(b *testing.B) {
	if _, err := exec.LookPath("true"); err != nil {
		b.Skip("no true on PATH")
	}
	b.Run("exec", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The runner captures both streams; exec.Cmd doing the same is the
	// fairer baseline for what capturing costs.
	b.Run("exec-output", func(b *testing.B) {
		for b.Loop() {
			var stdout, stderr bytes.Buffer
			c := exec.Command("true")
			c.Stdout, c.Stderr = &stdout, &stderr
			if err := c.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	r := executor.New()
	b.Run("runner", func(b *testing.B) {
		cmd := &executor.Command{Argv: []string{"true"}}
		for b.Loop() {
			res, err := r.Run(context.Background(), cmd)
			if err != nil || res.ExitCode != 0 {
				b.Fatal(res, err)
			}
		}
	})
	rt := &config.ResolvedTool{Tool: &config.Tool{Name: "t", Timeout: 30}, CLI: &config.Config{Command: "true"}}
	b.Run("call", func(b *testing.B) {
		for b.Loop() {
			if out := r.Call(context.Background(), rt, nil); out.IsError {
				b.Fatal(out.Text)
			}
		}
	})
	// Alternating the two in one loop cancels out load changes on a busy
	// machine; the metric is the ratio of their total times.
	b.Run("paired", func(b *testing.B) {
		cmd := &executor.Command{Argv: []string{"true"}}
		var tExec, tRunner time.Duration
		for b.Loop() {
			t0 := time.Now()
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if _, err := r.Run(context.Background(), cmd); err != nil {
				b.Fatal(err)
			}
			tExec += t1.Sub(t0)
			tRunner += time.Since(t1)
		}
		b.ReportMetric(float64(tRunner)/float64(tExec), "runner/exec")
	})
}
