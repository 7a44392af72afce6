package index

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one thing wrong in a config or policy file.
type Problem struct {
	File    string
	Line    int // 1-based; 0 when unknown
	Column  int // 1-based; 0 when unknown
	Message string
}

func (p Problem) String() string {
	switch {
	case p.Line > 0 && p.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

// LoadError lists every problem found in one file.
type LoadError struct {
	File     string
	Problems []Problem
}

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// NotFoundError reports a config reference that is neither a file nor a
// bundled config.
type NotFoundError struct {
	Ref     string
	Bundled []string // the bundled names, sorted
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no config named %q: it is not a file and not a bundled config (bundled: %s)", e.Ref, strings.Join(e.Bundled, ", "))
}

// Parse decodes and validates a config from YAML. source names the data in
// errors and becomes Config.Source.
//
// STUB: to be replaced by the strict loader (foundation issue).
func Parse(data []byte, source string) (*Config, error) {
	var c Config
	if err := yaml.Unmarshal(data, &c); err != nil {
		return nil, &LoadError{File: source, Problems: []Problem{{File: source, Message: err.Error()}}}
	}
	c.Source = source
	applyConfigDefaults(&c)
	return &c, nil
}

func applyConfigDefaults(c *Config) {
	if c.Name == "" {
		c.Name = DefaultCLIName
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	for i := range c.Tools {
		t := &c.Tools[i]
		if t.Timeout == 0 {
			t.Timeout = DefaultTimeout
		}
		if t.MaxOutput == 0 {
			t.MaxOutput = DefaultMaxOutput
		}
		for j := range t.Args {
			if t.Args[j].Type == "" {
				t.Args[j].Type = TypeString
			}
		}
	}
	for j := range c.GlobalArgs {
		if c.GlobalArgs[j].Type == "" {
			c.GlobalArgs[j].Type = TypeString
		}
	}
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

// Resolve loads the config a command-line reference names: a file when
// [IsPath] says so, else the bundled config NAME.yaml in bundled. An unknown
// bare name gives a [*NotFoundError].
func Resolve(ref string, bundled fs.FS) (*Config, error) {
	if IsPath(ref) {
		return LoadFile(ref)
	}
	c, err := LoadFS(bundled, ref+".yaml")
	if err != nil {
		names, _ := BundledNames(bundled)
		return nil, &NotFoundError{Ref: ref, Bundled: names}
	}
	return c, nil
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

// ParsePolicy decodes and validates a policy from YAML.
//
// STUB: to be replaced by the strict loader (foundation issue).
func ParsePolicy(data []byte, source string) (*Policy, error) {
	var p Policy
	if err := yaml.Unmarshal(data, &p); err != nil {
		return nil, &LoadError{File: source, Problems: []Problem{{File: source, Message: err.Error()}}}
	}
	p.Source = source
	if p.Default == "" {
		p.Default = PolicyDisabled
	}
	if p.Executor.Type == "" {
		p.Executor.Type = ExecutorLocal
	}
	return &p, nil
}

// LoadPolicyFile reads and parses a policy file.
func LoadPolicyFile(name string) (*Policy, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return ParsePolicy(data, name)
}
