package scaffold

import (
	"slices"
	"strings"
)

var (
	possibleRE = lazyRE(`\[possible values: ([^\]]+)\]`)
	oneOfRE    = lazyRE(`(?i)\b(?:one of|must be|allowed values?(?: are)?|valid values? (?:are|is)|choices?(?: are)?)[:\s]+\(?['"]?([\w.-]+['"]?(?:\s*(?:[|,/]|,? or)\s*['"]?[\w.-]+['"]?)+)`)
	defaultRE  = lazyRE(`(?i)[\[(]default(?::\s*|\s+)("[^"]*"|'[^']*'|[^)\]\s]+)[)\]]`)
	choiceRE   = lazyRE(`^[{(]?([\w.-]+(?:[,|][\w.-]+)+)[})]?$`)
	enumWordRE = lazyRE(`^[A-Za-z0-9][\w.-]*$`)
)

// finishFlag derives a flag's type, items, choices and default from its
// value placeholder and description.
func finishFlag(f *Flag) {
	v := strings.TrimSpace(f.Value)
	variadic := strings.HasSuffix(v, "...") || strings.HasSuffix(v, "…")
	v = strings.TrimSuffix(strings.TrimSuffix(v, "..."), "…")
	inner := strings.TrimSpace(strings.Trim(v, "<>[]"))
	if m := choiceRE().FindStringSubmatch(inner); m != nil && !strings.ContainsAny(inner, " ") {
		f.Enum = splitChoices(m[1])
	}
	if f.Default == "" {
		if m := defaultRE().FindStringSubmatch(f.Description); m != nil {
			f.Default = trimQuotes(strings.TrimSpace(m[1]))
		}
	}
	if f.Enum == nil {
		if m := possibleRE().FindStringSubmatch(f.Description); m != nil {
			f.Enum = splitChoices(m[1])
		} else if m := oneOfRE().FindStringSubmatch(f.Description); m != nil && v != "" {
			f.Enum = splitChoices(m[1])
		}
	}
	f.Type, f.Items = typeOf(inner, variadic)
	if f.Type == TypeBoolean && f.Joined {
		f.Type = TypeString
	}
	if f.Type == TypeBoolean {
		f.Enum = nil
	}
	if f.Enum != nil && f.Type != TypeString {
		// Choices of a list or a number: keep them in the description.
		f.Enum = nil
	}
	if f.Default != "" && f.Enum != nil && !slices.Contains(f.Enum, f.Default) {
		// A default outside the choices means the choices were misread.
		f.Enum = nil
	}
	if len(f.Description) > 0 {
		f.Description = tidyDescription(f.Description)
	}
}

// splitChoices splits "a, b, c", "a|b|c" or "'a', 'b' or 'c'" into the
// values; nil when any piece is not a plain word.
func splitChoices(s string) []string {
	s = strings.ReplaceAll(s, " or ", ",")
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '|' || r == '/' })
	var out []string
	for _, f := range fields {
		f = strings.Trim(strings.TrimSpace(f), `'"`+"`")
		if !enumWordRE().MatchString(f) {
			return nil
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// typeOf maps a value placeholder to an arg type (and item type of a
// list): none is a switch; int, N, NUM, COUNT... are integers; float is a
// number; strings, stringArray, "..." are lists.
func typeOf(placeholder string, variadic bool) (Type, Type) {
	p := strings.ToLower(placeholder)
	if p == "" {
		if variadic {
			return TypeArray, TypeString
		}
		return TypeBoolean, ""
	}
	scalar := TypeString
	switch p {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
		"n", "num", "number", "count", "integer", "port", "depth", "lines", "level", "jobs",
		"limit", "max", "seconds", "secs", "n_jobs", "num_jobs", "cols", "columns", "width", "nums":
		scalar = TypeInteger
	case "float", "float32", "float64", "double", "decimal", "ratio":
		scalar = TypeNumber
	case "bool", "boolean":
		return TypeBoolean, ""
	case "strings", "stringarray", "stringslice", "[]string", "stringtostring", "mapstringstring":
		return TypeArray, TypeString
	case "ints", "intslice", "int32slice", "int64slice", "uints", "uintslice":
		return TypeArray, TypeInteger
	case "floats", "float32slice", "float64slice":
		return TypeArray, TypeNumber
	}
	if variadic {
		return TypeArray, scalar
	}
	return scalar, ""
}

// tidyDescription shortens a flag description to its first sentence of at
// most 160 characters, without the default (the draft states it apart).
func tidyDescription(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return truncate(firstSentence(s), 160)
}

// firstSentence cuts s after its first ". " (or returns s).
func firstSentence(s string) string {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && i > 10 {
			// Not after "e.g" or "i.e".
			if i >= 3 && (s[i-3:i] == "e.g" || s[i-3:i] == "i.e" || s[i-3:i] == "etc") {
				continue
			}
			return s[:i+1]
		}
	}
	return s
}

// truncate cuts s to at most n bytes at a word boundary, with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := s[:n-3]
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	// Do not cut a UTF-8 sequence in half.
	for len(cut) > 0 && cut[len(cut)-1]&0xC0 == 0x80 {
		cut = cut[:len(cut)-1]
	}
	if len(cut) > 0 && cut[len(cut)-1] >= 0xC0 {
		cut = cut[:len(cut)-1]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}

// argName turns a flag or operand name into an arg name: lower case,
// snake_case, only letters, digits and "_".
func argName(s string) string {
	s = strings.TrimLeft(s, "-")
	var b strings.Builder
	lastUnderscore := true
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			lastUnderscore = false
		default:
			if !lastUnderscore {
				b.WriteByte('_')
				lastUnderscore = true
			}
		}
	}
	return strings.Trim(b.String(), "_")
}
