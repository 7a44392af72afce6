package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The keys each level of a policy accepts.
var (
	policyKeys     = []string{"executor", "default", "confirm", "approval", "tools"}
	approvalKeys   = []string{"global", "headless", "tools"}
	headlessRules  = []string{HeadlessDeny, HeadlessApprove}
	toolPolicyKeys = []string{"description", "confirm", "require_approval", "args"}
	constraintKeys = []string{"pattern", "min", "max", "min_items", "max_items"}
	policyDefaults = []string{PolicyDisabled, PolicyEnabled, PolicyReadOnly}
)

const policyHint = "a policy needs at least tools (the enabled tools) or default: enabled"

// policy checks a policy document's root mapping and returns its content.
func (c *checker) policy(root *yaml.Node) *Policy {
	o := c.object(root, "", policyKeys)
	p := &Policy{Tools: map[string]ToolPolicy{}}
	if f, ok := o.get("executor"); ok {
		p.Executor = c.executor(f.value)
	}
	if f, ok := o.get("default"); ok {
		s, _ := scalarString(f.val())
		switch {
		case slices.Contains(policyDefaults, s):
			p.Default = s
		default:
			msg := fmt.Sprintf("default: expected %s, %s or %s, got %s", PolicyEnabled, PolicyDisabled, PolicyReadOnly, describe(f.val()))
			if sug := suggest(s, policyDefaults); s != "" && sug != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(sug))
			}
			c.report(f.value, "", "%s", msg)
		}
	}
	if f, ok := o.get("confirm"); ok {
		s, isStr := scalarString(f.val())
		r, err := ParseConfirmRule(s)
		switch {
		case !isStr:
			c.report(f.value, "", "confirm: expected none, destructive, write or all, got %s (a tool's own entry takes confirm: true or false)", describe(f.val()))
		case err != nil:
			c.report(f.value, "", "confirm: %v", err)
		default:
			p.Confirm = r
		}
	}
	if f, ok := o.get("tools"); ok {
		v := f.val()
		if v.Kind != yaml.MappingNode {
			c.report(f.value, "", "tools: expected a mapping of tool names to settings (git_status: {}), got %s", describe(v))
		} else {
			for _, tf := range c.pairs(v, "tools") {
				p.Tools[tf.name] = c.toolPolicy(tf)
			}
		}
	}
	if f, ok := o.get("approval"); ok {
		c.approval(f, o, p)
	}
	return p
}

// approval checks the approval section (CLImax 0.5's form) and folds it
// into the policy: global into Confirm, where confirm: must agree with
// it; each tool's setting into the tool's entry under tools, whose
// confirm or require_approval must agree with it, or into Approval.Tools
// for a tool not listed there.
func (c *checker) approval(f field, root *object, p *Policy) {
	const ctx = "approval"
	o := c.object(f.value, ctx, approvalKeys)
	if o == nil {
		return
	}
	if g, ok := o.get("global"); ok {
		s, isStr := scalarString(g.val())
		r, err := ParseConfirmRule(s)
		switch {
		case !isStr:
			c.report(g.value, ctx, "global: expected none, destructive, write or all, got %s", describe(g.val()))
		case err != nil:
			c.report(g.value, ctx, "global: %v", err)
		case r == "":
			c.report(g.value, ctx, "global is empty: write none, destructive, write or all, or remove it")
		case root.has("confirm") && p.Confirm != "" && p.Confirm != r:
			c.report(g.value, ctx, "global: %s disagrees with confirm: %s (line %d), which is the same setting: remove one", r, p.Confirm, root.at("confirm").Line)
		default:
			p.Approval.Global = r
			p.Confirm = r
		}
	}
	if h, ok := o.get("headless"); ok {
		s, _ := scalarString(h.val())
		if slices.Contains(headlessRules, s) {
			p.Approval.Headless = s
		} else {
			msg := fmt.Sprintf("headless: expected deny or approve, got %s", describe(h.val()))
			if sug := suggest(s, headlessRules); s != "" && sug != "" {
				msg += fmt.Sprintf(" (did you mean %s?)", quote(sug))
			} else if s == "allow" {
				msg += " (did you mean \"approve\"?)"
			}
			c.report(h.value, ctx, "%s", msg)
		}
	}
	t, ok := o.get("tools")
	if !ok {
		return
	}
	if t.val().Kind != yaml.MappingNode {
		c.report(t.value, ctx, "tools: expected a mapping of tool names to true or false (git_push: true), got %s", describe(t.val()))
		return
	}
	for _, tf := range c.pairs(t.val(), ctx+": tools") {
		v := deref(tf.value)
		var b bool
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" || v.Decode(&b) != nil {
			c.report(tf.value, ctx+": tools", "%s: expected true or false, got %s", tf.name, describe(v))
			continue
		}
		tp, listed := p.Tools[tf.name]
		if !listed {
			if p.Approval.Tools == nil {
				p.Approval.Tools, p.Approval.pos = map[string]bool{}, map[string]Pos{}
			}
			p.Approval.Tools[tf.name] = b
			p.Approval.pos[tf.name] = Pos{tf.key.Line, tf.key.Column}
			continue
		}
		if tp.Confirm != nil && *tp.Confirm != b {
			c.report(tf.value, ctx+": tools", "%s: %v disagrees with the tool's own entry under tools (line %d), which says %v: remove one", tf.name, b, tp.Pos.Line, *tp.Confirm)
			continue
		}
		tp.Confirm = &b
		p.Tools[tf.name] = tp
	}
}

// toolPolicy checks one tool's entry under tools. A null entry enables the
// tool without overrides.
func (c *checker) toolPolicy(tf field) ToolPolicy {
	ctx := "tool " + quote(tf.name)
	pos := Pos{tf.key.Line, tf.key.Column}
	o := c.object(tf.value, ctx, toolPolicyKeys)
	if o == nil {
		return ToolPolicy{Pos: pos}
	}
	tp := ToolPolicy{Description: o.str("description"), Pos: pos}
	if o.has("description") && strings.TrimSpace(tp.Description) == "" {
		c.report(o.at("description"), ctx, "description is empty: remove it to keep the tool's own")
	}
	if o.has("confirm") {
		b := o.boolean("confirm")
		tp.Confirm = &b
	}
	if o.has("require_approval") {
		b := o.boolean("require_approval")
		tp.RequireApproval = &b
		if tp.Confirm != nil && *tp.Confirm != b {
			c.report(o.at("require_approval"), ctx, "require_approval: %v disagrees with confirm: %v, which is the same setting: remove one", b, *tp.Confirm)
		} else {
			tp.Confirm = &b
		}
	}
	if f, ok := o.get("args"); ok {
		v := f.val()
		if v.Kind != yaml.MappingNode {
			c.report(f.value, ctx, "args: expected a mapping of arg names to constraints (path: {pattern: ...}), got %s", describe(v))
			return tp
		}
		tp.Args = map[string]Constraint{}
		for _, af := range c.pairs(v, ctx+": args") {
			tp.Args[af.name] = c.constraint(af, ctx)
		}
	}
	return tp
}

// constraint checks one arg constraint.
func (c *checker) constraint(af field, toolCtx string) Constraint {
	ctx := fmt.Sprintf("%s: arg %s", toolCtx, quote(af.name))
	pos := Pos{af.key.Line, af.key.Column}
	o := c.object(af.value, ctx, constraintKeys)
	if o == nil {
		return Constraint{Pos: pos}
	}
	con := Constraint{Pattern: o.str("pattern"), Pos: pos}
	if o.has("pattern") {
		if con.Pattern == "" {
			// Left out, a pattern allows any value; written empty it
			// would seem to allow only the empty value.
			c.report(o.at("pattern"), ctx, "pattern is empty: remove it to allow any value, or write pattern: \"^$\" to allow only the empty value")
		} else if _, err := wholeMatch(con.Pattern); err != nil {
			c.report(o.at("pattern"), ctx, "pattern is not a valid Go regular expression (%s): fix it", patternError(err))
		}
	}
	if x, ok := o.number("min"); ok {
		con.Min = &x
	}
	if x, ok := o.number("max"); ok {
		con.Max = &x
	}
	if con.Min != nil && con.Max != nil && *con.Min > *con.Max {
		c.report(o.at("min"), ctx, "min (%v) is greater than max (%v): swap them", *con.Min, *con.Max)
	}
	for _, k := range []string{"min_items", "max_items"} {
		if x, ok := o.integer(k); ok {
			if x < 0 {
				c.report(o.at(k), ctx, "%s must be 0 or more, got %d", k, x)
				continue
			}
			if k == "min_items" {
				con.MinItems = &x
			} else {
				con.MaxItems = &x
			}
		}
	}
	if con.MinItems != nil && con.MaxItems != nil && *con.MinItems > *con.MaxItems {
		c.report(o.at("min_items"), ctx, "min_items (%d) is greater than max_items (%d): swap them", *con.MinItems, *con.MaxItems)
	}
	return con
}
