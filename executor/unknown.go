package executor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/climax-mcp/climax/index/config"
)

// IgnoredArg is an argument name a call gave that its tool does not have.
// Calls ignore such names; the result's structuredContent lists them
// ("ignored_args"), so that a caller notices a misnamed argument.
type IgnoredArg struct {
	// Name is the name as given, as messages show it: shortened after 100
	// bytes, control and format characters escaped ([EscapeControl]).
	Name string `json:"name"`
	// DidYouMean is the tool's argument the caller probably meant; empty
	// when none is close.
	DidYouMean string `json:"did_you_mean,omitempty"`
	// DidYouMeanType is the type of DidYouMean's argument when the value
	// sent is not of it ("boolean" for go_test's skip_vet given as
	// {"vet": "off"}); empty otherwise. The note says it: "did you mean
	// 'skip_vet', which takes a boolean?".
	DidYouMeanType config.ArgType `json:"did_you_mean_type,omitempty"`

	noCwd bool // a name of a working directory, and the tool has no cwd arg
}

// MaxIgnoredArgs is how many unknown argument names a result lists (and
// strict mode reports); the rest are only counted, so that a call with a
// million made-up names costs neither time nor a huge answer.
const MaxIgnoredArgs = 20

// UnknownArgs returns the names in args that are not arguments of t, the
// first [MaxIgnoredArgs] in sorted order (as messages quote a name: one
// of more than 100 bytes shortened, control and format characters
// escaped by [EscapeControl], so that the note, the list in
// structuredContent and a validation error show one name alike), each
// with the argument it
// probably stands for (see [SuggestArg]), and how many more there are;
// nil and 0 when every name is known.
func UnknownArgs(t *config.Tool, args map[string]any) (first []IgnoredArg, more int) {
	var names []string // sorted, at most MaxIgnoredArgs
	for name := range args {
		if t.Arg(name) != nil {
			continue
		}
		i, _ := slices.BinarySearch(names, name)
		switch {
		case len(names) < MaxIgnoredArgs:
			names = slices.Insert(names, i, name)
		case i < len(names):
			names = slices.Insert(names[:len(names)-1], i, name)
			more++
		default:
			more++
		}
	}
	noCwd := cwdArg(t) == nil
	for _, name := range names {
		u := IgnoredArg{Name: EscapeControl(shortened(name)), DidYouMean: SuggestArgFor(t, name, args[name])}
		if a := otherTypeArg(t, name, args[name]); u.DidYouMean == "" && a != nil {
			u.DidYouMean, u.DidYouMeanType = a.Name, a.Type
			if u.DidYouMeanType == "" {
				u.DidYouMeanType = config.TypeString
			}
		}
		u.noCwd = u.DidYouMean == "" && noCwd && isCwdAlias(name)
		first = append(first, u)
	}
	return first, more
}

// ignoredNote is the line a result text starts with when the call gave
// argument names the tool does not have (docs/results.md): each name
// with its likely meaning, so that a caller who reads only the text
// learns that, say, its "cwd" was not the tool's "dir" and the command
// ran in the default directory. "" when nothing was ignored.
//
//	[ignored argument 'cwd' (did you mean 'dir'?): the tool has no argument of that name, so the command ran without it]
func ignoredNote(ignored []IgnoredArg, more int) string {
	return IgnoredNote(ignored, more, "the tool", "the command")
}

// IgnoredNote is the one-line note on ignored, the unknown argument
// names of a call of owner (and more beyond them, only counted; see
// [UnknownArgs]), which ran as what without them: each name quoted (as
// messages quote it, control and format characters escaped) with the
// argument it probably stands for. "" when nothing was ignored.
//
//	IgnoredNote(ignored, 0, "climax_search", "the search")
//	// [ignored argument 'q' (did you mean 'query'?): climax_search has no argument of that name, so the search ran without it]
func IgnoredNote(ignored []IgnoredArg, more int, owner, what string) string {
	if len(ignored) == 0 {
		return ""
	}
	var b strings.Builder
	if len(ignored)+more == 1 {
		b.WriteString("[ignored argument ")
	} else {
		b.WriteString("[ignored arguments ")
	}
	for i, u := range ignored {
		switch {
		case i == 0:
		case i == len(ignored)-1 && more == 0:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("'" + EscapeControl(u.Name) + "'") // as UnknownArgs gives it, or a name set otherwise
		switch {
		case u.DidYouMean != "":
			fmt.Fprintf(&b, " (%s)", u.didYouMean())
		case u.noCwd:
			b.WriteString(" (the tool has no working-directory argument)")
		}
	}
	if more > 0 {
		fmt.Fprintf(&b, " and %d more", more)
	}
	if len(ignored)+more == 1 {
		fmt.Fprintf(&b, ": %s has no argument of that name, so %s ran without it]", owner, what)
	} else {
		fmt.Fprintf(&b, ": %s has no arguments of those names, so %s ran without them]", owner, what)
	}
	return b.String()
}

// didYouMean is the question on u's likely meaning: "did you mean
// 'dir'?", or with the argument's type when the value sent is not of it,
// "did you mean 'skip_vet', which takes a boolean?".
func (u IgnoredArg) didYouMean() string {
	if u.DidYouMeanType == "" {
		return fmt.Sprintf("did you mean '%s'?", u.DidYouMean)
	}
	return fmt.Sprintf("did you mean '%s', which takes %s?", u.DidYouMean, typePhrase(u.DidYouMeanType))
}

// typePhrase names a type with its article: "a boolean", "an integer".
func typePhrase(t config.ArgType) string {
	if strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + string(t)
	}
	return "a " + string(t)
}

// Names that callers commonly give to a tool's working-directory and
// standard-input arguments, in [normalize]d form. The strong cwd names
// mean a working directory whatever the tool's arguments are, so they win
// over a misspelling ("cwd" is not "cmd"); the others ("path", "dir")
// are often a misspelt argument of the tool ("paths") and count only
// when nothing is close.
var (
	strongCwdAliases = []string{"cwd", "workdir", "workingdir", "workingdirectory", "wd", "chdir", "cd", "pwd", "currentdir", "currentdirectory"}
	cwdAliases       = []string{"dir", "directory", "path", "folder", "root", "repo", "repository", "repodir", "repopath", "reporoot", "dirpath", "basedir", "rootdir", "location", "workspace", "project", "projectdir", "projectpath", "projectroot"}
	stdinAliases     = []string{"stdin", "input", "body", "content", "contents", "data", "text"}
)

// SuggestArg returns the argument of t that name (not one of its
// arguments) probably stands for, or "" when none is close: the same name
// in another spelling (maxCount, max-count for max_count); for a name
// that always means a working directory ("cwd", "workdir", "working_dir")
// the tool's cwd argument, or, when it has none, an argument named for a
// directory to work in (docker exec's workdir, a directory in the
// container); a likely misspelling; for another common name of the
// working directory ("dir", "directory", "path", "repo") or of the input
// ("stdin", "input", "body"), the tool's cwd or stdin argument; else one
// of the weaker guesses of [SuggestArgFor], among all arguments.
func SuggestArg(t *config.Tool, name string) string {
	return suggestArg(t, name, nil, false)
}

// SuggestArgFor is [SuggestArg] for a name given with value v: its weaker
// guesses (an option's letter, a prefix, an abbreviation, shared words)
// only consider the arguments v converts to, so that a path sent as
// "path" is not taken for a boolean whose description mentions paths.
func SuggestArgFor(t *config.Tool, name string, v any) string {
	return suggestArg(t, name, v, true)
}

func suggestArg(t *config.Tool, name string, v any, typed bool) string {
	names := make([]string, len(t.Args))
	for i, a := range t.Args {
		names[i] = a.Name
		if normalize(a.Name) == normalize(name) {
			return a.Name
		}
	}
	n := normalize(name)
	if slices.Contains(strongCwdAliases, n) || slices.Contains(dirAliases, n) {
		if a := cwdArg(t); a != nil && slices.Contains(strongCwdAliases, n) {
			return a.Name
		}
		if a := workdirArg(t); a != nil {
			return a.Name
		}
	}
	if s := config.Suggest(name, names); s != "" {
		return s
	}
	for _, a := range t.Args {
		if a.Cwd && slices.Contains(cwdAliases, n) || a.Stdin && slices.Contains(stdinAliases, n) {
			return a.Name
		}
	}
	return guessArg(t, name, v, typed)
}

// dirAliases are the plainest names of a directory: given to a tool
// without a cwd argument, they stand for its argument named for a
// directory to work in, as the strong cwd names do.
var dirAliases = []string{"dir", "directory"}

// workdirArg returns, for a tool without a cwd argument, its one argument
// whose name is itself a working directory's (workdir, working_dir, cwd,
// dir, directory: docker exec's --workdir, a directory inside the
// container), or nil.
func workdirArg(t *config.Tool) *config.Arg {
	if cwdArg(t) != nil {
		return nil
	}
	var found *config.Arg
	for i := range t.Args {
		n := normalize(t.Args[i].Name)
		if slices.Contains(strongCwdAliases, n) || slices.Contains(dirAliases, n) {
			if found != nil {
				return nil
			}
			found = &t.Args[i]
		}
	}
	return found
}

// cwdArg returns t's working-directory argument, or nil.
func cwdArg(t *config.Tool) *config.Arg {
	for i := range t.Args {
		if t.Args[i].Cwd {
			return &t.Args[i]
		}
	}
	return nil
}

// isCwdAlias reports whether name is a common name of a working
// directory.
func isCwdAlias(name string) bool {
	n := normalize(name)
	return slices.Contains(strongCwdAliases, n) || slices.Contains(cwdAliases, n)
}

// normalize folds case and drops "_" and "-", so that maxCount, max-count
// and MAX_COUNT compare equal.
func normalize(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// unknownArgProblem is the validation problem of an unknown argument name
// in strict mode.
func unknownArgProblem(t *config.Tool, u IgnoredArg) string {
	name := "'" + EscapeControl(u.Name) + "'" // shortened already
	switch {
	case u.DidYouMean != "":
		return fmt.Sprintf("Unknown argument %s (%s)", name, u.didYouMean())
	case len(t.Args) == 0:
		return fmt.Sprintf("Unknown argument %s: the tool takes no arguments", name)
	}
	names := make([]string, len(t.Args))
	for i, a := range t.Args {
		names[i] = a.Name
	}
	return fmt.Sprintf("Unknown argument %s; the tool's arguments are: %s", name, strings.Join(names, ", "))
}
