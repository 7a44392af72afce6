package scaffold

// A Command is one node of a program's command tree as discovery found it:
// the program itself (no Path) or a subcommand.
type Command struct {
	Path        []string // subcommand words after the program
	Description string
	Aliases     []string
	Flags       []*Flag
	Positionals []*Positional
	Children    []*Command
	// Source says where the node's own facts came from ("--help",
	// "__complete", ...).
	Source string
	// Problems are what went wrong while probing this node: a probe that
	// hung, flooded or failed. The draft keeps them as comments.
	Problems []string

	helpText   string // the help text the node's facts come from
	notCommand bool   // its help was its parent's: the word is no subcommand
	lastAnswer string // what the last help probe printed, for a problem
}

// Type is an arg type of the config language.
type Type string

// The types a drafted arg can have.
const (
	TypeBoolean Type = "boolean"
	TypeString  Type = "string"
	TypeInteger Type = "integer"
	TypeNumber  Type = "number"
	TypeArray   Type = "array"
)

// A Flag is one option of a command.
type Flag struct {
	Long  string // "--output", "-output" (Go flag style) or ""
	Short string // "-o" or ""
	// Value is the placeholder of the flag's value as the help wrote it
	// ("string", "<FILE>", "NUM"); "" for a switch.
	Value       string
	Type        Type
	Items       Type // item type of an array
	Enum        []string
	Default     string
	Description string
	// Joined: the value must be written --flag=VALUE (an optional value,
	// or a program that only takes that form).
	Joined bool
	// Global: the flag belongs to every command ("Global Flags").
	Global bool
	// Source says where the flag was seen: "--help", "__complete",
	// "--git-completion-helper".
	Source string
}

// Name is the flag as it goes on the command line: the long form when
// there is one.
func (f *Flag) Name() string {
	if f.Long != "" {
		return f.Long
	}
	return f.Short
}

// A Positional is an operand of a command, from its usage line.
type Positional struct {
	Name     string
	Required bool
	Variadic bool // "FILE..." : a list
	// AfterDashes: the usage puts the operands after "--" (git's
	// "[--] <path>...").
	AfterDashes bool
}
