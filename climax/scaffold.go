package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/climax-mcp/climax/climax/internal/scaffold"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
	"github.com/climax-mcp/climax/metatools"
)

// scaffoldCmd drafts a config from an installed program, or checks a
// config against it (docs/scaffold.md).
type scaffoldCmd struct {
	Output   string        `short:"o" help:"Write the draft to FILE instead of stdout; written only when the whole draft validated." placeholder:"FILE"`
	Force    bool          `help:"With -o: replace an existing FILE."`
	Depth    int           `help:"Levels of subcommands to explore below PROGRAM (and the given subcommand words)." default:"3"`
	MaxTools int           `help:"Most tools in the draft (commands beyond it are left out, and a comment says how many)." default:"100"`
	MaxFlags int           `help:"Most flags per tool, the most useful first (0: none)." default:"20"`
	NoExec   bool          `help:"Never run the program: draft from the Fig autocomplete specs embedded in climax alone (data only)."`
	Timeout  time.Duration `help:"Time limit of each probe of the program." default:"10s"`
	Verify   string        `help:"Instead of drafting: check CONFIG against the installed program (every tool's flags, run with --help in the sandbox), exit 1 on any rejected flag." placeholder:"CONFIG"`

	Program []string `arg:"" optional:"" name:"PROGRAM" help:"The program (a name on PATH, or a path) and optionally subcommand words to draft only that part (climax scaffold aws s3)."`
}

// Run drafts the config, or verifies one with --verify.
func (c *scaffoldCmd) Run(e *env) error {
	leaveSubreaper()
	if c.Verify != "" {
		if len(c.Program) > 0 {
			return usagef("--verify CONFIG takes no PROGRAM (the config names its program)")
		}
		return c.runVerify(e)
	}
	if len(c.Program) == 0 {
		return usagef("name the program to draft a config for: climax scaffold PROGRAM [SUBCOMMAND...]")
	}
	if err := c.checkFlags(); err != nil {
		return err
	}
	name, prefix := c.Program[0], c.Program[1:]
	if _, err := scaffold.ResolveProgram(name); err != nil && !c.NoExec {
		return err
	}
	maxFlags := c.MaxFlags
	if maxFlags == 0 {
		maxFlags = -1 // none, not the default
	}
	start := time.Now()
	res, err := scaffold.Run(context.Background(), scaffold.Request{
		Program: name, Prefix: prefix, NoExec: c.NoExec, Timeout: c.Timeout,
		Depth: c.Depth, MaxTools: c.MaxTools, MaxFlags: maxFlags, Version: versionString(),
	})
	if res == nil {
		return err
	}
	ix, werr := c.writeValidated(e, res.YAML)
	if werr != nil {
		return werr
	}
	c.report(e, res, ix, time.Since(start))
	if err != nil {
		fmt.Fprintf(controlEscaper{e.stderr}, "climax: the draft is partial: %v\n", err)
		return &exitCodeError{exitError}
	}
	fmt.Fprintln(controlEscaper{e.stderr}, "climax: review the draft (read_only/destructive are guesses), then check it: climax scaffold --verify FILE")
	return nil
}

// checkFlags refuses bounds out of range, and -o onto an existing file
// without --force.
func (c *scaffoldCmd) checkFlags() error {
	switch {
	case c.Depth < 1:
		return usagef("--depth must be at least 1, got %d", c.Depth)
	case c.MaxTools < 1:
		return usagef("--max-tools must be at least 1, got %d", c.MaxTools)
	case c.MaxFlags < 0:
		return usagef("--max-flags must not be negative, got %d", c.MaxFlags)
	case c.Timeout <= 0:
		return usagef("--timeout must be more than 0, got %s", c.Timeout)
	}
	if c.Output != "" && !c.Force {
		if _, err := os.Lstat(c.Output); err == nil {
			return usagef("%s exists: use --force to replace it, or another -o FILE", c.Output)
		}
	}
	return nil
}

// report prints on stderr what the draft holds, what it costs a client's
// model, and the problems met.
func (c *scaffoldCmd) report(e *env, res *scaffold.Result, ix *index.Index, took time.Duration) {
	errOut := controlEscaper{e.stderr}
	classic := metatools.EstimateTokens(metatools.ClassicDefinitions(ix))
	discovery := metatools.EstimateTokens(metatools.DefinitionsFor(ix))
	perTool := 0
	if ix.Len() > 0 {
		perTool = classic / ix.Len()
	}
	fmt.Fprintf(errOut, "climax: drafted %d %s (%d %s, %d %s) for %s in %.1fs",
		res.Stats.Tools, plural(res.Stats.Tools, "tool", "tools"),
		res.Stats.Flags, plural(res.Stats.Flags, "flag", "flags"),
		res.Stats.Positionals, plural(res.Stats.Positionals, "operand", "operands"),
		strings.Join(c.Program, " "), took.Seconds())
	if c.Output != "" {
		fmt.Fprintf(errOut, " into %s", c.Output)
	}
	fmt.Fprintln(errOut)
	fmt.Fprintf(errOut, "climax: tokens of tools/list (estimated from JSON size, ~4.5 bytes per token): classic %d (%d per tool), discovery %d\n", classic, perTool, discovery)
	if res.Stats.Dropped > 0 {
		fmt.Fprintf(errOut, "climax: %d more %s left out by --max-tools %d\n", res.Stats.Dropped, plural(res.Stats.Dropped, "command", "commands"), c.MaxTools)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(errOut, "climax: warning: %s\n", n)
	}
}

// writeValidated loads the draft as climax validate does and writes it
// only when it validates: a draft that does not is a bug of climax, and
// -o FILE is then left as it was.
func (c *scaffoldCmd) writeValidated(e *env, data []byte) (*index.Index, error) {
	cfg, err := config.Parse(data, "draft")
	var ix *index.Index
	if err == nil {
		ix, _, err = index.New([]*config.Config{cfg}, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("the draft does not validate, which is a bug in climax scaffold (please report it): %w", err)
	}
	return ix, c.write(e, data)
}

// write puts the draft on stdout, or into -o FILE through a temporary file
// renamed into place, so that FILE is never half written.
func (c *scaffoldCmd) write(e *env, data []byte) error {
	if c.Output == "" {
		_, err := e.stdout.Write(data)
		return err
	}
	dir := filepath.Dir(c.Output)
	tmp, err := os.CreateTemp(dir, ".climax-scaffold-*.yaml")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write %s: directory %s does not exist", c.Output, dir)
		}
		return fmt.Errorf("write %s: %w", c.Output, err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.Output)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", c.Output, err)
	}
	return nil
}
