package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/climax-mcp/climax/index/config"
)

// ValidationError lists every problem found in a call's arguments. Its
// Error text is the one CLImax returns to the caller:
//
//	Argument validation failed:
//	  - Missing required argument 'message'
//	  - Argument 'count': cannot convert 'hello' to integer
type ValidationError struct {
	// Policy is set when the problems are policy constraint violations
	// ("Policy validation failed:"), clear for argument problems
	// ("Argument validation failed:").
	Policy bool
	// Problems holds one line per problem, without the "  - " prefix.
	Problems []string
}

// Error returns the heading and one "  - " line per problem.
func (e *ValidationError) Error() string {
	var b strings.Builder
	if e.Policy {
		b.WriteString("Policy validation failed:")
	} else {
		b.WriteString("Argument validation failed:")
	}
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p)
	}
	return b.String()
}

// Validate checks args against rt's argument definitions and policy
// constraints and returns the values to run with: every supplied value
// coerced to its argument's type (int64 for integer, float64 for number,
// bool for boolean, string for string, json.RawMessage (compact JSON
// text) for json, a []any of such item values for array), plus the config's default for every argument the caller left
// out. Keys that name no argument are ignored ([UnknownArgs] lists them);
// nil args means no arguments.
//
// The checks run in this order, each over every argument: required
// arguments present (a required array needs at least one item), type
// coercion, enum membership, safety (a positional value may not start
// with "-" unless the argument allows it or goes after "--"; no value
// except a stdin value may contain a NUL byte; a value must match the
// argument's own pattern, when its definition has one). An array's items are
// checked one by one. All problems found are reported together as one
// *[ValidationError]. Policy constraints (pattern, min, max for each
// value or item; min_items, max_items for an array) are checked only when
// all of that passed, and are reported as a *ValidationError with Policy
// set.
//
// The value of a cwd argument that is "~" or starts with "~/" is taken
// with the home directory in place of "~" (unless the tool runs in a
// docker executor, where the directory is inside the container), so that
// the policy checks the directory the command runs in.
//
// Accepted conversions: for integer, whole JSON numbers (42, 42.0) and
// decimal strings ("42", "-7", "42.0"), whole and within int64 decided
// from the digits, not through a float64; for number, any finite number
// and decimal strings ("3.14", "1e3"); for boolean, JSON booleans and the
// strings "true" and "false" (any case; "1", "0", "yes" are refused); for
// string, strings and numbers ("42", "3.5", exactly as sent, never
// exponent notation; refused beyond float64's range or when the plain
// form would take more than [MaxPlainNumber] characters), not booleans; for array, a JSON array whose items convert
// to the item type, or a single such value, taken as a one-item array;
// for json, any JSON value, as its compact JSON text (a string that holds
// a JSON object or array is that object or array). Other arrays, objects
// and null are refused.
func Validate(rt *config.ResolvedTool, args map[string]any) (map[string]any, error) {
	return validate(rt, args, false)
}

// validate is Validate; with strict set, argument names the tool does not
// have are problems too. Its steps are in order: required (and, strict,
// unknown) arguments, coercion with defaults, enums, the safety of
// supplied values, then, when all of that passed, the policy.
func validate(rt *config.ResolvedTool, args map[string]any, strict bool) (map[string]any, error) {
	if rt == nil || rt.Tool == nil {
		return nil, &ValidationError{Problems: []string{"No tool given"}}
	}
	t := rt.Tool
	problems := checkPresence(t, args, strict)
	values, supplied, more := coerceArgs(rt, args)
	problems = append(problems, more...)
	problems = append(problems, checkEnums(t, values, supplied)...)
	problems = append(problems, checkSafety(rt, values, supplied)...)
	if len(problems) > 0 {
		if !strict {
			// The call fails anyway: a misnamed argument is likely why
			// ("Missing required argument 'message'" for "mesage", or
			// for "text" on a tool whose arguments it lists).
			unknown, _ := UnknownArgs(t, args)
			for _, u := range unknown {
				problems = append(problems, unknownArgProblem(t, u))
			}
		}
		return nil, &ValidationError{Problems: problems}
	}
	if problems := checkPolicy(rt, values); len(problems) > 0 {
		return nil, &ValidationError{Policy: true, Problems: problems}
	}
	return values, nil
}

// checkPresence is validation's first step: required arguments, and, with
// strict set, names the tool does not have.
func checkPresence(t *config.Tool, args map[string]any, strict bool) []string {
	var problems []string
	for i := range t.Args {
		a := &t.Args[i]
		if _, ok := args[a.Name]; a.Required && !ok {
			problems = append(problems, fmt.Sprintf("Missing required argument '%s'", a.Name))
		}
	}
	if strict {
		unknown, more := UnknownArgs(t, args)
		for _, u := range unknown {
			problems = append(problems, unknownArgProblem(t, u))
		}
		if more > 0 {
			problems = append(problems, fmt.Sprintf("… and %d more unknown argument names", more))
		}
	}
	return problems
}

// coerceArgs is validation's second step: each argument converted to its
// type; defaults fill in absent ones. supplied marks the values the call
// gave (not defaults).
func coerceArgs(rt *config.ResolvedTool, args map[string]any) (values map[string]any, supplied map[string]bool, problems []string) {
	t := rt.Tool
	values = make(map[string]any, len(t.Args))
	supplied = make(map[string]bool, len(t.Args))
	for i := range t.Args {
		a := &t.Args[i]
		raw, ok := args[a.Name]
		if !ok {
			if a.Default == nil {
				continue
			}
			v, err := coerceArg(a, a.Default)
			if err != nil {
				problems = append(problems, fmt.Sprintf("Argument '%s': default %s in the config cannot be converted to %s", a.Name, describeArg(a, a.Default), typeName(a.Type)))
				continue
			}
			values[a.Name] = cwdHome(rt, a, v)
			continue
		}
		if a.Type == config.TypeArray {
			items, errs := coerceList(a, raw)
			for i, err := range errs {
				hint := ""
				if i == 0 {
					hint = enumHint(a) // once: the allowed values are the same for every item
				}
				problems = append(problems, fmt.Sprintf("Argument '%s': %v%s", a.Name, err, hint))
			}
			if len(errs) > 0 {
				continue
			}
			if a.Required && len(items) == 0 {
				problems = append(problems, fmt.Sprintf("Missing required argument '%s' (got an empty list)", a.Name))
				continue
			}
			values[a.Name] = items
			supplied[a.Name] = true
			continue
		}
		v, err := coerce(a.Type, raw)
		if err != nil {
			problems = append(problems, fmt.Sprintf("Argument '%s': cannot convert %s to %s%s%s%s", a.Name, describeArg(a, raw), typeName(a.Type), convertReason(err), enumHint(a), jsonTextHint(a, raw)))
			continue
		}
		values[a.Name] = cwdHome(rt, a, v)
		supplied[a.Name] = true
	}
	return values, supplied, problems
}

// enumHint is what a conversion problem of a adds when a has an enum:
// the allowed values, so that a caller who sent true for an enum string
// (misreading it as a switch) learns what to send instead. "" without an
// enum.
func enumHint(a *config.Arg) string {
	switch {
	case len(a.Enum) == 0:
		return ""
	case a.Type == config.TypeArray:
		return "; each item must be one of: " + enumList(a)
	}
	return "; it must be one of: " + enumList(a)
}

// jsonTextHint is what a conversion problem of a string argument a adds
// when the value sent is an object or an array: that JSON goes in as its
// text, a string, and that string as JSON when it is short and a is not
// secret, so that a caller who sent jq's input or curl's body as an
// object learns what to send. A string arg takes text as it is (JSON,
// XML, several JSON values), so it does not take objects
// (docs/calls.md, Coercion). "" for other values and types.
func jsonTextHint(a *config.Arg, v any) string {
	switch v.(type) {
	case map[string]any, []any:
	default:
		return ""
	}
	if a.Type != config.TypeString && a.Type != "" {
		return ""
	}
	const hint = "; to send JSON, send its text as a string"
	if a.Secret {
		return hint
	}
	text, err := toJSON(v)
	if err != nil {
		return hint
	}
	s := string(text.(json.RawMessage))
	if jsonStringLen(s) > maxShown {
		return hint
	}
	return hint + ": " + string(config.AppendJSONString(nil, s))
}

// maxEnumShown is how many bytes of an argument's allowed values a
// message lists.
const maxEnumShown = 400

// enumList is a's allowed values, comma-separated, cut after about
// [maxEnumShown] bytes with how many there are in all.
func enumList(a *config.Arg) string {
	var b strings.Builder
	for i, e := range a.Enum {
		if i > 0 {
			b.WriteString(", ")
		}
		if b.Len()+len(e) > maxEnumShown {
			fmt.Fprintf(&b, "… (%d values in all)", len(a.Enum))
			break
		}
		b.WriteString(e)
	}
	return b.String()
}

// checkEnums is validation's third step: enums, for supplied values
// (defaults are the config's choice).
func checkEnums(t *config.Tool, values map[string]any, supplied map[string]bool) []string {
	var problems []string
	for i := range t.Args {
		a := &t.Args[i]
		v, ok := values[a.Name]
		if !ok || !supplied[a.Name] || len(a.Enum) == 0 {
			continue
		}
		if list, isList := v.([]any); isList {
			bad := 0
			for j, item := range list {
				s := Render(item)
				if slices.Contains(a.Enum, s) {
					continue
				}
				switch bad++; {
				case bad == 1:
					problems = append(problems, fmt.Sprintf("Argument '%s': item %d (%s) must be one of: %s", a.Name, j+1, quoteArg(a, s), enumList(a)))
				case bad <= maxItemProblems:
					problems = append(problems, fmt.Sprintf("Argument '%s': item %d (%s) is not one of them", a.Name, j+1, quoteArg(a, s)))
				}
			}
			if bad > maxItemProblems {
				problems = append(problems, fmt.Sprintf("Argument '%s': %v", a.Name, moreItems(bad-maxItemProblems)))
			}
			continue
		}
		if !slices.Contains(a.Enum, Render(v)) {
			problems = append(problems, fmt.Sprintf("Argument '%s' must be one of: %s", a.Name, enumList(a)))
		}
	}
	return problems
}

// checkSafety is validation's fourth step, on supplied values: no NUL
// byte (but in stdin), no leading "-" where it would be read as an
// option, the argument's own pattern.
func checkSafety(rt *config.ResolvedTool, values map[string]any, supplied map[string]bool) []string {
	var problems []string
	for i := range rt.Tool.Args {
		a := &rt.Tool.Args[i]
		v, ok := values[a.Name]
		if !ok || !supplied[a.Name] {
			continue
		}
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		bad := 0
		for j, item := range list {
			who := fmt.Sprintf("Argument '%s'", a.Name)
			if isList {
				who = fmt.Sprintf("Argument '%s': item %d", a.Name, j+1)
			}
			if safeJSONText(rt, a, item) {
				continue
			}
			found := checkValueSafety(rt, a, who, isList, Render(item))
			if len(found) > 0 {
				if bad++; bad <= maxItemProblems {
					problems = append(problems, found...)
				}
			}
		}
		if bad > maxItemProblems {
			problems = append(problems, fmt.Sprintf("Argument '%s': %v", a.Name, moreItems(bad-maxItemProblems)))
		}
	}
	return problems
}

// safeJSONText reports whether item is JSON text that checkValueSafety
// would find nothing wrong with, told without copying it into a string
// (a 31 MiB value would be copied once more): JSON text holds no NUL byte
// (encoding/json escapes one in a string), and a has no pattern, nor a
// leading dash to refuse in it.
func safeJSONText(rt *config.ResolvedTool, a *config.Arg, item any) bool {
	text, ok := item.(json.RawMessage)
	return ok && rt.Patterns[a.Name] == nil && !a.Cwd && (len(text) == 0 || text[0] != '-') && bytes.IndexByte(text, 0) < 0
}

// checkValueSafety checks one value s (or item, with isList set) of a.
func checkValueSafety(rt *config.ResolvedTool, a *config.Arg, who string, isList bool, s string) []string {
	if !a.Stdin && strings.IndexByte(s, 0) >= 0 {
		if isList {
			return []string{fmt.Sprintf("%s contains a NUL byte, which cannot be passed to a command", who)}
		}
		return []string{fmt.Sprintf("%s: value contains a NUL byte, which cannot be passed to a command", who)}
	}
	var problems []string
	guard := a.Positional && !a.AllowLeadingDash && !a.AfterDoubleDash && !a.Stdin && !a.Cwd
	if guard && strings.HasPrefix(s, "-") {
		problems = append(problems, leadingDashProblem(a, who, s))
	}
	if a.Cwd && rt.Executor.IsDocker() && !path.IsAbs(s) {
		problems = append(problems, fmt.Sprintf("%s: value %s is not an absolute path: under the docker executor the working directory is a directory in the container, given from its root (such as /work)", who, quoteArg(a, s)))
	}
	if re := rt.Patterns[a.Name]; re != nil && !re.MatchString(s) {
		problems = append(problems, fmt.Sprintf("%s: value %s does not match pattern '%s'", who, quoteArg(a, s), a.Pattern))
	}
	return problems
}

// leadingDashProblem is the problem of a value s of a (named who) that
// starts with "-" where the program would read it as an option. It speaks
// to the caller, who cannot change the config: the value is refused for
// this argument, what to pass instead, and the argument's description,
// which often says how to write such a value (jq's filter: wrap it in
// parentheses). docs/calls.md (Validation) has the config author's side.
func leadingDashProblem(a *config.Arg, who, s string) string {
	msg := fmt.Sprintf("%s: value %s starts with '-', which this argument refuses (the program would read it as an option): pass a value that does not start with '-'", who, quoteArg(a, s))
	if d := shortDescription(a.Description); d != "" {
		msg += fmt.Sprintf("; the argument's description: \"%s\"", d)
	}
	return msg
}

// maxDescriptionShown is how much of an argument's description a message
// quotes.
const maxDescriptionShown = 200

// shortDescription is description d on one line (runs of white space
// made one space) and cut after [maxDescriptionShown] bytes with "...".
func shortDescription(d string) string {
	return clip(strings.Join(strings.Fields(d), " "), maxDescriptionShown, "...")
}

// checkPolicy is validation's last step: the policy's constraints, on
// every value that will be used.
func checkPolicy(rt *config.ResolvedTool, values map[string]any) []string {
	var problems []string
	for i := range rt.Tool.Args {
		a := &rt.Tool.Args[i]
		c := rt.Constraints[a.Name]
		v, ok := values[a.Name]
		if c == nil || !ok {
			continue
		}
		who := fmt.Sprintf("Argument '%s'", a.Name)
		list, isList := v.([]any)
		if !isList {
			problems = append(problems, checkConstraint(who, a, c, v)...)
			continue
		}
		if c.MinItems != nil && len(list) < *c.MinItems {
			problems = append(problems, fmt.Sprintf("%s has %d %s; the policy requires at least %d", who, len(list), plural(len(list), "item", "items"), *c.MinItems))
		}
		if c.MaxItems != nil && len(list) > *c.MaxItems {
			problems = append(problems, fmt.Sprintf("%s has %d %s; the policy allows at most %d", who, len(list), plural(len(list), "item", "items"), *c.MaxItems))
		}
		for j, item := range list {
			problems = append(problems, checkConstraint(fmt.Sprintf("%s: item %d", who, j+1), a, c, item)...)
		}
	}
	return problems
}

// cwdHome returns the value v of arg a with a leading "~" or "~/" made
// the home directory when a is rt's working-directory arg and the command
// runs here, not in a container (where the directory is the
// container's): before the policy checks the directory.
func cwdHome(rt *config.ResolvedTool, a *config.Arg, v any) any {
	if dir, ok := v.(string); ok && a.Cwd && !rt.Executor.IsDocker() {
		return expandHome(dir)
	}
	return v
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkConstraint returns the policy problems of one value of a; who names
// it ("Argument 'path'", "Argument 'paths': item 2").
func checkConstraint(who string, a *config.Arg, c *config.ArgConstraint, v any) []string {
	var problems []string
	s := Render(v)
	if c.Pattern != "" && !c.MatchString(s) {
		problems = append(problems, fmt.Sprintf("%s: value %s does not match pattern '%s'", who, quoteArg(a, s), c.Pattern))
	}
	if c.Min == nil && c.Max == nil {
		return problems
	}
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		// A string is passed on as it is, so the bounds hold only for a
		// number in its one plain form: not " 5", "+5", "1e2" or "0005",
		// which a program may read differently. (Loading refuses bounds
		// on string args; this holds for tools built otherwise.)
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(n, 0) || formatFloat(n) != s {
			return append(problems, fmt.Sprintf("%s: value %s is not a number in plain form (such as 5 or -2.5), but the policy sets numeric bounds", who, quoteArg(a, s)))
		}
		f = n
	}
	shown := s
	if a.Secret {
		shown = redacted
	}
	if c.Min != nil && f < *c.Min {
		problems = append(problems, fmt.Sprintf("%s: value %s is below minimum %s", who, shown, formatFloat(*c.Min)))
	}
	if c.Max != nil && f > *c.Max {
		problems = append(problems, fmt.Sprintf("%s: value %s is above maximum %s", who, shown, formatFloat(*c.Max)))
	}
	return problems
}

// coerceArg converts v to the Go value of argument a: as [Coerce] does
// for a scalar type; for an array, a []any of item values (a single value
// is a one-item array). The error says what could not be converted.
func coerceArg(a *config.Arg, v any) (any, error) {
	if a.Type != config.TypeArray {
		cv, err := coerce(a.Type, v)
		if err != nil {
			return nil, fmt.Errorf("cannot convert %s to %s%s", describeArg(a, v), typeName(a.Type), convertReason(err))
		}
		return cv, nil
	}
	items, errs := coerceList(a, v)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return items, nil
}

// coerceList converts v to a list of values of the item type of the array
// argument a: each item of a slice, or v itself as the only item when it
// is a single value (a string, number or boolean). It returns one error
// per item that does not convert.
func coerceList(a *config.Arg, v any) ([]any, []error) {
	typ := a.ItemType()
	rv := reflect.ValueOf(v)
	if v == nil || rv.Kind() == reflect.Map || rv.Kind() == reflect.Struct {
		return nil, []error{fmt.Errorf("cannot convert %s to array of %s", describeArg(a, v), typeName(typ))}
	}
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		cv, err := coerce(typ, v)
		if err != nil {
			return nil, []error{fmt.Errorf("cannot convert %s to %s%s", describeArg(a, v), typeName(typ), convertReason(err))}
		}
		return []any{cv}, nil
	}
	out := make([]any, 0, rv.Len())
	var errs []error
	bad := 0
	for i := range rv.Len() {
		item := rv.Index(i).Interface()
		cv, err := coerce(typ, item)
		if err != nil {
			if bad++; bad <= maxItemProblems {
				errs = append(errs, fmt.Errorf("item %d: cannot convert %s to %s%s", i+1, describeArg(a, item), typeName(typ), convertReason(err)))
			}
			continue
		}
		out = append(out, cv)
	}
	if bad > maxItemProblems {
		errs = append(errs, moreItems(bad-maxItemProblems))
	}
	return out, errs
}

// maxItemProblems is how many refused items of one array argument a
// validation error lists; the rest are counted ("… and 98 more items
// refused"), so that a call of many bad items gets an answer of bounded
// size.
const maxItemProblems = 5

// moreItems is the problem that counts the n refused items not listed.
func moreItems(n int) error {
	return fmt.Errorf("… and %d more %s refused", n, plural(n, "item", "items"))
}

var errConvert = errors.New("cannot convert")

func coerce(typ config.ArgType, v any) (any, error) {
	switch typ {
	case config.TypeInteger:
		return toInteger(v)
	case config.TypeNumber:
		return toNumber(v)
	case config.TypeBoolean:
		return toBool(v)
	case config.TypeString, "":
		return toString(v)
	case config.TypeJSON:
		return toJSON(v)
	}
	return nil, errConvert
}

// toJSON converts any JSON value to its compact JSON text, as a
// json.RawMessage (so that converting it again, as [Build] does with
// validated values, keeps it as it is), numbers exactly as sent
// (json.Number). A string that holds a JSON object or array ("{\"a\":
// 1}") is that object or array, so that a caller who writes the JSON as
// text gets what it meant; any other string is a JSON string ("x" gives
// "\"x\""). JSON text, held by a string or given as a json.RawMessage,
// gets the checks a call's arguments get (checkJSONText): an object that
// names a key twice, a lone surrogate escape, nesting or items beyond the
// limits are refused.
func toJSON(v any) (any, error) {
	switch x := v.(type) {
	case json.RawMessage:
		text, _, err := jsonText(x, false)
		return text, err
	case string:
		if t := strings.TrimSpace(x); t != "" && (t[0] == '{' || t[0] == '[') {
			if text, isJSON, err := jsonText([]byte(t), true); isJSON || err != nil {
				return text, err
			}
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, errConvert
		}
	}
	return encodeJSON(v)
}

// jsonText checks the JSON text b as a call's arguments are checked and
// returns it compact. With inString set, b is the text of a string that
// opens like an object or array: isJSON is false when it is not JSON
// (it is then a JSON string), unless it nests too deep to tell (beyond
// encoding/json's own limit, which calls that a syntax error), which is
// refused as JSON that nests too deep is.
func jsonText(b []byte, inString bool) (text json.RawMessage, isJSON bool, err error) {
	compact, problem := scanJSONText(b)
	if !json.Valid(b) {
		var jt *jsonTextError
		if inString && errors.As(problem, &jt) && jt.depth {
			return nil, true, &convertError{jt.phrase("its JSON text", true)}
		}
		if inString {
			return nil, false, nil
		}
		return nil, false, errConvert
	}
	if problem != nil {
		return nil, true, &convertError{problem.(*jsonTextError).phrase("its JSON text", true)}
	}
	if compact {
		return b, true, nil // as it is: a value converted again is not copied again
	}
	var buf bytes.Buffer
	buf.Grow(len(b))
	if err := json.Compact(&buf, b); err != nil {
		return nil, true, errConvert
	}
	return buf.Bytes(), true, nil
}

// encodeJSON is the compact JSON text of v, HTML characters as they are.
func encodeJSON(v any) (json.RawMessage, error) {
	if s, ok := v.(string); ok && utf8.ValidString(s) {
		return config.AppendJSONString(make([]byte, 0, jsonStringLen(s)), s), nil
	}
	var text encoded
	enc := json.NewEncoder(&text)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, errConvert
	}
	// The Encoder writes compact JSON and a newline.
	return bytes.TrimSuffix(text, []byte("\n")), nil
}

// encoded keeps a copy of what a json.Encoder writes, which is one Write
// of the value's whole text: copied at its size, not into a buffer that
// doubles as it grows.
type encoded []byte

func (e *encoded) Write(p []byte) (int, error) {
	*e = append(*e, p...)
	return len(p), nil
}

func toInteger(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return integerText(strings.TrimSpace(x))
	case json.Number:
		return integerText(string(x))
	case float64:
		return wholeFloat(x)
	case float32:
		return wholeFloat(float64(x))
	}
	if n, ok := goInt(v); ok {
		return n, nil
	}
	return nil, errConvert
}

// wholeFloat converts f to int64 when it is whole and in range.
func wholeFloat(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f < -(1<<63) || f >= 1<<63 {
		return nil, errConvert
	}
	return int64(f), nil
}

func toNumber(v any) (any, error) {
	var f float64
	switch x := v.(type) {
	case string:
		p, err := parseDecimal(strings.TrimSpace(x))
		if err != nil {
			return nil, err
		}
		f = p
	case json.Number:
		p, err := parseDecimal(string(x))
		if err != nil {
			return nil, err
		}
		f = p
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		n, ok := goInt(v)
		if !ok {
			return nil, errConvert
		}
		f = float64(n)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, errConvert
	}
	return f, nil
}

// parseDecimal parses a finite decimal number: digits, an optional sign,
// point and exponent; no hex, no "inf"/"nan", no underscores.
func parseDecimal(s string) (float64, error) {
	if s == "" {
		return 0, errConvert
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+' || r == 'e' || r == 'E') {
			return 0, errConvert
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, errConvert
	}
	return f, nil
}

func toBool(v any) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return nil, errConvert
}

func toString(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case json.Number:
		// Its exact plain form, bounded from the exponent before it is
		// written: 1e-1000000 (10 bytes) would be a million characters.
		d, err := plainNumber(string(x))
		if err != nil {
			return nil, err
		}
		return d.plain(), nil
	case float64, float32:
		// A boolean is refused: true for a string arg is far more
		// likely a misreading of the arg (a branch name "create") than
		// the word "true" (docs/calls.md, Coercion).
		if f, ok := x.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return nil, errConvert
		}
		return Render(x), nil
	}
	if n, ok := goInt(v); ok {
		return strconv.FormatInt(n, 10), nil
	}
	return nil, errConvert
}

// goInt converts Go integer types (as YAML defaults or Go callers may
// supply) to int64.
func goInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), x <= math.MaxInt64
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

// Render returns the command-line form of a value: strings as they are,
// integers and floats in plain decimal notation ("42", "3.5", never
// "4.2e+01"), booleans as "true" or "false". Other values are rendered as
// JSON.
func Render(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return formatFloat(x)
	case float32:
		return formatFloat(float64(x))
	case json.Number:
		if n, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		if d, ok := exactDecimal(string(x)); ok {
			return d
		}
		return string(x)
	case json.RawMessage:
		return string(x)
	case nil:
		return ""
	}
	if n, ok := goInt(v); ok {
		return strconv.FormatInt(n, 10)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func formatFloat(f float64) string { return config.FormatNumber(f) }

func typeName(t config.ArgType) string {
	if t == "" {
		return string(config.TypeString)
	}
	return string(t)
}

// maxShown is how many bytes of a value an error message quotes.
const maxShown = 100

// quote renders a string for an error message: in single quotes,
// shortened when long, with control and format characters and bytes that
// are not UTF-8 escaped ([EscapeControl]), so that a caller's value
// cannot break the message's lines or reorder its text.
func quote(s string) string {
	return "'" + EscapeControl(shortened(s)) + "'"
}

// shortened cuts s after maxShown bytes (at a character's start) and
// marks the cut with "...".
func shortened(s string) string {
	return clip(s, maxShown, "...")
}

// describe renders any value for an error message: strings quoted,
// numbers and booleans plain, null as null, arrays and objects as
// "array [...]" / "object {...}", shortened.
// describeArg is describe for a value given for a, or "***" when a is
// marked secret: a secret value appears in no message, because messages
// also go to the log and the audit log.
func describeArg(a *config.Arg, v any) string {
	if a.Secret {
		return redacted
	}
	return describe(v)
}

// quoteArg is quote for a value given for a, or "***" when a is marked
// secret (see describeArg).
func quoteArg(a *config.Arg, s string) string {
	if a.Secret {
		return redacted
	}
	return quote(s)
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return quote(v.(string))
	case nil:
		return "null"
	case bool, float64, float32, json.Number:
		return shortened(Render(v))
	}
	if _, ok := goInt(v); ok {
		return Render(v)
	}
	b, err := json.Marshal(v)
	s := string(b)
	if err != nil {
		s = fmt.Sprintf("%T", v)
	}
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	switch {
	case strings.HasPrefix(s, "["):
		return "array " + s
	case strings.HasPrefix(s, "{"):
		return "object " + s
	}
	return s
}
