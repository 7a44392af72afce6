package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/climax-mcp/climax/climax/internal/scaffold"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// runVerify checks every flag of a config against its installed program
// (docs/scaffold.md, Verify) and prints one line per tool: exit 1 when the
// program refused any flag.
func (c *scaffoldCmd) runVerify(e *env) error {
	e = e.forText()
	if c.Timeout <= 0 {
		return usagef("--timeout must be more than 0, got %s", c.Timeout)
	}
	cfg, err := loadConfig(c.Verify)
	if err != nil {
		return err
	}
	ix, _, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		return err
	}
	prog, err := executor.FindProgram(cfg)
	if err != nil {
		return fmt.Errorf("verify %s: %w", c.Verify, err)
	}
	sb, err := scaffold.NewSandbox(prog)
	if err != nil {
		return fmt.Errorf("verify %s: %w", c.Verify, err)
	}
	defer sb.Close()
	sb.Timeout = c.Timeout
	checks := scaffold.Verify(context.Background(), sb, ix.Tools(), 0)

	var accepted, rejected, unknown, unchecked int
	for _, tc := range checks {
		a, r, u := tc.Count(scaffold.Accepted), tc.Count(scaffold.Rejected), tc.Count(scaffold.Uninformative)
		accepted, rejected, unknown = accepted+a, rejected+r, unknown+u
		switch {
		case tc.Control != "":
			unchecked++
			fmt.Fprintf(e.stdout, "??    %s: %s\n", tc.Tool, tc.Control)
			continue
		case r > 0:
			fmt.Fprintf(e.stdout, "FAIL  %s: %d accepted, %d rejected, %d uninformative\n", tc.Tool, a, r, u)
		default:
			fmt.Fprintf(e.stdout, "ok    %s: %d accepted, %d uninformative\n", tc.Tool, a, u)
		}
		for _, f := range tc.Flags {
			if f.Verdict != scaffold.Accepted {
				fmt.Fprintf(e.stdout, "      %s %s: %s (%s)\n", f.Verdict, f.Arg, f.Reason, strings.Join(f.Argv, " "))
			}
		}
	}
	fmt.Fprintf(e.stdout, "%s: %d %s, flags %d accepted, %d rejected, %d uninformative; %d %s could not be checked\n",
		c.Verify, len(checks), plural(len(checks), "tool", "tools"), accepted, rejected, unknown, unchecked, plural(unchecked, "tool", "tools"))
	if rejected > 0 {
		fmt.Fprintln(e.stdout, "verification failed: the program refused the flags above")
		return &exitCodeError{exitError}
	}
	return nil
}
