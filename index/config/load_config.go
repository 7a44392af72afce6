package config

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The keys each level of a config accepts, in documentation order.
var (
	configKeys = []string{"name", "description", "command", "env", "inherit_env", "working_dir", "category", "tags", "global_args", "tools"}
	toolKeys   = []string{"name", "description", "keywords", "command", "args", "timeout", "max_output", "success_exit_codes", "exit_codes", "env", "inherit_env", "read_only", "destructive", "idempotent", "open_world", "risk", "confirm_message", "resolve"}
	argKeys    = []string{"name", "description", "type", "items", "required", "default", "flag", "positional", "enum", "stdin", "cwd", "allow_leading_dash", "after_double_dash", "secret", "pattern"}
	argTypes   = []string{string(TypeString), string(TypeInteger), string(TypeNumber), string(TypeBoolean), string(TypeArray), string(TypeJSON)}
	itemTypes  = []string{string(TypeString), string(TypeInteger), string(TypeNumber)}
)

// typeAliases maps type names of other languages to the arg type meant.
var typeAliases = map[string]string{
	"str": "string", "text": "string", "int": "integer", "long": "integer",
	"float": "number", "double": "number", "bool": "boolean",
	"list": "array", "slice": "array", "sequence": "array",
	"object": "json", "map": "json", "dict": "json", "any": "json",
}

// typeSuggestion returns " (did you mean "T"?)" for the type among valid
// that an unknown type name s stands for (an alias such as "int", or a
// misspelling), or "".
func typeSuggestion(s string, valid []string) string {
	sug := typeAliases[strings.ToLower(s)]
	if !slices.Contains(valid, sug) {
		sug = suggest(s, valid)
	}
	if sug == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", quote(sug))
}

// MaxTimeout is the largest tool timeout a config may set, in seconds (one year).
const MaxTimeout = 365 * 24 * 3600.0

// MinTimeout is the smallest tool timeout a config may set, in seconds (one
// millisecond): a smaller one would round to nothing.
const MinTimeout = 0.001

// validToolName matches MCP tool names: letters, digits, "_", "-" and ".",
// 1 to 128 characters.
var validToolName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// ValidToolName reports whether name is a valid MCP tool name: 1 to 128
// letters, digits, "_", "-" or ".".
func ValidToolName(name string) bool { return len(name) <= 128 && validToolName.MatchString(name) }

// ReservedToolNames are the names of the server's own tools, the
// meta-tools of discovery mode (package metatools): no config may use
// them, or a call of one would be ambiguous.
var ReservedToolNames = []string{"climax_search", "climax_call"}

const configHint = "a config needs at least command and tools"

// config checks a config document's root mapping and returns its content.
func (c *checker) config(root *yaml.Node) *Config {
	o := c.object(root, "", configKeys)
	cfg := &Config{
		Name:        o.str("name"),
		Description: o.str("description"),
		Command:     o.required("command", "the program to run, e.g. command: git"),
		Env:         o.stringMap("env"),
		WorkingDir:  o.str("working_dir"),
		Category:    o.str("category"),
		Tags:        o.strings("tags"),
	}
	cfg.InheritEnv = c.inheritEnv(o, "")
	if f, ok := o.fields["name"]; ok && !isNull(f.val()) && strings.TrimSpace(cfg.Name) == "" && isStringScalar(f.val()) {
		c.report(f.value, "", "name is empty: remove it or name the CLI, e.g. name: git")
	}
	if items, ok := o.list("global_args", "args"); ok {
		seen := map[string]*yaml.Node{}
		for i, item := range items {
			a, ok := c.arg(item, i, "global arg", seen)
			if !ok {
				continue
			}
			if a.Stdin || a.Cwd {
				c.report(item, argContext("global arg", a.Name, i), "stdin and cwd are not allowed in global_args; move the arg to a tool")
			}
			if a.Required {
				c.report(item, argContext("global arg", a.Name, i), "required is not allowed in global_args: callers cannot set them; give a default instead")
			}
			if a.AfterDoubleDash {
				c.report(item, argContext("global arg", a.Name, i), "after_double_dash is not allowed in global_args; move the arg to a tool")
			}
			cfg.GlobalArgs = append(cfg.GlobalArgs, a)
		}
	}
	if f, ok := o.fields["tools"]; !ok || isNull(f.val()) {
		c.report(root, "", "missing \"tools\": add a list of tools (tools: [] for none)")
	} else if items, ok := o.list("tools", "tools"); ok {
		cfg.Tools = make([]Tool, 0, len(items))
		seen := map[string]*yaml.Node{}
		for i, item := range items {
			if t, ok := c.tool(item, i, seen); ok {
				cfg.Tools = append(cfg.Tools, t)
			}
		}
	}
	return cfg
}

// isStringScalar reports whether n can stand for a string (for another
// type, a problem was reported already).
func isStringScalar(n *yaml.Node) bool {
	_, ok := scalarString(n)
	return ok
}

func toolContext(name string, i int) string {
	if name != "" {
		return "tool " + quote(name)
	}
	return fmt.Sprintf("tool #%d", i+1)
}

func argContext(kind, name string, i int) string {
	if name != "" {
		return kind + " " + quote(name)
	}
	return fmt.Sprintf("%s #%d", kind, i+1)
}

// entryName returns the scalar "name" of a mapping node, or "" when it has
// none, so that messages about an entry's other keys can name it.
func entryName(rn *yaml.Node) string {
	name := ""
	if rn.Kind == yaml.MappingNode {
		for j := 0; j+1 < len(rn.Content); j += 2 {
			if k, v := deref(rn.Content[j]), deref(rn.Content[j+1]); k.Value == "name" && v.Kind == yaml.ScalarNode && v.ShortTag() != "!!null" {
				name = v.Value
			}
		}
	}
	return name
}

// tool checks the i-th tool entry. seen maps tool names to the entry that
// first used them, to report duplicates.
func (c *checker) tool(n *yaml.Node, i int, seen map[string]*yaml.Node) (Tool, bool) {
	rn := deref(n)
	ctx := toolContext(entryName(rn), i) // names the tool in messages about its other keys
	o := c.object(n, ctx, toolKeys)
	if o == nil {
		return Tool{}, false
	}
	if isNull(rn) {
		c.report(n, ctx, "empty tool: give at least name and description")
		return Tool{}, false
	}
	t := Tool{
		Name:        o.required("name", "the MCP tool name, e.g. name: git_status"),
		Description: o.required("description", "a sentence telling the model what the tool does"),
		Keywords:    o.keywords("keywords"),
		Command:     o.str("command"),
		Env:         o.stringMap("env"),
		Line:        rn.Line,
	}
	c.toolName(o, ctx, t.Name, seen)
	if x, ok := o.seconds("timeout"); ok {
		switch {
		case x <= 0:
			c.report(o.at("timeout"), ctx, "timeout must be more than 0 seconds, got %v", x)
		case x < MinTimeout:
			c.report(o.at("timeout"), ctx, "timeout must be at least %v seconds (1 ms), got %v", MinTimeout, x)
		case x > MaxTimeout:
			c.report(o.at("timeout"), ctx, "timeout must be at most %v seconds (one year), got %v", MaxTimeout, x)
		default:
			t.Timeout = x
		}
	}
	if x, ok := o.integer("max_output"); ok {
		if x <= 0 {
			c.report(o.at("max_output"), ctx, "max_output must be more than 0 bytes, got %d", x)
		} else {
			t.MaxOutput = x
		}
	}
	t.SuccessExitCodes = c.exitCodes(o, ctx)
	t.ExitCodes = c.exitMeanings(o, ctx)
	t.InheritEnv = c.inheritEnv(o, ctx)
	c.annotations(o, ctx, &t)
	c.risk(o, ctx, &t)
	t.Args = c.toolArgs(o, ctx)
	c.resolvers(o, ctx, &t)
	c.confirmMessage(o, ctx, &t)
	return t, true
}

// toolName checks a tool's name: valid, not a meta-tool's, not taken by
// an earlier tool (seen).
func (c *checker) toolName(o *object, ctx, name string, seen map[string]*yaml.Node) {
	if name == "" {
		return
	}
	if !ValidToolName(name) {
		c.report(o.at("name"), ctx, "invalid tool name: use 1 to 128 letters, digits, \"_\", \"-\" or \".\" (e.g. git_status)")
	} else if slices.Contains(ReservedToolNames, name) {
		c.report(o.at("name"), ctx, "%s is the name of CLImax's own meta-tool: name the tool after its CLI and action (e.g. git_status)", name)
	}
	if first, dup := seen[name]; dup {
		c.report(o.at("name"), ctx, "another tool has this name (line %d): rename one", first.Line)
	} else {
		seen[name] = o.at("name")
	}
}

// toolArgs checks a tool's args: each arg, and at most one stdin and one
// cwd arg.
func (c *checker) toolArgs(o *object, ctx string) []Arg {
	items, ok := o.list("args", "args")
	if !ok {
		return nil
	}
	var args []Arg
	seenArgs := map[string]*yaml.Node{}
	var stdin, cwd *yaml.Node
	for j, item := range items {
		a, ok := c.arg(item, j, ctx+": arg", seenArgs)
		if !ok {
			continue
		}
		actx := argContext(ctx+": arg", a.Name, j)
		if a.Stdin {
			if stdin != nil {
				c.report(item, actx, "only one arg can be stdin (another is at line %d)", stdin.Line)
			}
			stdin = deref(item)
		}
		if a.Cwd {
			if cwd != nil {
				c.report(item, actx, "only one arg can be cwd (another is at line %d)", cwd.Line)
			}
			cwd = deref(item)
		}
		args = append(args, a)
	}
	return args
}

// argType reads an arg's type into a, and reports whether it is one the
// checks that depend on it can use.
func (c *checker) argType(o *object, ctx string, a *Arg) bool {
	ok := true
	if f, has := o.get("type"); has {
		s, _ := scalarString(f.val())
		switch {
		case f.val().Kind != yaml.ScalarNode || f.val().ShortTag() == "!!bool":
			hint := ""
			if f.val().Kind == yaml.SequenceNode {
				hint = "; for a list of values write type: array (and items: string, integer or number)"
			}
			c.report(f.value, ctx, "type: expected one of %s, got %s%s", strings.Join(argTypes, ", "), describe(f.val()), hint)
			ok = false
		case !slices.Contains(argTypes, s):
			c.report(f.value, ctx, "unknown type %s%s: valid types are %s", quote(s), typeSuggestion(s, argTypes), strings.Join(argTypes, ", "))
			ok = false
		default:
			a.Type = ArgType(s)
		}
	}
	return ok
}

// argPlacement checks where an arg goes: a flag, positional, stdin or cwd,
// each excluding some of the others. The forms CLImax 0.5 accepted load
// with its meaning and a warning: an empty flag is no flag; a positional
// arg's flag is ignored; a stdin or cwd arg's flag or positional: true is
// ignored. after_double_dash, which 0.5 did not have, is an error on a
// stdin or cwd arg.
func (c *checker) argPlacement(o *object, ctx string, a *Arg) {
	hasFlag := o.has("flag")
	if f, ok := o.get("flag"); ok && isStringScalar(f.val()) && strings.TrimSpace(a.Flag) == "" {
		if a.Positional || a.Stdin || a.Cwd || a.Name == "" {
			c.warn(f.value, ctx, "flag is empty, so it is ignored (as in CLImax 0.5): remove it")
		} else {
			c.warn(f.value, ctx, "flag is empty, so the arg goes on the command line as %s, as without a flag (as in CLImax 0.5): remove flag, or give the option", "--"+strings.ReplaceAll(a.Name, "_", "-"))
		}
		a.Flag, hasFlag = "", false
	}
	if a.Stdin && a.Cwd {
		c.report(o.at("cwd"), ctx, "an arg cannot be both stdin and cwd: remove one")
		return
	}
	if !a.Stdin && !a.Cwd {
		if a.Positional && hasFlag {
			c.warn(o.at("flag"), ctx, "flag is ignored: a positional arg goes on the command line without it (as in CLImax 0.5); remove flag, or remove positional to pass the value after the flag")
			a.Flag = ""
		}
		return
	}
	k := "stdin"
	if a.Cwd {
		k = "cwd"
	}
	if a.AfterDoubleDash {
		c.report(o.at("after_double_dash"), ctx, "a %s arg never goes on the command line: remove after_double_dash", k)
	}
	if a.Positional {
		c.warn(o.at("positional"), ctx, "positional is ignored: %s; remove positional", offCommandLine[k])
	}
	if hasFlag {
		c.warn(o.at("flag"), ctx, "flag is ignored: %s; remove flag", offCommandLine[k])
	}
	a.Positional, a.Flag = false, ""
}

// offCommandLine says, for a warning, where the value of a stdin or cwd
// arg goes instead of the command line.
var offCommandLine = map[string]string{
	"stdin": "a stdin arg is written to standard input and never goes on the command line (as in CLImax 0.5)",
	"cwd":   "a cwd arg sets the working directory and never goes on the command line (as in CLImax 0.5)",
}

// arg checks the i-th arg entry of a tool or of global_args. kind prefixes
// messages ("tool \"x\": arg", "global arg"); seen maps arg names to their
// first entry.
func (c *checker) arg(n *yaml.Node, i int, kind string, seen map[string]*yaml.Node) (Arg, bool) {
	rn := deref(n)
	ctx := argContext(kind, entryName(rn), i)
	o := c.object(n, ctx, argKeys)
	if o == nil {
		return Arg{}, false
	}
	if isNull(rn) {
		c.report(n, ctx, "empty arg: give at least a name")
		return Arg{}, false
	}
	a := Arg{
		Name:             o.required("name", "the argument's JSON property name, e.g. name: path"),
		Description:      o.str("description"),
		Required:         o.boolean("required"),
		Flag:             o.str("flag"),
		Positional:       o.boolean("positional"),
		Stdin:            o.boolean("stdin"),
		Cwd:              o.boolean("cwd"),
		AllowLeadingDash: o.boolean("allow_leading_dash"),
		Secret:           o.boolean("secret"),
		AfterDoubleDash:  o.boolean("after_double_dash"),
		Pattern:          o.str("pattern"),
	}
	if o.has("pattern") {
		if a.Pattern == "" {
			c.report(o.at("pattern"), ctx, "pattern is empty: remove it, or give a regular expression every value must match")
		} else if _, err := wholeMatch(a.Pattern); err != nil {
			c.report(o.at("pattern"), ctx, "pattern is not a valid Go regular expression (%s): fix it", err)
		}
	}
	if a.Name != "" && !validToolName.MatchString(a.Name) {
		// It is a JSON property name and, without flag, becomes "--NAME".
		c.report(o.at("name"), ctx, "invalid arg name: use letters, digits, \"_\", \"-\" or \".\" (e.g. max_count)")
	}
	if a.Name != "" {
		if first, dup := seen[a.Name]; dup {
			c.report(o.at("name"), ctx, "another arg has this name (line %d): rename one", first.Line)
		} else {
			seen[a.Name] = o.at("name")
		}
	}
	typeOK := c.argType(o, ctx, &a)
	if a.Type == "" {
		a.Type = TypeString
	}
	if !c.arrayFields(o, &a, ctx, typeOK) {
		typeOK = false
	}
	c.argPlacement(o, ctx, &a)
	if typeOK {
		if a.Type == TypeBoolean && a.Pattern != "" {
			c.report(o.at("pattern"), ctx, "pattern does not apply to a boolean arg (its values are true and false): remove it")
		}
		if a.Type == TypeJSON && a.Cwd {
			c.report(o.at("cwd"), ctx, "a cwd arg names a directory: remove type: json (its type is string)")
		}
		if f, ok := o.get("enum"); ok {
			a.Enum = c.enum(f, a.ItemType(), ctx)
		}
		if f, ok := o.get("default"); ok {
			switch a.Type {
			case TypeJSON:
				a.Default = c.jsonDefault(f, ctx)
			case TypeArray:
				a.Default = c.arrayDefault(f, &a, ctx, strings.HasPrefix(kind, "global"))
			default:
				a.Default = c.defaultValue(f, &a, ctx, strings.HasPrefix(kind, "global"))
			}
		}
	}
	return a, true
}

// isTrue reports whether key holds the boolean true, without reporting
// problems (boolean checked the value already).
func (o *object) isTrue(key string) bool {
	f, ok := o.get(key)
	if !ok {
		return false
	}
	v := f.val()
	return v.Kind == yaml.ScalarNode && v.ShortTag() == "!!bool" && strings.EqualFold(v.Value, "true")
}

// enum checks an arg's enum against its type.
func (c *checker) enum(f field, typ ArgType, ctx string) []string {
	v := f.val()
	if typ == TypeBoolean || typ == TypeJSON {
		c.report(f.value, ctx, "enum is not allowed on a %s arg: remove it", typ)
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		hint := ""
		if s, ok := scalarString(v); ok && s == clip(s, maxQuoted) {
			hint = fmt.Sprintf("; write enum: [%s]", s)
		}
		c.report(f.value, ctx, "enum: expected a list of allowed values, got %s%s", describe(v), hint)
		return nil
	}
	if len(v.Content) == 0 {
		c.report(f.value, ctx, "enum is empty: list the allowed values or remove it")
		return nil
	}
	out := make([]string, 0, len(v.Content))
	seen := map[string]bool{}
	for _, item := range v.Content {
		ri := deref(item)
		s, ok := scalarString(ri)
		if !ok {
			hint := ""
			if ri.Kind == yaml.ScalarNode && ri.ShortTag() == "!!bool" {
				hint = "; quote it: " + quote(ri.Value)
			}
			c.report(item, ctx, "enum: expected a string value, got %s%s", describe(ri), hint)
			continue
		}
		// A number is kept in the one form a call's value takes after
		// coercion ("+1" and "01" are 1, "1.0" and "1e0" are 1), which is
		// what calls are compared with and what the schema lists.
		switch typ {
		case TypeInteger:
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				c.report(item, ctx, "enum value %s is not an integer", quote(s))
				continue
			}
			s = strconv.FormatInt(n, 10)
		case TypeNumber:
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
				c.report(item, ctx, "enum value %s is not a finite number", quote(s))
				continue
			}
			s = FormatNumber(x)
		}
		if seen[s] {
			c.report(item, ctx, "enum lists %s twice: remove one", quote(s))
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// defaultValue checks an arg's default against its type and enum and
// returns it as the Go value of that type: string, int, float64 or bool.
func (c *checker) defaultValue(f field, a *Arg, ctx string, global bool) any {
	v := f.val()
	if v.Kind != yaml.ScalarNode {
		hint := ""
		if v.Kind == yaml.SequenceNode {
			hint = "; for several values use type: array"
		}
		c.report(f.value, ctx, "default must be a single %s value, got %s%s", a.Type, describe(v), hint)
		return nil
	}
	tag := v.ShortTag()
	bad := func() any {
		c.report(f.value, ctx, "default %s does not fit type %s", describe(v), a.Type)
		return nil
	}
	var val any
	switch a.Type {
	case TypeString:
		s, ok := scalarString(v)
		if !ok {
			c.report(f.value, ctx, "default %s does not fit type string; quote it: %s", describe(v), quote(v.Value))
			return nil
		}
		val = s
	case TypeInteger:
		switch tag {
		case "!!int":
			var i int
			if err := v.Decode(&i); err != nil {
				return bad()
			}
			val = i
		case "!!str":
			i, err := strconv.Atoi(strings.TrimSpace(v.Value))
			if err != nil {
				return bad()
			}
			val = i
		default:
			return bad()
		}
	case TypeNumber:
		var x float64
		switch tag {
		case "!!int", "!!float":
			x, _ = decodeNumber(v)
		case "!!str":
			var err error
			if x, err = strconv.ParseFloat(strings.TrimSpace(v.Value), 64); err != nil {
				return bad()
			}
		default:
			return bad()
		}
		if math.IsInf(x, 0) || math.IsNaN(x) {
			c.report(f.value, ctx, "default must be a finite number, got %s", clip(v.Value, maxQuoted))
			return nil
		}
		val = x
	case TypeBoolean:
		switch {
		case tag == "!!bool":
			val = strings.EqualFold(v.Value, "true")
		case tag == "!!str" && (strings.EqualFold(v.Value, "true") || strings.EqualFold(v.Value, "false")):
			val = strings.EqualFold(v.Value, "true")
		default:
			return bad()
		}
	}
	if len(a.Enum) > 0 && !(global && strings.Contains(v.Value, "$")) && !enumHas(a.Enum, val) {
		c.report(f.value, ctx, "default %s is not one of the enum values (%s)", quote(v.Value), clip(strings.Join(a.Enum, ", "), maxQuoted))
	}
	return val
}

// jsonDefault checks the default of a json arg: any YAML value that is
// also a JSON value (a mapping with string keys, a list, a string, a
// number, a boolean), returned as the Go value encoding/json would decode
// it into (maps, slices, strings, float64 or int, bool). (A null default
// is no default, for every type.)
func (c *checker) jsonDefault(f field, ctx string) any {
	var val any
	err := f.val().Decode(&val)
	if err == nil {
		_, err = json.Marshal(val)
	}
	if err != nil {
		c.report(f.value, ctx, "default is not a JSON value: write a mapping with string keys, a list, a string, a number or a boolean")
		return nil
	}
	return val
}

// enumHas reports whether v is among the enum values.
func enumHas(enum []string, v any) bool {
	for _, e := range enum {
		switch x := v.(type) {
		case string:
			if e == x {
				return true
			}
		case int:
			if n, err := strconv.Atoi(e); err == nil && n == x {
				return true
			}
		case float64:
			if n, err := strconv.ParseFloat(e, 64); err == nil && n == x {
				return true
			}
		}
	}
	return false
}

// applyConfigDefaults fills in the defaults of fields a config leaves out.
func applyConfigDefaults(c *Config) {
	if c.Name == "" {
		c.Name = DefaultCLIName
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	if c.Env == nil {
		c.Env = map[string]string{}
	}
	if c.Tools == nil {
		c.Tools = []Tool{}
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
