// Package executor turns a tool call into a finished command: it validates
// and coerces arguments, checks policy constraints, builds the argv and runs
// the subprocess safely (timeout, process-group kill, output limits).
//
// Classic tool calls and climax_call both go through [Runner.Call], so
// their results are identical by construction.
package executor
