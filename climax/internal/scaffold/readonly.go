package scaffold

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// What keeps a drafted read_only guess true to docs/security.md's
// read-only promise (docs/scaffold.md, "Read-only guesses"): a tool run
// with any argument values, on files the user does not trust, runs none
// of their code and writes no file they choose.

// Hazards of an option in a read-only tool.
const (
	hazardRuns     = "runs a program"
	hazardWrites   = "writes a file"
	hazardSettings = "sets arbitrary settings"
)

var (
	// runOptionWords are words of an option's name that make it name or
	// start a program: git's --upload-pack=<exec>, tar's --to-command,
	// --use-compress-program, git grep's --open-files-in-pager, an
	// --exec-path where programs are looked up.
	runOptionWords = words(`exec execute executable command cmd program prog script scripts
		pager editor hook hooks textconv filters rsh interpreter plugin plugins preprocessor eval`)
	// runOptionNames are whole option names that run a program and whose
	// words do not say so.
	runOptionNames = words(`upload-pack receive-pack ext-diff pre checkpoint-action
		proxy-command ssh rsh-command info-script new-volume-script`)
	// runValueWords are value placeholders that name a program
	// (--upload-pack <exec>, --shell=SHELL).
	runValueWords = words(`exec executable command cmd program prog script shell helper hook interpreter`)
	// writeOptionNames are option names whose value is a file written.
	writeOptionNames = words(`output out output-file outfile out-file output-dir output-directory
		outdir out-dir log-file logfile dump save to-file tee write-to`)
	// settingOptionNames set any setting of the program, including those
	// that name programs it runs (git -c core.pager=..., cargo --config).
	settingOptionNames = words(`config config-file configfile rcfile rc-file init-file config-env`)

	// writeDescriptionRE finds an option described as writing a file
	// ("output to a specific file", "write the result into FILE").
	writeDescriptionRE = lazyRE(`(?i)\b(output|write|writes|save|saves|dump|dumps|store|stores)\b[^.;]{0,40}\b(to|into|in)\b[^.;]{0,16}\b(file|path|directory)\b`)
	// formatRE marks an output option that is a format, not a file
	// (kubectl's -o, --output: "Output format. One of: json|yaml").
	formatRE    = lazyRE(`(?i)\bformat\b`)
	fileValueRE = lazyRE(`(?i)\b(file|filename|path|dir|directory|dest|destination)\b`)
	settingRE   = lazyRE(`(?i)(=|\b(key|name|setting|option)\b)`)
)

// flagHazard says why an option breaks the read-only promise — it runs a
// program, writes a file its value names, or sets any setting of the
// program — or "" when its name, value and description show none of
// these. It judges by what the help says, so it is a guess too: an option
// whose text hides what it does passes.
func flagHazard(f *Flag) string {
	long := strings.ToLower(strings.TrimLeft(f.Long, "-"))
	if strings.HasPrefix(long, "no-") {
		return "" // --no-textconv turns a hazard off
	}
	value := strings.ToLower(strings.Trim(f.Value, "<>[]{}=. "))
	valueWords := nameWords(value)
	// A value that is a format names no program (git cat-file's
	// --batch-command[=<format>] reads commands from stdin).
	formatValue := slices.Contains(valueWords, "format")
	switch {
	case runOptionNames[long],
		!formatValue && slices.ContainsFunc(nameWords(long), func(w string) bool { return runOptionWords[w] }),
		slices.ContainsFunc(valueWords, func(w string) bool { return runValueWords[w] }):
		return hazardRuns
	case settingOptionNames[long],
		long == "" && f.Short == "-c" && f.Value != "" && settingRE().MatchString(f.Value):
		return hazardSettings
	}
	// A switch writes no file a caller names; an output option that is a
	// format (an enum, or described as one) writes none either, unless
	// its description says it writes to a file.
	format := len(f.Enum) > 0 || formatRE().MatchString(f.Description) || formatRE().MatchString(value)
	switch {
	case f.Type == TypeBoolean:
		return ""
	case writeDescriptionRE().MatchString(f.Description),
		!format && writeOptionNames[long],
		!format && long == "" && f.Short == "-o" && fileValueRE().MatchString(value):
		return hazardWrites
	}
	return ""
}

// runsOperandRE finds a command described as running one of its operands
// ("running COMMAND on each", "execute the given program").
var runsOperandRE = lazyRE(`(?i)\b(run|runs|running|execute|executes|executing|invoke|invokes|invoking|spawn|spawns)\b[^.;]{0,30}\b(command|cmd|program|script|utility|executable)s?\b`)

// usageRunsOperandRE finds a usage line whose operand is a program to run
// (`list [OPTIONS] COMMAND [ARG...]`, `<command> [<args>]`).
var usageRunsOperandRE = lazyRE(`(?im)^\s*usage:.*(\bCOMMAND\b|\bCMD\b|\bPROGRAM\b|\bUTILITY\b|<(command|cmd|program|utility|script)>)`)

// operandHazard says why a leaf command breaks the read-only promise
// through an operand rather than an option — an operand that names a
// program it runs (xargs' utility, a "list ... COMMAND" that runs COMMAND
// on each entry) — or "". A command with subcommands names one of them
// with its COMMAND operand, so only leaves are judged.
func operandHazard(n *Command) string {
	if len(n.Children) > 0 {
		return ""
	}
	for _, p := range n.Positionals {
		if slices.ContainsFunc(nameWords(strings.ToLower(p.Name)), func(w string) bool { return runValueWords[w] }) {
			return "its operand " + p.Name + " " + hazardRuns
		}
	}
	if runsOperandRE().MatchString(n.Description) || usageRunsOperandRE().MatchString(n.helpText) {
		return "its help says it " + hazardRuns + " given as an operand"
	}
	return ""
}

// nameWords splits an option name or placeholder into its words.
func nameWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == '.' || r == '|' })
}

// projectCodePrograms run a project's own code or configuration whenever
// they look at the project, reading commands included: build systems,
// package managers, language toolchains and interpreters, task runners,
// infrastructure tools, and version control systems whose hardening
// climax does not know. No verb tells which of their commands are safe.
var projectCodePrograms = words(`make gmake bmake cmake ninja meson bazel bazelisk buck buck2 gradle
	gradlew mvn mvnw ant sbt lein mix rebar3 cargo rustup go npm npx yarn pnpm bun deno node
	python python3 pip pip3 pipx poetry pdm uv hatch tox nox pytest ruby bundle bundler rake gem
	php composer perl cpan cpanm dotnet msbuild swift xcodebuild terraform tofu terragrunt pulumi
	ansible ansible-playbook vagrant just task direnv nix pre-commit hg jj svn`)

// runsProjectCode says why the drafted program gets no read_only guess:
// it is one of projectCodePrograms, or its commands build, test and run a
// project (a "test" command beside "build" or "run"), so that the others
// read the same project's configuration. "" for a program whose reading
// commands may be guessed read-only.
func runsProjectCode(prog string, root *Command) string {
	// python3.11, pip3, go1.22: the versioned names of the same programs.
	base := strings.TrimRight(strings.ToLower(prog), "0123456789.")
	if projectCodePrograms[strings.ToLower(prog)] || projectCodePrograms[base] {
		return prog + " runs a project's own code or configuration (scripts, build files, plugins, hooks) even when it only reads it"
	}
	has := func(name string) bool {
		return slices.ContainsFunc(root.Children, func(c *Command) bool {
			return len(c.Path) > 0 && c.Path[len(c.Path)-1] == name
		})
	}
	if len(root.Path) == 0 && has("test") && (has("build") || has("run")) {
		return prog + " builds, tests and runs projects (it has test and build or run commands), so its other commands read a project's configuration too"
	}
	return ""
}

// Git's hardening, as the bundled configs/git.yaml has it (docs/security.md,
// "Read-only tools"): every tool ignores a bare repository committed inside
// a clone unless it is named, and never runs core.fsmonitor; read-only
// tools run no hook, and those that show diffs run no external diff or
// textconv filter.
const (
	gitBaseHardening     = "-c safe.bareRepository=explicit -c core.fsmonitor=false"
	gitReadOnlyHardening = "-c core.hooksPath=/dev/null"
)

// gitDiffCommands show diffs, which run a diff driver or a textconv filter
// that the repository's .gitattributes names; gitTextconvCommands run
// textconv filters only.
var (
	gitDiffCommands     = words(`diff diff-files diff-index diff-tree log show whatchanged range-diff`)
	gitTextconvCommands = words(`blame annotate`)
)

// hardensGit reports whether the draft's program is git, whose commands
// get the bundled config's hardening.
func hardensGit(prog string) bool { return prog == "git" }

// gitReadOnlyCommand is the command line of a read-only git tool with path
// as its subcommand words: no hook runs, and no diff driver or textconv
// filter when it shows diffs.
func gitReadOnlyCommand(path []string) string {
	parts := []string{gitReadOnlyHardening}
	parts = append(parts, path...)
	if len(path) > 0 {
		switch {
		case gitDiffCommands[path[0]]:
			parts = append(parts, "--no-ext-diff", "--no-textconv")
		case gitTextconvCommands[path[0]]:
			parts = append(parts, "--no-textconv")
		}
	}
	return strings.Join(parts, " ")
}

// A readOnlyRule is how one draft guesses read_only.
type readOnlyRule struct {
	// none says why no tool of the program is guessed read-only; "" when
	// the verbs decide.
	none string
	// git: the program is git, whose tools get its hardening.
	git bool
}

func readOnlyRuleFor(prog string, root *Command) readOnlyRule {
	return readOnlyRule{none: runsProjectCode(prog, root), git: hardensGit(prog)}
}

// guess is the annotation guess of the tool with the command words path.
func (r readOnlyRule) guess(path []string) guess {
	g := guessAnnotations(path)
	if g.readOnly && r.none != "" {
		return guess{}
	}
	return g
}

// command is the command line of the tool with the command words path
// and the guess g.
func (r readOnlyRule) command(path []string, g guess) string {
	if r.git && g.readOnly {
		return gitReadOnlyCommand(path)
	}
	return strings.Join(path, " ")
}

// writeNote says in the draft's header what the rule did.
func (r readOnlyRule) writeNote(b *bytes.Buffer) {
	if r.none != "" {
		fmt.Fprintf(b, "# note: no tool is guessed read_only: %s (docs/scaffold.md, Read-only guesses)\n", oneLine(r.none))
	}
	if r.git {
		fmt.Fprintf(b, "# note: as the bundled git config, every tool runs with %s and the read-only ones with %s\n", gitBaseHardening, gitReadOnlyHardening)
		b.WriteString("# (and --no-ext-diff --no-textconv where they show diffs): a repository's fsmonitor, hooks and diff drivers run nothing\n")
	}
}
