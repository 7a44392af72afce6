// Package fig holds the Fig autocomplete specs (the npm package
// @withfig/autocomplete, MIT licence, see LICENSE.withfig) as data that
// climax scaffold reads when a program's own help says little, or when it
// must not run the program at all (--no-exec).
//
// The data is specs.zip, embedded in the binary: index.json names the
// package, its version and the file of each program, and each file is one
// program's command tree as compact JSON. figconvert (./figconvert)
// writes it from the npm package at a pinned version; the specs'
// functions (generators, custom loaders, dynamic specs) are dropped, and
// so are hidden and deprecated commands and options. Descriptions are cut
// to 200 characters. See docs/scaffold.md, "The Fig specs".
//
// Only the file of the program asked for is decompressed and decoded.
package fig

//go:generate go run ./figconvert -o specs.zip -license LICENSE.withfig

import (
	"archive/zip"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
)

//go:embed specs.zip
var specsZip []byte

// License is the licence text of @withfig/autocomplete, which its MIT
// licence asks to keep with copies of the data.
//
//go:embed LICENSE.withfig
var License string

// A Command is a program or one of its subcommands.
type Command struct {
	// Names are the command's name and then its aliases.
	Names       []string   `json:"n"`
	Description string     `json:"d,omitempty"`
	Subcommands []*Command `json:"s,omitempty"`
	Options     []*Option  `json:"o,omitempty"`
	Args        []*Arg     `json:"a,omitempty"`
}

// An Option is a flag of a command.
type Option struct {
	// Names are every form of the option ("-o", "--output").
	Names       []string `json:"n"`
	Description string   `json:"d,omitempty"`
	// Args are the option's values; none for a switch.
	Args       []*Arg `json:"a,omitempty"`
	Repeatable bool   `json:"r,omitempty"`
	Required   bool   `json:"q,omitempty"`
	// Persistent: the option holds for the command's subcommands too.
	Persistent bool `json:"p,omitempty"`
	// Joined: the value must be written --option=VALUE.
	Joined bool `json:"j,omitempty"`
}

// An Arg is an operand of a command or the value of an option.
type Arg struct {
	Name     string `json:"n,omitempty"`
	Optional bool   `json:"o,omitempty"`
	Variadic bool   `json:"v,omitempty"`
	// Suggestions are the values the spec offers, when they are fixed
	// strings (values a spec computes at run time are not kept).
	Suggestions []string `json:"s,omitempty"`
	// Open: the spec also completes values it computes or finds (files,
	// generated lists), so the suggestions are examples, not every value.
	Open bool `json:"g,omitempty"`
}

// Name is the command's own name.
func (c *Command) Name() string {
	if len(c.Names) == 0 {
		return ""
	}
	return c.Names[0]
}

// Find follows subcommand words (names or aliases) from c; nil when one
// is not a subcommand.
func (c *Command) Find(words ...string) *Command {
	n := c
	for _, w := range words {
		i := slices.IndexFunc(n.Subcommands, func(s *Command) bool { return slices.Contains(s.Names, w) })
		if i < 0 {
			return nil
		}
		n = n.Subcommands[i]
	}
	return n
}

// index is index.json, as figconvert writes it.
type index struct {
	Package string            `json:"package"`
	Version string            `json:"version"`
	Specs   map[string]string `json:"specs"`
}

type data struct {
	zip   *zip.Reader
	index index
}

var load = sync.OnceValues(func() (*data, error) {
	zr, err := zip.NewReader(bytes.NewReader(specsZip), int64(len(specsZip)))
	if err != nil {
		return nil, fmt.Errorf("the embedded Fig specs: %w", err)
	}
	d := &data{zip: zr}
	if err := d.decode("index.json", &d.index); err != nil {
		return nil, err
	}
	return d, nil
})

func (d *data) decode(name string, v any) error {
	f, err := d.zip.Open(name)
	if err != nil {
		return fmt.Errorf("the embedded Fig specs: %w", err)
	}
	defer f.Close()
	if err := json.NewDecoder(io.LimitReader(f, 256<<20)).Decode(v); err != nil {
		return fmt.Errorf("the embedded Fig specs, %s: %w", name, err)
	}
	return nil
}

// Package is the npm package and version the data was converted from
// ("@withfig/autocomplete@2.692.3").
func Package() string {
	d, err := load()
	if err != nil {
		return "@withfig/autocomplete"
	}
	return d.index.Package + "@" + d.index.Version
}

// Version is the version of @withfig/autocomplete the data was converted
// from.
func Version() string {
	d, err := load()
	if err != nil {
		return ""
	}
	return d.index.Version
}

// Programs lists the names that have a spec, sorted.
func Programs() []string {
	d, err := load()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(d.index.Specs))
	for n := range d.index.Specs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the spec of the program called name (a name, not a path:
// "git", "@capgo/cli"); ok is false when there is none. Each call decodes
// a fresh copy, which the caller may change. A program's name ending in
// ".exe" is looked up without it.
func Lookup(name string) (cmd *Command, ok bool, err error) {
	d, err := load()
	if err != nil {
		return nil, false, err
	}
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	file, ok := d.index.Specs[name]
	if !ok {
		return nil, false, nil
	}
	cmd = new(Command)
	if err := d.decode(file, cmd); err != nil {
		return nil, false, err
	}
	return cmd, true, nil
}
