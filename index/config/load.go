package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Problem is one thing wrong in a config or policy file.
type Problem struct {
	File    string // the file (or source name) the problem is in
	Line    int    // 1-based; 0 when unknown
	Column  int    // 1-based; 0 when unknown
	Message string // what is wrong and how to fix it, lowercase
}

// String formats the problem as "file:line:column: message", leaving out
// the parts that are unknown.
func (p Problem) String() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

// LoadError lists the problems found in one file: all of them, or the
// first [MaxProblems] by position when there are more.
type LoadError struct {
	File     string    // the file (or source name) loaded
	Problems []Problem // sorted by position; never empty
	Omitted  int       // how many more problems were found but not listed
}

// Error returns the problems, one per line, and then how many more there
// are when some are omitted.
func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems), len(e.Problems)+1)
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	if e.Omitted > 0 {
		lines = append(lines, e.OmittedProblem().String())
	}
	return strings.Join(lines, "\n")
}

// OmittedProblem returns a problem that says how many problems are not
// listed ("… and 12 more problems"), for printing after the others.
func (e *LoadError) OmittedProblem() Problem {
	return Problem{File: e.File, Message: fmt.Sprintf("… and %d more %s", e.Omitted, plural(e.Omitted, "problem", "problems"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// NotFoundError reports a config reference that is neither a file nor a
// bundled config.
type NotFoundError struct {
	Ref     string   // the reference as given
	Bundled []string // the bundled names, sorted
}

// Error names the reference and lists the bundled configs.
func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no config named %s: it is not a file and not a bundled config (bundled: %s)", quote(e.Ref), strings.Join(e.Bundled, ", "))
}

// Parse decodes and validates a config from YAML. source names the data in
// errors and becomes Config.Source.
//
// Validation is strict: every problem in the file — malformed YAML, a
// missing or empty required field (command, tools, a tool's name and
// description, an arg's name), a value of the wrong type, an unknown arg
// type, an unknown key at any level (with a "did you mean" hint), a tool
// name that is not a valid MCP tool name, duplicate tool or arg names, a
// stdin or cwd arg with after_double_dash, a default that does not fit the arg's type
// or enum, an enum on a boolean arg, a timeout under [MinTimeout] or over
// [MaxTimeout], a max_output that is not positive, an array of the wrong
// shape (items without type: array, items that are not string, integer or
// number, a default that is not a list or whose items do not fit, an
// array stdin or cwd arg), after_double_dash without positional or in
// global_args, a success_exit_codes entry that is not a whole number from
// 0 to 255 (or a list without 0), an annotation (read_only, destructive,
// idempotent, open_world) that is not a boolean, read_only together with
// destructive — is reported in one
// [*LoadError], each with its line and column (the first [MaxProblems] by
// position; the others are counted). Messages quote at most 80 bytes of a
// value.
//
// Loading is bounded whatever the input: anchors, aliases and merge keys
// are allowed as long as the document, expanded, stands for at most
// 10,000 + 4 × len(data) nodes and no alias sits inside the node it names;
// otherwise the error is that one problem, at the alias.
//
// The arg placements CLImax 0.5 accepted load as 0.5 read them, each with
// a warning in Config.Warnings: a flag or positional: true on a stdin or
// cwd arg is ignored (Arg.Flag empty, Arg.Positional false), a positional
// arg's flag is ignored, and an empty flag is no flag.
//
// An empty tool list (tools: []) is allowed: the CLI is listed with no
// tools. On success the defaults are applied: name [DefaultCLIName], arg
// type [TypeString], timeout [DefaultTimeout], max_output
// [DefaultMaxOutput], item type [TypeString] for arrays, and Tags, Env and
// Tools are never nil. A default is held as the Go value of its arg's
// type: string, int, float64 or bool, or for an array a []any of item
// values. SuccessExitCodes and the annotations stay nil when absent.
func Parse(data []byte, source string) (*Config, error) {
	c := &checker{file: source}
	root := c.document(data, "config", configHint)
	if root == nil {
		return nil, c.err()
	}
	cfg := c.config(root)
	if err := c.err(); err != nil {
		return nil, err
	}
	cfg.Source = source
	cfg.Warnings = c.allWarnings()
	applyConfigDefaults(cfg)
	return cfg, nil
}

// LoadFile reads and parses a config file.
func LoadFile(name string) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(data, name)
}

// LoadFS reads and parses a config from fsys. The config's Source is
// "bundled:NAME" where NAME is the file name without extension.
func LoadFS(fsys fs.FS, name string) (*Config, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return Parse(data, "bundled:"+strings.TrimSuffix(path.Base(name), path.Ext(name)))
}

// IsPath reports whether a config reference names a file (it contains "/"
// or ends in .yaml or .yml) rather than a bundled config.
func IsPath(ref string) bool {
	return strings.Contains(ref, "/") || strings.HasSuffix(ref, ".yaml") || strings.HasSuffix(ref, ".yml")
}

// LoadRef loads the config a command-line reference names: a file when
// [IsPath] says so, else the bundled config NAME.yaml in bundled. An unknown
// bare name gives a [*NotFoundError].
func LoadRef(ref string, bundled fs.FS) (*Config, error) {
	if IsPath(ref) {
		return LoadFile(ref)
	}
	if bundled == nil {
		return nil, &NotFoundError{Ref: ref, Bundled: []string{}}
	}
	c, err := LoadFS(bundled, ref+".yaml")
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
		names, _ := BundledNames(bundled)
		return nil, &NotFoundError{Ref: ref, Bundled: names}
	}
	return c, err
}

// BundledNames returns the names of the configs in bundled (file names of
// its top-level .yaml files without the extension), sorted.
func BundledNames(bundled fs.FS) ([]string, error) {
	matches, err := fs.Glob(bundled, "*.yaml")
	if err != nil {
		return nil, err
	}
	names := make([]string, len(matches))
	for i, m := range matches {
		names[i] = strings.TrimSuffix(m, ".yaml")
	}
	return names, nil
}

// ParsePolicy decodes and validates a policy from YAML. source names the
// data in errors and becomes Policy.Source.
//
// Like [Parse] it reports every problem with its position: unknown keys,
// wrong types, an unknown executor type or default, a docker executor
// without an image, docker-only settings (runtime, image, volumes,
// working_dir, network, user, cap_add, no_new_privileges, read_only_root,
// pids_limit, memory, cpus) without type: docker, a container setting
// that is not valid for docker and podman, a pattern that is not a valid Go regular
// expression on its own, min greater than max, min_items or max_items that
// is not a whole number of 0 or more, and min_items greater than max_items.
// Its limits are Parse's. A tool listed with no settings
// (git_status: or git_status: {}) is enabled without overrides. Tool and
// arg names are not checked here: [New] warns about those no config
// defines. On success Default is [PolicyDisabled] and Executor.Type
// [ExecutorLocal] unless set, Executor.PolicyDir is the absolute directory
// of source, and Tools is never nil.
func ParsePolicy(data []byte, source string) (*Policy, error) {
	c := &checker{file: source}
	root := c.document(data, "policy", policyHint)
	if root == nil {
		return nil, c.err()
	}
	p := c.policy(root)
	if err := c.err(); err != nil {
		return nil, err
	}
	p.Source = source
	p.Executor.PolicyDir = policyDir(source)
	if p.Default == "" {
		p.Default = PolicyDisabled
	}
	if p.Executor.Type == "" {
		p.Executor.Type = ExecutorLocal
	}
	return p, nil
}

// LoadPolicyFile reads and parses a policy file.
func LoadPolicyFile(name string) (*Policy, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return ParsePolicy(data, name)
}
