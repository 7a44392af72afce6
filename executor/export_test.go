package executor

import (
	"fmt"

	"github.com/climax-mcp/climax/index/config"
)

// Test-only access to steps that have no caller outside the package.

// BuildArgv returns the command line [Build] makes for rt and values.
func BuildArgv(rt *config.ResolvedTool, values map[string]any) ([]string, error) {
	cmd, err := Build(rt, values)
	if err != nil {
		return nil, err
	}
	return cmd.Argv, nil
}

// Coerce converts v to the Go value of an argument of type typ (empty
// means string): int64, float64, bool or string. It applies the
// conversions [Validate] documents and fails for anything else.
func Coerce(typ config.ArgType, v any) (any, error) {
	out, err := coerce(typ, v)
	if err != nil {
		return nil, fmt.Errorf("cannot convert %s to %s", describe(v), typeName(typ))
	}
	return out, nil
}

// WithoutValues returns a copy of c without the args' values, to compare
// commands as literals.
func (c *Command) WithoutValues() *Command {
	out := *c
	out.values = nil
	return &out
}
