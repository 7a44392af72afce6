// Package executor turns a tool call into a finished command: it validates
// and coerces arguments, checks policy constraints, builds the argv and runs
// the subprocess safely (timeout, process-group kill, output limits).
//
// Classic tool calls and climax_call both go through [Runner.Prepare] and
// [Call.Run], so their results are identical by construction:
//
//	r := executor.New()
//	c, refused := r.Prepare(rt, map[string]any{"max_count": "5"})
//	if c == nil {
//		return refused // the validation problems
//	}
//	// Decide on c here: ask for approval when c.Tool.Confirm is set.
//	out := c.Run(ctx)
//	// out.Text is the result text; out.IsError marks every failure;
//	// out.Result (nil when nothing ran) is the structuredContent.
//
// [Runner.Call] does both for a caller that asks nobody anything.
//
// # Steps
//
// [Runner.Prepare] is [Validate] (required → coercion → enum → safety,
// then policy constraints; every problem reported at once as a
// [ValidationError]) and [Build] (the [Command]: argv per docs/calls.md,
// working directory, extra environment, stdin, limits; docker prefix with
// a docker executor). The caller decides on the [Call]; [Call.Run] waits
// for a slot, runs [Runner.Run] (the subprocess) and [Result.Text] (the
// result text). Each step is exported for callers that need only part of
// it, such as a validate-only check or a dry run that shows the argv.
//
// # Safety
//
// No shell is ever involved: each argument value (each item of an
// array) is exactly one argv token. A positional value starting with "-"
// is refused unless the argument sets allow_leading_dash or
// after_double_dash (its values follow a "--" separator), and no value
// may contain a NUL byte (stdin values excepted); caller values are never
// expanded ("~" stays "~"; the one exception is a working directory,
// where a leading "~" is the home directory), and a relative program path is resolved from
// the config, never from a call's cwd. Commands inherit the environment
// without CLImax's secrets (see [Runner.Run]).
//
// Every command runs in its own process tree: its process group (on
// Windows, a job object). On timeout or cancellation the tree gets
// SIGTERM, then SIGKILL after a grace period ([WithGracePeriod]), and
// whatever is left of it after the command exits is killed too, so no
// descendant outlives the call. On Linux the tree also holds descendants
// that left the group, found through /proc, and, in a program that called
// [EnableSubreaper] (as the climax command does), the call's orphans; and
// a command dies with the process that started it. Standard input is the
// stdin argument or empty, never the server's own stdin (which carries the
// MCP protocol). Each output stream keeps at most its limit, head and tail
// around an omission marker, in bounded memory, as valid UTF-8.
//
// Package executortest turns a test binary into a fake CLI for tests of
// code that runs commands.
//
// # Exit codes
//
// [Result].ExitCode is the command's exit status, or 128+N when signal N
// killed it (the shell convention; 143 or 137 after a timeout), as in the
// result text's "[exit code: N]". A non-zero exit code is an error for
// the caller (Outcome.IsError) unless the tool lists it in
// success_exit_codes; the text and ExitCode are the same either way.
//
// # Unknown argument names
//
// Argument names the tool does not have are ignored, and listed in
// [Result].IgnoredArgs (structuredContent "ignored_args") with the
// argument they probably stand for, and in the first line of the result
// text; [WithStrictArgs] makes them validation errors instead.
package executor
