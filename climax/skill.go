package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// skillGuide is the config-writing guide for coding agents.
//
//go:embed skill.md
var skillGuide string

// skillInstallPath is where --install writes the guide, relative to the
// current directory: a Claude Code project command (/climax-config).
const skillInstallPath = ".claude/commands/climax-config.md"

// skillCmd prints, locates or installs the config-writing guide.
type skillCmd struct {
	Path    bool `help:"Print the path --install writes to (under the current directory) instead of the guide." xor:"mode"`
	Install bool `help:"Write the guide to .claude/commands/climax-config.md under the current directory (a Claude Code command). An existing, different file is only replaced with --force." xor:"mode"`
	Force   bool `help:"With --install: replace an existing file that differs from the guide."`
}

// Run prints the guide, its install path, or installs it.
func (c *skillCmd) Run(e *env) error {
	if c.Force && !c.Install {
		return usagef("--force only applies to --install")
	}
	if !c.Path && !c.Install {
		_, err := fmt.Fprint(e.stdout, skillGuide)
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	dest := filepath.Join(wd, filepath.FromSlash(skillInstallPath))
	if c.Path {
		_, err := fmt.Fprintln(e.stdout, dest)
		return err
	}
	old, err := os.ReadFile(dest)
	switch {
	case err == nil && string(old) == skillGuide:
		fmt.Fprintf(e.stdout, "%s is already up to date\n", dest)
		return nil
	case err == nil && !c.Force:
		return fmt.Errorf("%s exists and differs from the guide; use --install --force to replace it", dest)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(dest, []byte(skillGuide), 0o644); err != nil {
		return err
	}
	verb := "installed"
	if old != nil {
		verb = "replaced"
	}
	fmt.Fprintf(e.stdout, "%s %s\nIn Claude Code, run /climax-config to use it.\n", verb, dest)
	return nil
}
