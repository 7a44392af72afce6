package config

import (
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// This file checks inherit_env, the list of the variables of climax's
// environment that a config's (or a tool's) commands keep
// (docs/config.md, Config fields).

// inheritEnv checks the inherit_env list of a config or tool: variable
// names, or a prefix followed by "*", each once. It returns nil when the
// key is absent (everything is inherited) and a non-nil list, perhaps
// empty, when it is given; nil too after reporting a problem, which fails
// the load anyway.
func (c *checker) inheritEnv(o *object, ctx string) []string {
	const key = "inherit_env"
	f, ok := o.fields[key]
	if !ok {
		return nil
	}
	v := f.val()
	switch {
	case isNull(v):
		// Absent means "everything": an empty value must not read as that
		// by accident, nor as "nothing" to the reader of a config.
		c.report(f.value, ctx, "inherit_env is empty: list the variables to keep, e.g. inherit_env: [PATH, HOME], write inherit_env: [] to keep none, or remove it to keep all")
		return nil
	case v.Kind != yaml.SequenceNode:
		hint := ""
		if s, ok := scalarString(v); ok && s == clip(s, maxQuoted) {
			hint = "; write inherit_env: [" + strings.Join(strings.Fields(s), ", ") + "]"
		}
		c.report(f.value, ctx, "inherit_env: expected a list of variable names, got %s%s", describe(v), hint)
		return nil
	}
	names := make([]string, 0, len(v.Content))
	first := map[string]int{}
	bad := false
	for _, item := range v.Content {
		ri := deref(item)
		s, ok := scalarString(ri)
		if !ok {
			c.report(item, ctx, "inherit_env: expected a variable name, got %s", describe(ri))
			bad = true
			continue
		}
		if msg := inheritNameProblem(s); msg != "" {
			c.report(item, ctx, "inherit_env: %s %s", quote(s), msg)
			bad = true
			continue
		}
		if line, dup := first[s]; dup {
			c.report(item, ctx, "inherit_env lists %s twice (first at line %d): remove one", quote(s), line)
			bad = true
			continue
		}
		first[s] = ri.Line
		names = append(names, s)
	}
	if bad {
		return nil
	}
	return names
}

// inheritNameProblem says what is wrong with an item of inherit_env, or ""
// when it is a variable name or a prefix followed by "*".
func inheritNameProblem(s string) string {
	name := strings.TrimSuffix(s, "*")
	switch {
	case s == "":
		return "is not a variable name: write a name such as PATH, or a prefix and \"*\" such as LC_*"
	case strings.ContainsRune(name, '*'):
		return "has a \"*\" before its end: only a trailing \"*\" is allowed, standing for any rest of a name (LC_*)"
	case strings.ContainsAny(s, "=\x00"):
		return "is not a variable name: a name has no \"=\""
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		return "is not a variable name: it holds a space; list each name on its own (inherit_env: [PATH, HOME])"
	case len(name) >= len(climaxPrefix) && strings.EqualFold(name[:len(climaxPrefix)], climaxPrefix):
		return "names climax's own settings, which commands never inherit: remove it (a value set in env is still given)"
	}
	return ""
}

// climaxPrefix starts the names of climax's own settings (CLIMAX_AUTH_TOKEN,
// CLIMAX_AUDIT_LOG...), which no command inherits, whatever inherit_env
// says.
const climaxPrefix = "CLIMAX_"
