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
	// Name is the name as given.
	Name string `json:"name"`
	// DidYouMean is the tool's argument the caller probably meant; empty
	// when none is close.
	DidYouMean string `json:"did_you_mean,omitempty"`
}

// MaxIgnoredArgs is how many unknown argument names a result lists (and
// strict mode reports); the rest are only counted, so that a call with a
// million made-up names costs neither time nor a huge answer.
const MaxIgnoredArgs = 20

// UnknownArgs returns the names in args that are not arguments of t, the
// first [MaxIgnoredArgs] in sorted order, each with the argument it
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
	for _, name := range names {
		first = append(first, IgnoredArg{Name: name, DidYouMean: SuggestArg(t, name)})
	}
	return first, more
}

// Names that callers commonly give to a tool's working-directory and
// standard-input arguments, in [normalize]d form.
var (
	cwdAliases   = []string{"cwd", "dir", "directory", "workdir", "workingdir", "workingdirectory", "wd", "folder", "root", "repo", "repository", "repodir", "repopath"}
	stdinAliases = []string{"stdin", "input", "body", "content", "contents", "data", "text"}
)

// SuggestArg returns the argument of t that name (not one of its
// arguments) probably stands for, or "" when none is close: the same name
// in another spelling (maxCount, max-count for max_count), a likely
// misspelling, or, for a common name of the working directory ("cwd",
// "dir", "repo") or of the input ("stdin", "input", "body"), the tool's cwd
// or stdin argument.
func SuggestArg(t *config.Tool, name string) string {
	names := make([]string, len(t.Args))
	for i, a := range t.Args {
		names[i] = a.Name
		if normalize(a.Name) == normalize(name) {
			return a.Name
		}
	}
	if s := config.Suggest(name, names); s != "" {
		return s
	}
	n := normalize(name)
	for _, a := range t.Args {
		if a.Cwd && slices.Contains(cwdAliases, n) || a.Stdin && slices.Contains(stdinAliases, n) {
			return a.Name
		}
	}
	return ""
}

// normalize folds case and drops "_" and "-", so that maxCount, max-count
// and MAX_COUNT compare equal.
func normalize(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// unknownArgProblem is the validation problem of an unknown argument name
// in strict mode.
func unknownArgProblem(t *config.Tool, u IgnoredArg) string {
	name := quote(u.Name)
	switch {
	case u.DidYouMean != "":
		return fmt.Sprintf("Unknown argument %s (did you mean '%s'?)", name, u.DidYouMean)
	case len(t.Args) == 0:
		return fmt.Sprintf("Unknown argument %s: the tool takes no arguments", name)
	}
	names := make([]string, len(t.Args))
	for i, a := range t.Args {
		names[i] = a.Name
	}
	return fmt.Sprintf("Unknown argument %s; the tool's arguments are: %s", name, strings.Join(names, ", "))
}
