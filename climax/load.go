package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index"
)

// subcommands are the names a misspelt config name is compared with.
var subcommands = []string{"run", "validate", "list", "skill"}

// bundledNames returns the names of the bundled configs.
func bundledNames() []string {
	names, _ := index.BundledNames(configs.FS)
	return names
}

// loadConfig resolves one command-line config reference. An unknown name
// or a missing file is a usage error whose message lists the bundled
// configs and the subcommands; a config with problems gives the loader's
// *index.LoadError.
func loadConfig(ref string) (*index.Config, error) {
	c, err := index.Resolve(ref, configs.FS)
	if err == nil {
		return c, nil
	}
	var nf *index.NotFoundError
	switch {
	case errors.As(err, &nf):
		return nil, &usageError{errors.New(unknownConfigMessage(ref))}
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("config file %s does not exist", ref)
	}
	return nil, err
}

// unknownConfigMessage explains that ref names neither a file nor a bundled
// config; it is often a misspelt subcommand.
func unknownConfigMessage(ref string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "no config named %q: it is not a file and not a bundled config", ref)
	bundled := bundledNames()
	if s := index.Suggest(ref, append(append([]string{}, subcommands...), bundled...)); s != "" {
		kind := "bundled config"
		for _, sc := range subcommands {
			if s == sc {
				kind = "subcommand"
			}
		}
		fmt.Fprintf(&b, "\ndid you mean %q (%s)?", s, kind)
	}
	fmt.Fprintf(&b, "\nbundled configs: %s", strings.Join(bundled, ", "))
	fmt.Fprintf(&b, "\nsubcommands: %s", strings.Join(subcommands, ", "))
	b.WriteString("\na config given by path must contain \"/\" or end in .yaml or .yml")
	return b.String()
}

// noConfigError is the usage error for a command that needs configs and got
// none.
func noConfigError(cmd string) error {
	return usagef("no config given\nusage: climax %s CONFIG...   (e.g. climax %s git, or climax %s ./mytool.yaml)\nbundled configs: %s",
		cmd, cmd, cmd, strings.Join(bundledNames(), ", "))
}

// loadAll loads every reference, in parallel, and returns the configs in
// reference order, or the error of the first reference (in order) that
// failed.
func loadAll(refs []string) ([]*index.Config, error) {
	cfgs := make([]*index.Config, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Go(func() { cfgs[i], errs[i] = loadConfig(ref) })
	}
	wg.Wait()
	if err := firstNonNil(errs); err != nil {
		return nil, err
	}
	return cfgs, nil
}

func firstNonNil(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// loadPolicy loads the policy file name; "" means no policy (nil).
func loadPolicy(name string) (*index.Policy, error) {
	if name == "" {
		return nil, nil
	}
	p, err := index.LoadPolicyFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("policy file %s does not exist", name)
	}
	return p, err
}

// buildIndex loads configs and policy and builds the index. Policy
// warnings are returned beside it.
func buildIndex(refs []string, policyFile string) (*index.Index, []string, error) {
	cfgs, err := loadAll(refs)
	if err != nil {
		return nil, nil, err
	}
	pol, err := loadPolicy(policyFile)
	if err != nil {
		return nil, nil, err
	}
	return index.New(cfgs, pol)
}

// findBinary reports whether the program bin can be run: a path that
// exists, or a name found on PATH.
func findBinary(bin string) error {
	if strings.ContainsRune(bin, filepath.Separator) || strings.Contains(bin, "/") {
		_, err := os.Stat(bin)
		return err
	}
	_, err := exec.LookPath(bin)
	return err
}
