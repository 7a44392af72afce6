package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// subcommands are the names a misspelt config name is compared with.
var subcommands = []string{"run", "validate", "list", "search", "skill", "test-dialog", "scaffold"}

// bundledNames returns the names of the bundled configs.
func bundledNames() []string {
	names, _ := config.BundledNames(configs.FS)
	return names
}

// unservedBundled returns the bundled configs that refs do not name: a
// server started with refs tells a search that names one of them that
// it is not served (metatools.WithUnservedConfigs).
func unservedBundled(refs []string) []string {
	return slices.DeleteFunc(bundledNames(), func(name string) bool { return slices.Contains(refs, name) })
}

// readFunc reads a config or policy file given by path: readFile, or
// with --watch what the watcher read (see watch.go).
type readFunc func(name string) ([]byte, error)

// readFile reads a config or policy file given by path, pipes included,
// unless it holds more than maxConfigFile bytes (see readCapped): a path
// such as /dev/zero grew climax by a gigabyte in seconds.
func readFile(name string) ([]byte, error) {
	data, _, err := readFileInfo(name)
	return data, err
}

// readFileInfo is readFile that also returns what the opened file is.
func readFileInfo(name string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := readCapped(f, name, fi)
	return data, fi, err
}

// loadConfig resolves one command-line config reference. An unknown name
// or a missing file is a usage error whose message lists the bundled
// configs and the subcommands; a config with problems gives the loader's
// *config.LoadError.
func loadConfig(ref string) (*config.Config, error) {
	return loadConfigWith(readFile, ref)
}

// loadConfigWith is loadConfig reading files with read.
func loadConfigWith(read readFunc, ref string) (*config.Config, error) {
	if c, ok := compiledConfig(ref); ok {
		return c, nil
	}
	var c *config.Config
	var err error
	if config.IsPath(ref) {
		var data []byte
		if data, err = read(ref); err == nil {
			c, err = config.Parse(data, ref)
		}
	} else {
		c, err = config.LoadRef(ref, configs.FS)
	}
	if err == nil {
		return c, nil
	}
	var nf *config.NotFoundError
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
	if fi, err := os.Stat(ref); err == nil && fi.Mode().IsRegular() {
		// A file of that name exists, but a bare name means a bundled
		// config.
		fmt.Fprintf(&b, "no bundled config named %q; to load the file of that name, write %q", ref, "./"+ref)
		return b.String()
	}
	fmt.Fprintf(&b, "no config named %q: it is not a file and not a bundled config", ref)
	bundled := bundledNames()
	if s := config.Suggest(ref, append(append([]string{}, subcommands...), bundled...)); s != "" {
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

// loadAll loads every reference, as many at once as there are CPUs, and
// returns the configs in reference order, or the error of the first
// reference (in order) that failed. More at once would not load faster,
// and each file being parsed holds its YAML node tree, several times the
// size of the config it makes.
func loadAll(read readFunc, refs []string) ([]*config.Config, error) {
	cfgs := make([]*config.Config, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, ref := range refs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			cfgs[i], errs[i] = loadConfigWith(read, ref)
		})
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
func loadPolicy(name string) (*config.Policy, error) {
	return loadPolicyWith(readFile, name)
}

// loadPolicyWith is loadPolicy reading the file with read.
func loadPolicyWith(read readFunc, name string) (*config.Policy, error) {
	if name == "" {
		return nil, nil
	}
	data, err := read(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("policy file %s does not exist", name)
	}
	if err != nil {
		return nil, err
	}
	return config.ParsePolicy(data, name)
}

// buildIndex loads configs and policy and builds the index, with the GC
// target raised meanwhile (see loadGCPercent); readOnly keeps only the
// tools annotated read_only (--read-only), and confirm is the --confirm
// rule, added to the policy's own. The configs' warnings, then the
// policy's, are returned beside it.
func buildIndex(refs []string, policyFile string, readOnly bool, confirm config.ConfirmRule) (*index.Index, []config.Problem, error) {
	return buildIndexWith(readFile, refs, policyFile, readOnly, confirm)
}

// buildIndexWith is buildIndex reading the files given by path with read.
func buildIndexWith(read readFunc, refs []string, policyFile string, readOnly bool, confirm config.ConfirmRule) (*index.Index, []config.Problem, error) {
	defer raiseGCPercent(loadGCPercent)()
	cfgs, err := loadAll(read, refs)
	if err != nil {
		return nil, nil, err
	}
	pol, err := loadPolicyWith(read, policyFile)
	if err != nil {
		return nil, nil, err
	}
	ix, policyWarnings, err := index.New(cfgs, config.WithConfirm(readOnlyPolicy(pol, readOnly), confirm))
	if err != nil {
		return nil, nil, err
	}
	var warnings []config.Problem
	for _, c := range cfgs {
		warnings = append(warnings, c.Warnings...)
	}
	warnings = append(warnings, policyWarnings...)
	return ix, append(warnings, volumeWarnings(pol)...), nil
}

// volumeWarnings are the warnings about the policy's docker volumes that
// every call would refuse in this environment ([executor.CheckVolumes]: a
// variable that is not set, a host path empty once expanded). They are
// warnings, not errors: where the policy is deployed the variables may be
// set. validate prints them with the policy's; run logs them at start.
func volumeWarnings(pol *config.Policy) []config.Problem {
	if pol == nil || !pol.Executor.IsDocker() {
		return nil
	}
	var ps []config.Problem
	for _, err := range executor.CheckVolumes(&pol.Executor) {
		ps = append(ps, config.Problem{File: pol.Source,
			Message: "in this environment every call will fail under the policy's docker executor: " + err.Error() +
				" (a warning: the environment where the policy is deployed may differ)"})
	}
	return ps
}

// readOnlyHelp is the help of the --read-only flag of run, list and validate.
const readOnlyHelp = "Keep only the tools annotated read_only: true (with --policy: those of its tools)."

// readOnlyPolicy returns pol restricted to read-only tools when readOnly
// is set (--read-only), else pol.
func readOnlyPolicy(pol *config.Policy, readOnly bool) *config.Policy {
	if !readOnly {
		return pol
	}
	return config.ReadOnlyPolicy(pol)
}

// loadGCPercent is the GC target while configs load. Loading allocates
// several times what it keeps (YAML node trees), and at the default target
// of 100 the collector ran twice during a 12-config cold start and took
// about 2 ms of its ~14 ms (2 cores); at 400 the first collection comes
// after 16 MB, so small config sets load without one, and 10,000
// generated tools load about 15% faster for about 20% more peak RSS
// (~95 MB against ~78 MB). 200 saved the same at 12 configs but less at
// 10,000 tools.
const loadGCPercent = 400

// raiseGCPercent sets the GC target to percent unless it is already
// higher or off (GOGC), and returns the function that restores it.
func raiseGCPercent(percent int) (restore func()) {
	old := debug.SetGCPercent(percent)
	if old < 0 || old >= percent {
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() { debug.SetGCPercent(old) }
}
