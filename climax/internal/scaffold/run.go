package scaffold

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Request asks [Run] for a draft.
type Request struct {
	Program  string   // as the user named it: a name on PATH or a path
	Prefix   []string // subcommand words to draft only part of the program
	NoExec   bool     // never run the program: its manual page only
	Timeout  time.Duration
	Depth    int
	MaxTools int
	MaxFlags int    // 0: the default; negative: no flags
	Version  string // of climax, for the header comment
}

// A Result is a draft.
type Result struct {
	YAML  []byte
	Stats Stats
	Notes []string // problems met while probing, for the user
}

// Run drafts a config for the request's program. A nil Result comes with
// the error that prevented any draft (a missing program, a prefix the
// program does not know); a Result with an error is a partial draft (the
// program gave no usable help, so the draft has a bare tool).
func Run(ctx context.Context, r Request) (*Result, error) {
	// A program given by path goes into the config as an absolute path: a
	// relative one would be read against the config file's directory.
	command := r.Program
	if !IsBareName(command) {
		if abs, err := filepath.Abs(command); err == nil {
			command = abs
		}
	}
	if strings.ContainsAny(command, " \t$") || strings.HasPrefix(command, "~") {
		return nil, fmt.Errorf("the path %q holds a space, \"$\" or a leading \"~\", which a config's command cannot hold: move or link the program to a plain path", command)
	}
	var root *Command
	var notes []string
	var runErr error
	var sb *Sandbox // nil with NoExec
	if r.NoExec {
		cmd, err := fromManual(r.Program, r.Prefix)
		if err != nil {
			// The Fig specs may still know the program.
			if _, ok, _ := lookupFig(programName(r.Program)); !ok {
				return nil, err
			}
			cmd = &Command{Path: slices.Clone(r.Prefix), Source: figSource}
		}
		root = cmd
	} else {
		var err error
		sb, err = NewSandbox(r.Program)
		if err != nil {
			return nil, err
		}
		defer sb.Close()
		sb.Timeout = r.Timeout
		root, notes, runErr = Discover(ctx, sb, Options{Depth: r.Depth, Prefix: r.Prefix})
		if runErr != nil && len(r.Prefix) > 0 {
			return nil, fmt.Errorf("%w: is %q a subcommand of %s?", runErr, strings.Join(r.Prefix, " "), programName(r.Program))
		}
		if len(r.Prefix) > 0 && len(root.Flags) == 0 && len(root.Children) == 0 {
			return nil, fmt.Errorf("%s %s: the help lists no options or subcommands: is %q a subcommand of %s?",
				programName(r.Program), strings.Join(r.Prefix, " "), strings.Join(r.Prefix, " "), programName(r.Program))
		}
		for _, p := range root.Problems {
			if runErr == nil || !strings.Contains(runErr.Error(), p) {
				notes = append(notes, p)
			}
		}
		notes = append(notes, childProblems(root)...)
	}
	// The one place a data source joins what the program said.
	figNote, figErr := addFig(root, r.Program, r.Prefix, r.Depth)
	switch {
	case r.NoExec && len(root.Flags) == 0 && len(root.Children) == 0 && len(root.Positionals) == 0:
		if figErr == nil {
			figErr = fmt.Errorf("the Fig spec of %s describes no options, operands or subcommands", programName(r.Program))
		}
		return nil, fmt.Errorf("--no-exec: %w: run without --no-exec to read the program's help in a sandbox", figErr)
	case figErr != nil && !errors.As(figErr, new(figPrefixError)):
		notes = append(notes, figErr.Error())
	case figNote != "":
		notes = append(notes, figNote)
		if runErr != nil && (len(root.Flags) > 0 || len(root.Children) > 0) {
			// The spec gave what the program's help did not: a
			// draft from data, not a partial one.
			notes = append(notes, runErr.Error()+": the draft comes from the Fig spec")
			runErr = nil
		}
	}
	o := DraftOptions{Name: command, MaxTools: r.MaxTools, MaxFlags: r.MaxFlags, Version: r.Version}
	if sb != nil {
		addManualFlags(ctx, sb, root, o)
		notes = append(notes, dropRefusedFlags(ctx, sb, root, o)...)
	}
	o.Notes = notes
	yaml, st := Draft(root, o)
	return &Result{YAML: yaml, Stats: st, Notes: notes}, runErr
}

// childProblems lists the problems of the commands below root, at most a
// few of them with a count of the rest.
func childProblems(root *Command) []string {
	var all []string
	var walk func(n *Command)
	walk = func(n *Command) {
		for _, c := range n.Children {
			all = append(all, c.Problems...)
			walk(c)
		}
	}
	walk(root)
	const show = 5
	if len(all) > show {
		return append(all[:show], fmt.Sprintf("and %d more problems (see the # problem comments)", len(all)-show))
	}
	return all
}
