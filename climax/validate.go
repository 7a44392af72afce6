package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// validateCmd checks configs and a policy without serving anything.
type validateCmd struct {
	Policy   string `help:"Policy file to check together with the configs." placeholder:"FILE" env:"CLIMAX_POLICY"`
	Format   string `help:"Output format: text or json (see README for the JSON structure)." enum:"text,json" default:"text" short:"f"`
	ReadOnly bool   `help:"${read_only_help}" env:"CLIMAX_READ_ONLY"`

	Configs []string `arg:"" name:"CONFIG" help:"Bundled config name (e.g. git) or path to a YAML config."`
}

// validateReport is the JSON output of 'climax validate --format json'.
// Its structure is documented in the README and kept stable.
type validateReport struct {
	// OK is true when no errors were found (warnings allowed).
	OK bool `json:"ok"`
	// Configs holds one entry per CONFIG argument, in order.
	Configs []configReport `json:"configs"`
	// Policy is the policy's report; null without --policy.
	Policy *policyReport `json:"policy"`
	// Errors are problems between configs, e.g. duplicate tool names.
	Errors []problem `json:"errors"`
	// ReadOnlyTools is, with --read-only and no errors, how many tools
	// remain (those annotated read_only that the policy enables).
	ReadOnlyTools *int `json:"read_only_tools,omitempty"`
}

type configReport struct {
	Ref      string    `json:"ref"`    // the argument as given
	Source   string    `json:"source"` // file path or bundled:NAME; "" when not found
	Name     string    `json:"name"`   // the config's name field; "" when not loaded
	OK       bool      `json:"ok"`
	Tools    int       `json:"tools"`
	Binary   string    `json:"binary"` // the program the config runs
	Errors   []problem `json:"errors"`
	Warnings []problem `json:"warnings"`

	omitted int // errors found beyond those listed (the last of Errors says how many)
}

type policyReport struct {
	File     string    `json:"file"`
	OK       bool      `json:"ok"`
	Errors   []problem `json:"errors"`
	Warnings []problem `json:"warnings"`

	omitted int // as in configReport
}

// problem is one error or warning; Line and Column are 0 when unknown.
type problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func (p problem) String() string {
	if p.File == "" {
		return p.Message
	}
	return config.Problem{File: p.File, Line: p.Line, Column: p.Column, Message: p.Message}.String()
}

// warning formats p as a warning: "file:line:column: warning: message".
func (p problem) warning() string {
	p.Message = "warning: " + p.Message
	return p.String()
}

// problemsOf turns a load error into problems, attributing errors without
// file information to file. When the loader listed only the first problems
// of a file, the last one says how many more there are.
func problemsOf(err error, file string) []problem {
	var le *config.LoadError
	if errors.As(err, &le) && len(le.Problems) > 0 {
		ps := make([]problem, len(le.Problems), len(le.Problems)+1)
		for i, p := range le.Problems {
			ps[i] = problem(p)
		}
		if le.Omitted > 0 {
			ps = append(ps, problem(le.OmittedProblem()))
		}
		return ps
	}
	return []problem{{File: file, Message: err.Error()}}
}

// errorCount is how many errors a report's Errors stand for: the ones listed
// and, instead of the line saying so, the ones left out.
func errorCount(errs []problem, omitted int) int {
	if omitted > 0 {
		return len(errs) - 1 + omitted
	}
	return len(errs)
}

// omittedOf returns how many problems a load error found beyond those it
// lists.
func omittedOf(err error) int {
	var le *config.LoadError
	if errors.As(err, &le) && len(le.Problems) > 0 {
		return le.Omitted
	}
	return 0
}

// Run checks every config, the policy and the tool names across configs,
// prints the report and fails with exit code 1 on any error, a missing
// file or an unknown config name included.
func (c *validateCmd) Run(e *env) error {
	e = e.forText()
	rep := validateReport{OK: true, Configs: []configReport{}, Errors: []problem{}}
	loaded := rep.loadConfigs(c.Configs)
	pol := rep.loadPolicy(c.Policy)
	rep.checkPrograms(loaded, pol)
	rep.checkToolNames(loaded)
	if rep.OK {
		rep.checkIndex(loaded, pol, c.ReadOnly)
	}

	if c.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printValidateText(e.stdout, &rep)
	}
	if !rep.OK {
		return &exitCodeError{exitError}
	}
	return nil
}

// loadConfigs loads every reference into a report entry and returns the
// configs that loaded, in the same order as their entries.
func (rep *validateReport) loadConfigs(refs []string) []*config.Config {
	var loaded []*config.Config
	for _, ref := range refs {
		cr := configReport{Ref: ref, Errors: []problem{}, Warnings: []problem{}}
		cfg, err := loadConfig(ref)
		if err != nil {
			cr.Errors, cr.omitted = problemsOf(err, ref), omittedOf(err)
			if len(cr.Errors) > 0 {
				cr.Source = cr.Errors[0].File
			}
			rep.Configs = append(rep.Configs, cr)
			rep.OK = false
			continue
		}
		cr.Source, cr.Name, cr.Tools, cr.OK = cfg.Source, cfg.Name, len(cfg.Tools), true
		for _, w := range cfg.Warnings {
			cr.Warnings = append(cr.Warnings, problem(w))
		}
		if words := executor.BaseCommand(cfg); len(words) > 0 {
			cr.Binary = words[0]
		}
		loaded = append(loaded, cfg)
		rep.Configs = append(rep.Configs, cr)
	}
	return loaded
}

// loadPolicy loads the policy file, if one is given, into the report; it
// returns nil without a usable policy.
func (rep *validateReport) loadPolicy(file string) *config.Policy {
	if file == "" {
		return nil
	}
	pr := &policyReport{File: file, OK: true, Errors: []problem{}, Warnings: []problem{}}
	rep.Policy = pr
	p, err := loadPolicy(file)
	if err != nil {
		pr.OK, rep.OK = false, false
		pr.Errors, pr.omitted = problemsOf(err, file), omittedOf(err)
		return nil
	}
	for _, w := range volumeWarnings(p) {
		pr.Warnings = append(pr.Warnings, problem(w))
	}
	return p
}

// checkPrograms warns about every config whose program cannot be found as
// a call would find it: a warning only, since the config may be meant for
// another machine. With the docker executor the program that must exist
// here is the container runtime itself (docker or podman), and a config
// whose env cannot be handed to a container is warned about too.
func (rep *validateReport) checkPrograms(loaded []*config.Config, pol *config.Policy) {
	bySource := make(map[string]*config.Config, len(loaded))
	for _, cfg := range loaded {
		bySource[cfg.Source] = cfg
	}
	for i := range rep.Configs {
		cr := &rep.Configs[i]
		if !cr.OK {
			continue
		}
		if cr.Binary == "" {
			cr.Warnings = append(cr.Warnings, problem{File: cr.Source, Message: "command is empty after expansion"})
			continue
		}
		bin, err := cr.Binary, error(nil)
		if pol != nil && pol.Executor.IsDocker() {
			bin = pol.Executor.Program()
			_, err = exec.LookPath(bin)
			if envErr := executor.CheckContainerEnv(bySource[cr.Source], &pol.Executor); envErr != nil {
				cr.Warnings = append(cr.Warnings, problem{File: cr.Source, Message: "every call will fail under the policy's docker executor: " + envErr.Error()})
			}
		} else {
			_, err = executor.FindProgram(bySource[cr.Source])
		}
		const why = "(a warning: the config may be meant for another machine)"
		switch {
		case err == nil:
		case errors.Is(err, exec.ErrNotFound):
			cr.Warnings = append(cr.Warnings, problem{File: cr.Source, Message: fmt.Sprintf("program %q is not on PATH %s", bin, why)})
		default: // a path: missing, or not an executable file
			cr.Warnings = append(cr.Warnings, problem{File: cr.Source, Message: fmt.Sprintf("program %q: %v %s", bin, err, why)})
		}
	}
}

// checkToolNames reports tool names defined by two configs.
func (rep *validateReport) checkToolNames(loaded []*config.Config) {
	seen := map[string]string{}
	for _, cfg := range loaded {
		for _, t := range cfg.Tools {
			if prev, ok := seen[t.Name]; ok && prev != cfg.Source {
				rep.Errors = append(rep.Errors, problem{File: cfg.Source, Line: t.Line,
					Message: fmt.Sprintf("tool %q is also defined in %s", t.Name, prev)})
				rep.OK = false
				continue
			}
			seen[t.Name] = cfg.Source
		}
	}
}

// checkIndex builds the index as run would, which checks what is left (a
// tool defined twice in one file) and gives the policy's warnings.
func (rep *validateReport) checkIndex(loaded []*config.Config, pol *config.Policy, readOnly bool) {
	ix, warnings, err := index.New(loaded, readOnlyPolicy(pol, readOnly))
	if err != nil {
		rep.OK = false
		// Problems in the policy file (constraints that cannot apply to
		// their args) belong to the policy's report.
		for _, p := range problemsOf(err, "") {
			if rep.Policy != nil && p.File == rep.Policy.File {
				rep.Policy.OK = false
				rep.Policy.Errors = append(rep.Policy.Errors, p)
			} else {
				rep.Errors = append(rep.Errors, p)
			}
		}
	} else if readOnly {
		n := ix.Len()
		rep.ReadOnlyTools = &n
	}
	if rep.Policy != nil {
		for _, w := range warnings {
			rep.Policy.Warnings = append(rep.Policy.Warnings, problem(w))
		}
	}
}

func printValidateText(w io.Writer, rep *validateReport) {
	for _, cr := range rep.Configs {
		for _, p := range cr.Errors {
			fmt.Fprintf(w, "%s\n", p)
		}
		for _, p := range cr.Warnings {
			fmt.Fprintf(w, "%s\n", p.warning())
		}
		if cr.OK {
			fmt.Fprintf(w, "ok  %s (%s): %d %s\n", cr.Name, cr.Source, cr.Tools, plural(cr.Tools, "tool", "tools"))
		} else {
			n := errorCount(cr.Errors, cr.omitted)
			fmt.Fprintf(w, "FAIL  %s: %d %s\n", cr.Ref, n, plural(n, "error", "errors"))
		}
	}
	if pr := rep.Policy; pr != nil {
		for _, p := range pr.Errors {
			fmt.Fprintf(w, "%s\n", p)
		}
		for _, p := range pr.Warnings {
			fmt.Fprintf(w, "%s\n", p.warning())
		}
		if pr.OK {
			fmt.Fprintf(w, "ok  policy %s\n", pr.File)
		} else {
			n := errorCount(pr.Errors, pr.omitted)
			fmt.Fprintf(w, "FAIL  policy %s: %d %s\n", pr.File, n, plural(n, "error", "errors"))
		}
	}
	for _, p := range rep.Errors {
		fmt.Fprintf(w, "%s\n", p)
	}
	if n := rep.ReadOnlyTools; n != nil {
		fmt.Fprintf(w, "read-only: %d %s annotated read_only %s\n", *n, plural(*n, "tool", "tools"), plural(*n, "remains", "remain"))
	}
	if !rep.OK {
		fmt.Fprintln(w, "validation failed")
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
