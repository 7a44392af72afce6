package config

import (
	"slices"
	"strings"
)

// Defaults applied by the loader to fields a config leaves out.
const (
	DefaultCLIName   = "climax"
	DefaultTimeout   = 30.0  // seconds
	DefaultMaxOutput = 65536 // bytes per stream
)

// ArgType is the JSON type of a tool argument.
type ArgType string

// The argument types a config may use. An empty type means [TypeString].
// An array's items are strings, integers or numbers ([Arg].Items). A
// [TypeJSON] arg takes any JSON value and passes it on as compact JSON
// text (docs/calls.md, Coercion); its input schema has no "type".
const (
	TypeString  ArgType = "string"
	TypeInteger ArgType = "integer"
	TypeNumber  ArgType = "number"
	TypeBoolean ArgType = "boolean"
	TypeArray   ArgType = "array"
	TypeJSON    ArgType = "json"
)

// Config describes one command-line program and the tools it offers.
// It is the content of one YAML config file.
type Config struct {
	// Name identifies the CLI, e.g. "git-tools"; search results show it as cli_name.
	Name string `yaml:"name"`
	// Description says what the CLI's tools are for.
	Description string `yaml:"description"`
	// Command is the base command: a program on PATH or a path, possibly
	// several words ("python -m app"). "~" and $VAR / ${VAR} are expanded
	// when a command line is built.
	Command string `yaml:"command"`
	// Env is added to the inherited environment of every subprocess.
	Env map[string]string `yaml:"env"`
	// InheritEnv, when not nil, limits what every subprocess inherits from
	// climax's environment to the variables it names (see [Inherits]);
	// nil inherits all of it but climax's own CLIMAX_* settings. Env is
	// added either way. A tool's InheritEnv replaces it.
	InheritEnv []string `yaml:"inherit_env"`
	// WorkingDir is the working directory of every subprocess, if set.
	WorkingDir string `yaml:"working_dir"`
	// Category is the discovery category, e.g. "vcs"; empty when absent.
	Category string `yaml:"category"`
	// Tags are discovery tags; never nil after loading.
	Tags []string `yaml:"tags"`
	// GlobalArgs are appended to every tool's command line (only those
	// with a default; see docs/calls.md, Global args).
	GlobalArgs []Arg `yaml:"global_args"`
	// Tools are the tools of this CLI, in file order.
	Tools []Tool `yaml:"tools"`

	// Source names where the config came from: a file path, or
	// "bundled:NAME" for an embedded config. Set by the loader.
	Source string `yaml:"-"`
	// Warnings are what the loader accepted but the author should know
	// about, with their positions: forms CLImax 0.5 allowed whose meaning
	// is kept (docs/config.md, Coming from CLImax 0.5). Nil when there
	// are none. climax validate prints them; run, list and search log
	// them with the policy's warnings.
	Warnings []Problem `yaml:"-"`
}

// Tool is one MCP tool: a subcommand of the CLI and its arguments.
type Tool struct {
	// Name is the MCP tool name, snake_case, e.g. "git_status".
	Name string `yaml:"name"`
	// Description is shown to the model.
	Description string `yaml:"description"`
	// Keywords are extra words and phrases a user might say for the tool
	// ("history", "recent commits", "who changed"). Search indexes them;
	// they are never sent to clients, so they cost no tokens.
	Keywords []string `yaml:"keywords"`
	// Command holds the subcommand words appended to the base command
	// ("compose ps"); may be empty.
	Command string `yaml:"command"`
	// Args are the tool's arguments in definition order.
	Args []Arg `yaml:"args"`
	// Timeout is the time limit in seconds; the loader sets
	// [DefaultTimeout] when absent.
	Timeout float64 `yaml:"timeout"`
	// MaxOutput is the per-stream output limit in bytes; the loader sets
	// [DefaultMaxOutput] when absent.
	MaxOutput int `yaml:"max_output"`
	// SuccessExitCodes are the exit codes that are not an error for the
	// caller (each 0 to 255, 0 among them); nil means just 0. Use
	// [Tool.SuccessExit] to ask.
	SuccessExitCodes []int `yaml:"success_exit_codes"`
	// ExitCodes says what exit codes other than 0 mean ("no matches" for
	// git grep's 1), for the result text: "[exit code: 1 (no matches)]".
	// nil when the config gives none.
	ExitCodes map[int]string `yaml:"exit_codes"`
	// Env is added to the environment of this tool's commands, after the
	// config's Env (a key in both takes this value); nil when absent.
	// Bundled read-only tools use it to turn off what would run a
	// project's code (docs/security.md, Read-only tools).
	Env map[string]string `yaml:"env"`
	// InheritEnv, when not nil, replaces the config's InheritEnv for this
	// tool's commands: the names of the variables of climax's environment
	// they inherit ([] for none). Bundled tools whose output would show
	// the environment use it (docs/security.md, The server's environment).
	InheritEnv []string `yaml:"inherit_env"`

	// ReadOnly, Destructive, Idempotent and OpenWorld are the tool's
	// annotations (MCP readOnlyHint, destructiveHint, idempotentHint,
	// openWorldHint); nil when the config does not set them.
	ReadOnly    *bool `yaml:"read_only"`
	Destructive *bool `yaml:"destructive"`
	Idempotent  *bool `yaml:"idempotent"`
	OpenWorld   *bool `yaml:"open_world"`

	// Risk is the tool's risk level as CLImax 0.5 configs declare it
	// ([RiskRead], [RiskWrite] or [RiskDestructive]); empty when the
	// config does not say. The loader turns it into the annotations above
	// (docs/config.md, Risk, confirmation messages and resolvers).
	Risk Risk `yaml:"risk"`
	// ConfirmMessage is the question asked before a call that needs the
	// user's approval, with {arg} and {VAR} (a resolver's) filled from the
	// call; empty means the generic question.
	ConfirmMessage string `yaml:"confirm_message"`
	// Resolve lists the resolvers run before asking, in file order; each
	// makes its variable available to ConfirmMessage.
	Resolve []Resolver `yaml:"resolve"`

	// Line is the line of the tool's entry in its file (0 if unknown).
	Line int `yaml:"-"`
}

// Risk is a tool's risk level, CLImax 0.5's way of saying what its
// annotations say.
type Risk string

// The risk levels of a tool.
const (
	// RiskRead is a tool that only reads: read_only: true.
	RiskRead Risk = "read"
	// RiskWrite is a tool that changes things but destroys nothing:
	// read_only: false, destructive: false.
	RiskWrite Risk = "write"
	// RiskDestructive is a tool that may destroy data: read_only: false,
	// destructive: true.
	RiskDestructive Risk = "destructive"
)

// Resolver is a read-only command run before the user is asked to approve
// a call, whose output stands for Var in the confirm message (a bucket's
// name and size instead of its ID).
type Resolver struct {
	// Var is the variable the output fills, e.g. "_bucket".
	Var string
	// Command holds the subcommand words appended to the config's base
	// command, as a tool's command.
	Command string
	// Flags are the options passed, in file order: each flag followed by
	// its value template, in which {arg} stands for the call's value of
	// arg.
	Flags []ResolverFlag
	// Timeout is the time limit in seconds; the loader sets
	// [DefaultResolveTimeout] when absent.
	Timeout float64
	// Line is the line of the resolver's entry (0 if unknown).
	Line int
}

// ResolverFlag is one option of a resolver.
type ResolverFlag struct {
	// Flag is the option as it goes on the command line ("--id").
	Flag string
	// Value is the template of its value ("{bucket_id}").
	Value string
}

// DefaultResolveTimeout is a resolver's time limit when its entry sets
// none, in seconds: short, since the user waits for the question.
const DefaultResolveTimeout = 10.0

// Arg is one argument of a tool (or a global arg of a config).
type Arg struct {
	// Name is the JSON property name.
	Name string `yaml:"name"`
	// Description is shown to the model.
	Description string `yaml:"description"`
	// Type is the JSON type; the loader sets [TypeString] when absent.
	Type ArgType `yaml:"type"`
	// Items is the type of an array's items: [TypeString] (the loader's
	// default for arrays), [TypeInteger] or [TypeNumber]. Empty for other
	// types.
	Items ArgType `yaml:"items"`
	// Required means the caller must supply the argument.
	Required bool `yaml:"required"`
	// Default is used when the caller does not supply a value; nil when
	// absent. For an array it is a []any of item values.
	Default any `yaml:"default"`
	// Flag is the option that precedes the value ("--format", "-n"). A
	// flag ending in "=" is joined with its value into one token. A flag
	// of several words ("-not -path") puts them all before the value,
	// the last one as the option. An array repeats the flag for each
	// item.
	Flag string `yaml:"flag"`
	// Positional places the value directly on the command line; an
	// array's items each become one argv entry.
	Positional bool `yaml:"positional"`
	// Enum lists the allowed values, if any; for an array, the allowed
	// item values.
	Enum []string `yaml:"enum"`
	// Stdin sends the value to the subprocess's standard input instead of
	// the command line.
	Stdin bool `yaml:"stdin"`
	// Cwd makes the value the subprocess's working directory instead of
	// putting it on the command line.
	Cwd bool `yaml:"cwd"`
	// AllowLeadingDash lets a positional string value start with "-".
	// Without it such values are refused, because the CLI would read them
	// as options.
	AllowLeadingDash bool `yaml:"allow_leading_dash"`
	// AfterDoubleDash places a positional value after a "--" separator,
	// behind every other argument; such values may start with "-". On an
	// arg with a flag, the flag goes there with its value: the option of
	// a command run by the program (docker exec -- CONTAINER sh -c CMD).
	AfterDoubleDash bool `yaml:"after_double_dash"`
	// Secret marks a value that must not be recorded: the audit log shows
	// "***" instead of it, in the arguments and in the command line.
	Secret bool `yaml:"secret"`
	// Pattern is a regular expression every value (every item of an
	// array) must match as a whole, checked with the other argument
	// checks before anything runs: the config's own limit on what a
	// caller may pass, whatever the policy.
	Pattern string `yaml:"pattern"`
}

// SuccessExit reports whether exit code code is a success for the
// caller: one of SuccessExitCodes, or 0 when that is empty.
func (t *Tool) SuccessExit(code int) bool {
	if len(t.SuccessExitCodes) == 0 {
		return code == 0
	}
	return slices.Contains(t.SuccessExitCodes, code)
}

// IsReadOnly reports whether the tool is annotated read_only: true.
func (t *Tool) IsReadOnly() bool { return t.ReadOnly != nil && *t.ReadOnly }

// MayDestroy reports whether the tool may be destructive, as MCP reads
// its annotations: false only for a read-only tool or one annotated
// destructive: false.
func (t *Tool) MayDestroy() bool {
	return !t.IsReadOnly() && (t.Destructive == nil || *t.Destructive)
}

// ItemType is the type of an array arg's items ([TypeString] when Items
// is empty), or the arg's own type for other args.
func (a *Arg) ItemType() ArgType {
	switch {
	case a.Type != TypeArray:
		return a.Type
	case a.Items == "":
		return TypeString
	}
	return a.Items
}

// Policy restricts which tools exist and what arguments they accept, and
// chooses how commands are executed. It is the content of a policy file.
type Policy struct {
	// Executor chooses local or docker execution.
	Executor Executor `yaml:"executor"`
	// Default is "disabled" (only listed tools exist), "enabled" (all
	// tools exist) or "read_only" (only tools annotated read_only exist,
	// listed or not). The loader sets "disabled" when absent.
	Default string `yaml:"default"`
	// ReadOnly, when set, leaves out every tool not annotated read_only,
	// whatever Default says (climax --read-only). Not part of the file.
	ReadOnly bool `yaml:"-"`
	// Confirm says which calls need the user's approval before they run;
	// empty means [ConfirmNone]. A tool's own [ToolPolicy].Confirm wins.
	Confirm ConfirmRule `yaml:"confirm"`
	// Approval holds what CLImax 0.5 policies write under approval: the
	// loader folds its global rule into Confirm, and its per-tool settings
	// into Tools (for the listed tools) or keeps them here.
	Approval Approval `yaml:"approval"`
	// Tools holds per-tool settings by tool name.
	Tools map[string]ToolPolicy `yaml:"tools"`

	// Source is the policy file's path. Set by the loader.
	Source string `yaml:"-"`
}

// Approval is the approval section of a policy, as CLImax 0.5 writes it.
type Approval struct {
	// Global is the confirm rule; the loader copies it to [Policy].Confirm.
	Global ConfirmRule `yaml:"global"`
	// Headless is what a call that needs approval does when nobody can be
	// asked: [HeadlessDeny] or [HeadlessApprove]; empty when unset (deny,
	// unless climax's flags say otherwise).
	Headless string `yaml:"headless"`
	// Tools says, by tool name, whether a tool not listed under the
	// policy's tools needs approval (the listed ones have it in their
	// [ToolPolicy].Confirm). It enables no tool.
	Tools map[string]bool `yaml:"tools"`

	pos map[string]Pos // where each name of Tools stands in the file
}

// The headless rules of a policy's approval section.
const (
	HeadlessDeny    = "deny"
	HeadlessApprove = "approve"
)

// Policy default values.
const (
	PolicyDisabled = "disabled"
	PolicyEnabled  = "enabled"
	PolicyReadOnly = "read_only"
)

// Executor types.
const (
	ExecutorLocal  = "local"
	ExecutorDocker = "docker"
)

// Container runtimes: the program that runs the container of a docker
// executor ([Executor].Runtime).
const (
	RuntimeDocker = "docker"
	RuntimePodman = "podman"
)

// Hardened defaults of the docker executor, which a policy can relax
// (docs/calls.md, The docker executor). Each applies when its [Executor]
// field is empty.
const (
	// DefaultContainerUser is the user a container runs as when the
	// account climax runs as is root or has no numeric uid (Windows);
	// otherwise it runs as that account's uid:gid.
	DefaultContainerUser = "65532:65532"
	// DefaultPidsLimit bounds the processes and threads of a container.
	DefaultPidsLimit = "1024"
	// DefaultMemory bounds a container's memory, tmpfs /tmp included.
	DefaultMemory = "2g"
	// DefaultCPUs bounds a container's CPU time, in CPUs. 1 is the one
	// value every host accepts (docker refuses more than the host has).
	DefaultCPUs = "1"
	// DefaultNetwork is the network of a container whose policy names none.
	DefaultNetwork = "none"
	// Unlimited, as PidsLimit, Memory or CPUs, leaves that limit out.
	Unlimited = "unlimited"
	// UserImage, as User, leaves --user out: the image's own user runs.
	UserImage = "image"
)

// Executor says how commands run: directly ("local") or inside a container
// ("docker": `docker run`, or `podman run` with Runtime "podman"). Every
// container setting left empty (nil for the booleans) takes its hardened
// default.
type Executor struct {
	// Type is "local" (the default) or "docker".
	Type string `yaml:"type"`
	// Runtime is the container CLI: "docker" (when empty) or "podman",
	// which take the same arguments.
	Runtime string `yaml:"runtime"`
	// Image is the container image; required for docker.
	Image string `yaml:"image"`
	// Volumes each become "-v VOLUME", with "~" and $VAR / ${VAR} expanded
	// from the environment climax runs in (never from a config's env), and
	// a relative host path ("./src:/src") taken relative to PolicyDir.
	Volumes []string `yaml:"volumes"`
	// WorkingDir becomes "-w DIR".
	WorkingDir string `yaml:"working_dir"`
	// Network becomes "--network NETWORK"; empty means [DefaultNetwork].
	Network string `yaml:"network"`
	// User becomes "--user USER"; empty means the uid:gid climax runs as
	// (or [DefaultContainerUser]), [UserImage] leaves the flag out.
	User string `yaml:"user"`
	// CapAdd lists the capabilities given back after "--cap-drop ALL".
	CapAdd []string `yaml:"cap_add"`
	// NoNewPrivileges gives "--security-opt no-new-privileges"; nil means
	// true.
	NoNewPrivileges *bool `yaml:"no_new_privileges"`
	// ReadOnlyRoot gives "--read-only --tmpfs /tmp"; nil means true.
	ReadOnlyRoot *bool `yaml:"read_only_root"`
	// PidsLimit becomes "--pids-limit N"; empty means [DefaultPidsLimit],
	// [Unlimited] leaves it out.
	PidsLimit string `yaml:"pids_limit"`
	// Memory becomes "--memory SIZE"; empty means [DefaultMemory],
	// [Unlimited] leaves it out.
	Memory string `yaml:"memory"`
	// CPUs becomes "--cpus N"; empty means [DefaultCPUs], [Unlimited]
	// leaves it out.
	CPUs string `yaml:"cpus"`

	// PolicyDir is the absolute directory of the policy file, against
	// which relative host paths of Volumes are resolved; empty means the
	// working directory of the process. Set by the loader.
	PolicyDir string `yaml:"-"`
}

// IsDocker reports whether commands run in a container (type docker, in
// any case).
func (e *Executor) IsDocker() bool { return strings.EqualFold(e.Type, ExecutorDocker) }

// Program returns the container CLI a docker executor runs: "docker" or
// "podman".
func (e *Executor) Program() string {
	if e.Runtime == "" {
		return RuntimeDocker
	}
	return e.Runtime
}

// ToolPolicy is the policy of one tool.
type ToolPolicy struct {
	// Description, when set, replaces the tool's description.
	Description string `yaml:"description"`
	// Confirm, when set, says whether every call of the tool needs the
	// user's approval before it runs, whatever the confirm rules say.
	Confirm *bool `yaml:"confirm"`
	// RequireApproval is CLImax 0.5's name of Confirm; the loader copies
	// it there.
	RequireApproval *bool `yaml:"require_approval"`
	// Args holds constraints by argument name.
	Args map[string]Constraint `yaml:"args"`

	// Pos is where the tool's name stands in the policy file. Set by the
	// loader; zero when unknown.
	Pos Pos `yaml:"-"`
}

// Constraint restricts the values of one argument.
type Constraint struct {
	// Pattern is a regular expression that must match the whole value.
	Pattern string `yaml:"pattern"`
	// Min is the inclusive lower bound of a numeric value, if set.
	Min *float64 `yaml:"min"`
	// Max is the inclusive upper bound of a numeric value, if set.
	Max *float64 `yaml:"max"`
	// MinItems and MaxItems bound the number of items of an array value,
	// if set. Pattern, Min and Max apply to each item.
	MinItems *int `yaml:"min_items"`
	MaxItems *int `yaml:"max_items"`

	// Pos is where the argument's name stands in the policy file. Set by
	// the loader; zero when unknown.
	Pos Pos `yaml:"-"`
}

// Pos is a 1-based line and column in a file; zero when unknown.
type Pos struct {
	Line, Column int
}
