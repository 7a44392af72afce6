package config

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// This file checks the keys of a tool that shape its approval question,
// in the form CLImax 0.5 configs give them: risk, confirm_message and
// resolve (docs/config.md, Risk, confirmation messages and resolvers).

var (
	riskLevels   = []string{string(RiskRead), string(RiskWrite), string(RiskDestructive)}
	resolverKeys = []string{"command", "args", "timeout"}
)

// riskAliases maps words other tools use for risk levels to the level
// meant, for did-you-mean hints.
var riskAliases = map[string]string{
	"low": "read", "readonly": "read", "read_only": "read", "read-only": "read", "safe": "read", "none": "read",
	"medium": "write", "mutating": "write", "modify": "write", "update": "write",
	"high": "destructive", "critical": "destructive", "dangerous": "destructive", "danger": "destructive", "delete": "destructive",
}

// risk checks a tool's risk and applies it to the annotations, which it
// must agree with where both are given.
func (c *checker) risk(o *object, ctx string, t *Tool) {
	f, ok := o.get("risk")
	if !ok {
		return
	}
	s, isStr := scalarString(f.val())
	switch {
	case !isStr:
		c.report(f.value, ctx, "risk: expected one of %s, got %s", strings.Join(riskLevels, ", "), describe(f.val()))
		return
	case !slices.Contains(riskLevels, s):
		c.report(f.value, ctx, "unknown risk %s%s: valid levels are %s", quote(s), riskSuggestion(s), strings.Join(riskLevels, ", "))
		return
	}
	t.Risk = Risk(s)
	readOnly, destructive := s == string(RiskRead), s == string(RiskDestructive)
	conflict := func(key string, want bool) {
		c.report(o.at(key), ctx, "risk: %s means %s: %v, but the tool says %s: %v; remove one of them", s, key, want, key, !want)
	}
	if t.ReadOnly != nil && *t.ReadOnly != readOnly {
		conflict("read_only", readOnly)
	}
	// A read-only tool's destructive annotation means nothing to MCP;
	// only its contradiction (destructive: true) is an error.
	if t.Destructive != nil && *t.Destructive != destructive && (!readOnly || *t.Destructive) {
		conflict("destructive", destructive)
	}
	t.ReadOnly = &readOnly
	if !readOnly {
		t.Destructive = &destructive
	}
}

// riskSuggestion returns " (did you mean "L"?)" for the risk level that
// an unknown level s stands for, or "".
func riskSuggestion(s string) string {
	sug := riskAliases[strings.ToLower(strings.TrimSpace(s))]
	if sug == "" {
		sug = suggest(strings.ToLower(s), riskLevels)
	}
	if sug == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", quote(sug))
}

// resolvers checks a tool's resolve mapping: each variable's command,
// flags and timeout. It runs after the args are known, which the flags'
// templates name.
func (c *checker) resolvers(o *object, ctx string, t *Tool) {
	f, ok := o.get("resolve")
	if !ok {
		return
	}
	v := f.val()
	if v.Kind != yaml.MappingNode {
		c.report(f.value, ctx, "resolve: expected a mapping of variable names to resolvers (_name: {command: ..., args: {...}}), got %s", describe(v))
		return
	}
	argNames := make([]string, len(t.Args))
	for i, a := range t.Args {
		argNames[i] = a.Name
	}
	for _, rf := range c.pairs(v, ctx+": resolve") {
		rctx := fmt.Sprintf("%s: resolve %s", ctx, quote(rf.name))
		if !validToolName.MatchString(rf.name) {
			c.report(rf.key, rctx, "invalid variable name: use letters, digits, \"_\", \"-\" or \".\" (e.g. _bucket)")
			continue
		}
		if t.Arg(rf.name) != nil {
			c.report(rf.key, rctx, "an arg has this name, so {%s} in confirm_message would be ambiguous: rename the variable (e.g. _%s)", rf.name, rf.name)
			continue
		}
		ro := c.object(rf.value, rctx, resolverKeys)
		if ro == nil {
			continue
		}
		r := Resolver{Var: rf.name, Line: deref(rf.value).Line, Timeout: DefaultResolveTimeout}
		if r.Line == 0 {
			r.Line = rf.key.Line
		}
		if !ro.has("command") {
			c.report(rf.key, rctx, "missing \"command\": add the subcommand that prints the value, appended to the CLI's command as a tool's is (e.g. command: s3api get-bucket-location)")
		} else if r.Command = ro.str("command"); strings.TrimSpace(r.Command) == "" {
			c.report(ro.at("command"), rctx, "command is empty: add the subcommand that prints the value")
		}
		if x, ok := ro.seconds("timeout"); ok {
			switch {
			case x <= 0:
				c.report(ro.at("timeout"), rctx, "timeout must be more than 0 seconds, got %v", x)
			case x < MinTimeout:
				c.report(ro.at("timeout"), rctx, "timeout must be at least %v seconds (1 ms), got %v", MinTimeout, x)
			case x > MaxTimeout:
				c.report(ro.at("timeout"), rctx, "timeout must be at most %v seconds (one year), got %v", MaxTimeout, x)
			default:
				r.Timeout = x
			}
		}
		if af, ok := ro.get("args"); ok {
			r.Flags = c.resolverFlags(af, rctx, argNames)
		}
		t.Resolve = append(t.Resolve, r)
	}
}

// resolverFlags checks a resolver's args: a mapping of flags to value
// templates naming the tool's args. A flag without a leading "-" is
// written as CLImax 0.5 writes it: "--" and the name with "_" as "-".
func (c *checker) resolverFlags(af field, ctx string, argNames []string) []ResolverFlag {
	v := af.val()
	if v.Kind != yaml.MappingNode {
		c.report(af.value, ctx, "args: expected a mapping of flags to values (id: \"{bucket_id}\"), got %s", describe(v))
		return nil
	}
	var flags []ResolverFlag
	for _, ff := range c.pairs(v, ctx+": args") {
		flag := strings.TrimSpace(ff.name)
		if flag == "" || strings.Trim(flag, "-") == "" {
			c.report(ff.key, ctx, "args: empty flag: name the option, e.g. id (passed as --id)")
			continue
		}
		if !strings.HasPrefix(flag, "-") {
			flag = "--" + strings.ReplaceAll(flag, "_", "-")
		}
		val := deref(ff.value)
		s, ok := scalarString(val)
		if !ok || isNull(val) {
			c.report(ff.value, ctx, "args: %s: expected a value template such as \"{id}\", got %s", quote(ff.name), describe(val))
			continue
		}
		parts, err := ParseTemplate(s)
		if err != nil {
			c.report(ff.value, ctx, "args: %s: %v", quote(ff.name), err)
			continue
		}
		for _, p := range parts {
			if p.Var != "" && !slices.Contains(argNames, p.Var) {
				c.report(ff.value, ctx, "args: %s: {%s} is not an arg of the tool%s", quote(ff.name), p.Var, nameSuggestion(p.Var, argNames, "args"))
			}
		}
		flags = append(flags, ResolverFlag{Flag: flag, Value: s})
	}
	return flags
}

// confirmMessage checks a tool's confirm_message: every {name} in it is
// one of the tool's args or resolver variables.
func (c *checker) confirmMessage(o *object, ctx string, t *Tool) {
	f, ok := o.get("confirm_message")
	if !ok {
		if len(t.Resolve) > 0 {
			c.report(o.at("resolve"), ctx, "resolve has no use without a confirm_message that names its variables (e.g. confirm_message: \"Delete {%s}?\")", t.Resolve[0].Var)
		}
		return
	}
	s := o.str("confirm_message")
	if !isStringScalar(f.val()) {
		return
	}
	if strings.TrimSpace(s) == "" {
		c.report(f.value, ctx, "confirm_message is empty: remove it to ask the generic question, or write the question, e.g. \"Delete {path}?\"")
		return
	}
	parts, err := ParseTemplate(s)
	if err != nil {
		c.report(f.value, ctx, "confirm_message: %v", err)
		return
	}
	var names []string
	for _, a := range t.Args {
		names = append(names, a.Name)
	}
	for _, r := range t.Resolve {
		names = append(names, r.Var)
	}
	for _, p := range parts {
		if p.Var != "" && !slices.Contains(names, p.Var) {
			c.report(f.value, ctx, "confirm_message: {%s} is neither an arg of the tool nor a resolve variable%s", p.Var, nameSuggestion(p.Var, names, "names"))
		}
	}
	t.ConfirmMessage = s
}

// nameSuggestion returns " (did you mean {N}?)" for the name among names
// closest to s, else the list of names (what), or "".
func nameSuggestion(s string, names []string, what string) string {
	if sug := suggest(s, names); sug != "" {
		return fmt.Sprintf(" (did you mean {%s}?)", sug)
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (its %s: %s)", what, clip(strings.Join(names, ", "), maxQuoted))
}

// TemplatePart is a piece of a confirm message or resolver value
// template: literal text, or the variable Var.
type TemplatePart struct {
	Text string
	Var  string
}

// ParseTemplate splits a template into text and {name} variables, as
// confirm_message and resolver args write them: "{{" and "}}" stand for
// literal braces; a name is letters, digits, "_", "-" or ".".
func ParseTemplate(s string) ([]TemplatePart, error) {
	var parts []TemplatePart
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			parts = append(parts, TemplatePart{Text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '{' && i+1 < len(s) && s[i+1] == '{', ch == '}' && i+1 < len(s) && s[i+1] == '}':
			text.WriteByte(ch)
			i++
		case ch == '}':
			return nil, fmt.Errorf("a lone \"}\" at byte %d: write }} for a literal brace", i+1)
		case ch == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				return nil, fmt.Errorf("\"{\" at byte %d is not closed: write {name} for a value, or {{ for a literal brace", i+1)
			}
			name := s[i+1 : i+1+end]
			if name == "" || !validToolName.MatchString(name) {
				return nil, fmt.Errorf("%s is not a {name} placeholder: use an arg's name, or write {{ and }} for literal braces", quote("{"+name+"}"))
			}
			flush()
			parts = append(parts, TemplatePart{Var: name})
			i += end + 1
		default:
			text.WriteByte(ch)
		}
	}
	flush()
	return parts, nil
}
