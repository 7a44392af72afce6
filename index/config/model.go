package config

// Defaults applied by the loader to fields a config leaves out.
const (
	DefaultCLIName   = "climax"
	DefaultTimeout   = 30.0  // seconds
	DefaultMaxOutput = 65536 // bytes per stream
)

// ArgType is the JSON type of a tool argument.
type ArgType string

// The argument types a config may use. An empty type means [TypeString].
const (
	TypeString  ArgType = "string"
	TypeInteger ArgType = "integer"
	TypeNumber  ArgType = "number"
	TypeBoolean ArgType = "boolean"
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

	// Line is the line of the tool's entry in its file (0 if unknown).
	Line int `yaml:"-"`
}

// Arg is one argument of a tool (or a global arg of a config).
type Arg struct {
	// Name is the JSON property name.
	Name string `yaml:"name"`
	// Description is shown to the model.
	Description string `yaml:"description"`
	// Type is the JSON type; the loader sets [TypeString] when absent.
	Type ArgType `yaml:"type"`
	// Required means the caller must supply the argument.
	Required bool `yaml:"required"`
	// Default is used when the caller does not supply a value; nil when absent.
	Default any `yaml:"default"`
	// Flag is the option that precedes the value ("--format", "-n"). A
	// flag ending in "=" is joined with its value into one token.
	Flag string `yaml:"flag"`
	// Positional places the value directly on the command line.
	Positional bool `yaml:"positional"`
	// Enum lists the allowed values, if any.
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
	// Secret marks a value that must not be recorded: the audit log shows
	// "***" instead of it, in the arguments and in the command line.
	Secret bool `yaml:"secret"`
}

// Policy restricts which tools exist and what arguments they accept, and
// chooses how commands are executed. It is the content of a policy file.
type Policy struct {
	// Executor chooses local or docker execution.
	Executor Executor `yaml:"executor"`
	// Default is "disabled" (only listed tools exist) or "enabled" (all
	// tools exist). The loader sets "disabled" when absent.
	Default string `yaml:"default"`
	// Tools holds per-tool settings by tool name.
	Tools map[string]ToolPolicy `yaml:"tools"`

	// Source is the policy file's path. Set by the loader.
	Source string `yaml:"-"`
}

// Policy default values.
const (
	PolicyDisabled = "disabled"
	PolicyEnabled  = "enabled"
)

// Executor types.
const (
	ExecutorLocal  = "local"
	ExecutorDocker = "docker"
)

// Executor says how commands run: directly ("local") or inside
// `docker run` ("docker").
type Executor struct {
	// Type is "local" (the default) or "docker".
	Type string `yaml:"type"`
	// Image is the docker image; required for docker.
	Image string `yaml:"image"`
	// Volumes are env-expanded and each becomes "-v VOLUME".
	Volumes []string `yaml:"volumes"`
	// WorkingDir becomes "-w DIR".
	WorkingDir string `yaml:"working_dir"`
	// Network becomes "--network NETWORK".
	Network string `yaml:"network"`
}

// ToolPolicy is the policy of one tool.
type ToolPolicy struct {
	// Description, when set, replaces the tool's description.
	Description string `yaml:"description"`
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

	// Pos is where the argument's name stands in the policy file. Set by
	// the loader; zero when unknown.
	Pos Pos `yaml:"-"`
}

// Pos is a 1-based line and column in a file; zero when unknown.
type Pos struct {
	Line, Column int
}
