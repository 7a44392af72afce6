package config

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// ResolvedTool is a tool ready to run: its definition (with the policy's
// description override applied), the CLI it belongs to, and the policy's
// argument constraints and executor.
type ResolvedTool struct {
	// Tool is the tool's definition; Description is the policy's when the
	// policy overrides it.
	Tool *Tool
	// CLI is the config the tool comes from: base command, env, working
	// dir, global args.
	CLI *Config
	// Constraints holds the policy's constraints by argument name; nil
	// when the policy sets none for this tool (or there is no policy).
	Constraints map[string]*ArgConstraint
	// Patterns holds the pattern of every argument whose definition has
	// one (Arg.Pattern), by argument name; nil when none has.
	Patterns map[string]*Pattern
	// Executor is the policy's executor; the zero value runs locally.
	Executor Executor
	// Confirm is set when every call of the tool needs the user's approval
	// before it runs: the policy's confirm setting for the tool, else its
	// confirm rule ([ConfirmRule.Covers]).
	Confirm bool
	// Headless is the policy's approval.headless: what a call that needs
	// approval does when nobody can be asked ([HeadlessDeny],
	// [HeadlessApprove], or "" when the policy does not say).
	Headless string
	// Schema is the tool's input schema as JSON. Apply leaves it nil; the
	// search index marshals it once when it is built (index.New), while
	// it builds the search part alongside.
	Schema json.RawMessage
}

// A Pattern is an argument's pattern, anchored to match the whole value
// (see wholeMatch). It is compiled at its first match: a start with every
// bundled config would otherwise compile them all, about 0.3 ms, for
// tools it may never call.
type Pattern struct {
	compile func() (*regexp.Regexp, error)
}

// newPattern returns the pattern of expr, which must parse.
func newPattern(expr string) *Pattern {
	return &Pattern{compile: sync.OnceValues(func() (*regexp.Regexp, error) { return wholeMatch(expr) })}
}

// MatchString reports whether s matches the whole pattern; false when
// the pattern does not compile, which [Apply] rules out for patterns that
// do not parse.
func (p *Pattern) MatchString(s string) bool {
	re, err := p.compile()
	return err == nil && re.MatchString(s)
}

// ArgConstraint is a policy [Constraint] ready to check values against.
type ArgConstraint struct {
	Constraint
	re *regexp.Regexp // Pattern anchored to match the whole value; nil without a pattern
}

// wholeMatch compiles a policy pattern so that it must match the whole
// value (docs/config.md, Policies). The pattern is parsed on its own, as
// regexp.Compile would, and the parsed expression is anchored at both ends:
// no text in the pattern (an unbalanced ")" as in "safe)|(.*", a "\Q"
// without "\E") can reach past the anchors, and an alternation must match
// the whole value with one of its alternatives.
func wholeMatch(pattern string) (*regexp.Regexp, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(pattern, `\Q`) {
		// A pattern that parses alone has balanced groups and classes, so
		// its text wrapped in a group is the same expression, anchored.
		// (Printing the parse tree costs milliseconds for some patterns.)
		return regexp.Compile(`^(?:` + pattern + `)$`)
	}
	// \Q quotes up to \E or the end of the pattern, so that text after
	// it would be quoted too: anchor the parse tree instead.
	anchored := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
		{Op: syntax.OpBeginText}, re, {Op: syntax.OpEndText},
	}}
	return regexp.Compile(anchored.String())
}

// MatchString reports whether s satisfies the constraint's pattern (true
// when there is none).
func (c *ArgConstraint) MatchString(s string) bool {
	return c.re == nil || c.re.MatchString(s)
}

// A ToolSet is what exists once a policy is applied to loaded configs: the
// enabled tools and the CLIs they come from, in load order.
type ToolSet struct {
	// Tools are the enabled tools in load order.
	Tools []*ResolvedTool
	// CLIs are the configs that still exist: every config with at least
	// one enabled tool, and every config that defines no tools. A config
	// whose tools the policy all disables is left out.
	CLIs []EnabledCLI
	// Defined holds every tool of the configs by name, enabled or not:
	// what a caller may name although it is not served (the audit log
	// redacts the secret arguments of such calls too).
	Defined map[string]*Tool
}

// EnabledCLI is a loaded config and how many of its tools the policy left
// enabled.
type EnabledCLI struct {
	Config  *Config
	Enabled int
}

// Apply applies policy (which may be nil: every tool enabled, no
// constraints) to configs, in order. Problems in the policy that leave it
// usable — unknown tool or argument names, a pattern on a boolean arg —
// are returned as warnings with the policy file's positions. Two configs
// defining the same tool name is an error naming both sources. min or max
// on an arg that is not an integer or number is a [*LoadError] with the
// policy's positions: the value passed on would be the caller's text, not
// the number checked.
func Apply(configs []*Config, policy *Policy) (*ToolSet, []Problem, error) {
	set := &ToolSet{}
	known := map[string]*Tool{}
	owner := map[string]*Config{} // tool name -> the config defining it
	for _, c := range configs {
		if c == nil {
			continue
		}
		enabled := 0
		for i := range c.Tools {
			t := &c.Tools[i]
			// Checked for every tool, enabled or not: a policy must not
			// decide whether two configs conflict.
			if prev, ok := owner[t.Name]; ok {
				if prev == c {
					return nil, nil, fmt.Errorf("tool %q is defined twice in %s", t.Name, sourceName(c))
				}
				return nil, nil, fmt.Errorf("tool %q is defined in both %s and %s: rename one or load only one of them", t.Name, sourceName(prev), sourceName(c))
			}
			owner[t.Name] = c
			known[t.Name] = t
			rt, ok, err := resolve(t, c, policy)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				continue
			}
			set.Tools = append(set.Tools, rt)
			enabled++
		}
		if enabled > 0 || len(c.Tools) == 0 {
			set.CLIs = append(set.CLIs, EnabledCLI{Config: c, Enabled: enabled})
		}
	}
	set.Defined = known
	var warnings []Problem
	if policy != nil {
		var err error
		if warnings, err = policyProblems(policy, known); err != nil {
			return nil, nil, err
		}
	}
	return set, warnings, nil
}

// resolve applies policy to one tool. It reports false when the policy
// disables the tool.
func resolve(t *Tool, c *Config, policy *Policy) (*ResolvedTool, bool, error) {
	rt := &ResolvedTool{Tool: t, CLI: c}
	for _, a := range t.Args {
		if a.Pattern == "" {
			continue
		}
		// Parsing finds what compiling would refuse, at a fraction of its
		// cost (the loader has already compiled the patterns of the files
		// it read).
		if _, err := syntax.Parse(a.Pattern, syntax.Perl); err != nil {
			return nil, false, fmt.Errorf("%s: tool %s, arg %s: invalid pattern %s: %w", sourceName(c), t.Name, a.Name, quote(a.Pattern), err)
		}
		if rt.Patterns == nil {
			rt.Patterns = map[string]*Pattern{}
		}
		rt.Patterns[a.Name] = newPattern(a.Pattern)
	}
	if policy == nil {
		rt.Confirm = ConfirmRule("").For(t).Covers(t)
		return rt, true, nil
	}
	rt.Executor = policy.Executor
	if policy.readOnly() && !t.IsReadOnly() {
		return nil, false, nil
	}
	tp, listed := policy.Tools[t.Name]
	if !listed && policy.Default != PolicyEnabled && policy.Default != PolicyReadOnly {
		return nil, false, nil
	}
	rt.Confirm = policy.Confirm.For(t).Covers(t)
	if tp.Confirm != nil {
		rt.Confirm = *tp.Confirm
	} else if b, ok := policy.Approval.Tools[t.Name]; ok {
		rt.Confirm = b
	}
	rt.Headless = policy.Approval.Headless
	if tp.Description != "" {
		override := *t
		override.Description = tp.Description
		rt.Tool = &override
	}
	for name, con := range tp.Args {
		if t.Arg(name) == nil {
			continue // warned about by policyWarnings
		}
		ac := &ArgConstraint{Constraint: con}
		if con.Pattern != "" {
			re, err := wholeMatch(con.Pattern)
			if err != nil {
				return nil, false, fmt.Errorf("%s: tool %s, arg %s: invalid pattern %s: %s", policy.Source, t.Name, name, quote(con.Pattern), patternError(err))
			}
			ac.re = re
		}
		if rt.Constraints == nil {
			rt.Constraints = map[string]*ArgConstraint{}
		}
		rt.Constraints[name] = ac
	}
	return rt, true, nil
}

// readOnly reports whether the policy keeps only read-only tools.
func (p *Policy) readOnly() bool { return p.ReadOnly || p.Default == PolicyReadOnly }

// ReadOnlyPolicy returns the policy that keeps, of what p enables, only
// the tools annotated read_only: a copy of p with ReadOnly set, or, when
// p is nil, a policy that enables every read-only tool (climax
// --read-only).
func ReadOnlyPolicy(p *Policy) *Policy {
	if p == nil {
		return &Policy{Default: PolicyEnabled, ReadOnly: true, Executor: Executor{Type: ExecutorLocal}, Tools: map[string]ToolPolicy{}}
	}
	c := *p
	c.ReadOnly = true
	return &c
}

// sourceName names a config in messages: its source, else its name.
func sourceName(c *Config) string {
	if c.Source != "" {
		return c.Source
	}
	return "config " + quote(c.Name)
}

// Arg returns the tool's argument with this name, or nil.
func (t *Tool) Arg(name string) *Arg {
	for i := range t.Args {
		if t.Args[i].Name == name {
			return &t.Args[i]
		}
	}
	return nil
}

// policyProblems returns as warnings the tools and args a policy mentions
// that no config defines and patterns on boolean args, and as a
// *LoadError the bounds on args that are not numbers.
func policyProblems(p *Policy, known map[string]*Tool) ([]Problem, error) {
	var out []Problem
	warn := func(pos Pos, format string, args ...any) {
		out = append(out, Problem{File: p.Source, Line: pos.Line, Column: pos.Column, Message: fmt.Sprintf(format, args...)})
	}
	errs := &checker{file: p.Source}
	for _, name := range sortedKeys(p.Tools) {
		tp := p.Tools[name]
		t, ok := known[name]
		if !ok {
			msg := fmt.Sprintf("policy names unknown tool %s; ignored", quote(name))
			if s := suggest(name, sortedKeys(known)); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
			}
			warn(tp.Pos, "%s", msg)
			continue
		}
		if p.readOnly() && !t.IsReadOnly() {
			why := "default: read_only"
			if p.ReadOnly {
				why = "--read-only"
			}
			warn(tp.Pos, "policy lists tool %s, which is not annotated read_only: %s leaves it out", quote(name), why)
		}
		var argNames []string
		for _, a := range t.Args {
			argNames = append(argNames, a.Name)
		}
		for _, an := range sortedKeys(tp.Args) {
			con := tp.Args[an]
			a := t.Arg(an)
			if a == nil {
				msg := fmt.Sprintf("policy for tool %s names unknown arg %s; ignored", quote(name), quote(an))
				if s := suggest(an, argNames); s != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
				}
				warn(con.Pos, "%s", msg)
				continue
			}
			it := cmp.Or(a.ItemType(), TypeString)
			numeric := it == TypeInteger || it == TypeNumber
			bad := func(format string, args ...any) {
				errs.add(Problem{File: p.Source, Line: con.Pos.Line, Column: con.Pos.Column, Message: fmt.Sprintf(format, args...)})
			}
			switch {
			case (con.Min != nil || con.Max != nil) && !numeric && a.Type == TypeArray:
				bad("policy for tool %s: arg %s is an array of %s: min and max only apply to integer and number values; remove them, or make the items integer or number in the config", quote(name), quote(an), it)
			case (con.Min != nil || con.Max != nil) && !numeric:
				bad("policy for tool %s: arg %s is %s: min and max only apply to integer and number args; remove them, or make the arg an integer or number in the config", quote(name), quote(an), withArticle(it))
			}
			if (con.MinItems != nil || con.MaxItems != nil) && a.Type != TypeArray {
				bad("policy for tool %s: arg %s is %s: min_items and max_items only apply to array args; remove them, or make the arg an array in the config", quote(name), quote(an), withArticle(it))
			}
			if con.Pattern != "" && a.Type == TypeBoolean {
				warn(con.Pos, "policy for tool %s: arg %s is a boolean; a pattern does not apply to it", quote(name), quote(an))
			}
		}
	}
	for _, name := range sortedKeys(p.Approval.Tools) {
		if _, ok := known[name]; !ok {
			msg := fmt.Sprintf("approval.tools names unknown tool %s; ignored", quote(name))
			if s := suggest(name, sortedKeys(known)); s != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(s))
			}
			warn(p.Approval.pos[name], "%s", msg)
		}
	}
	return out, errs.err()
}

// withArticle returns "a string", "an integer": the type with its article.
func withArticle(t ArgType) string {
	if strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + string(t)
	}
	return "a " + string(t)
}
