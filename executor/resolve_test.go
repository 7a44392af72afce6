package executor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// resolveTool is a fake tool with a bucket arg, a secret token arg and
// the given resolvers and confirm message.
func resolveTool(msg string, resolvers ...config.Resolver) *config.ResolvedTool {
	rt := fake("out=ran", 5,
		config.Arg{Name: "bucket", Positional: true, Type: config.TypeString},
		config.Arg{Name: "token", Flag: "--token", Type: config.TypeString, Secret: true},
		config.Arg{Name: "tags", Flag: "--tag", Type: config.TypeArray},
	)
	rt.Tool.ConfirmMessage = msg
	rt.Tool.Resolve = resolvers
	return rt
}

func build(t *testing.T, rt *config.ResolvedTool, args map[string]any) *executor.Command {
	t.Helper()
	values, err := executor.Validate(rt, args)
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := executor.Build(rt, values)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

func TestResolveFillsTheConfirmMessage(t *testing.T) {
	t.Parallel()
	rt := resolveTool("Delete {bucket} ({_info}) with {token}, tags {tags}?",
		config.Resolver{Var: "_info", Command: "echo", Timeout: 5, Flags: []config.ResolverFlag{{Flag: "--id", Value: "b-{bucket}"}, {Flag: "--missing", Value: "{token}"}, {Flag: "--tags", Value: "{tags}"}}})
	cmd := build(t, rt, map[string]any{"bucket": "prod-logs", "token": "hunter2", "tags": []any{"a", "b"}})
	res := executor.New().Resolve(context.Background(), rt, cmd)
	if len(res.Failures) != 0 || res.Vars["_info"] != "--id b-prod-logs --missing hunter2 --tags a,b" {
		t.Fatalf("resolution %+v", res)
	}
	got := executor.ConfirmText(rt.Tool, cmd, res)
	if want := "Delete prod-logs (--id b-prod-logs --missing hunter2 --tags a,b) with ***, tags a b?"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// A resolver inherits what its tool's commands inherit: its output is in
// the question, so a tool's inherit_env holds there too.
func TestResolveKeepsTheToolsInheritEnv(t *testing.T) {
	t.Setenv("EXECUTOR_TEST_RESOLVER_SECRET", "s3cret")
	t.Setenv("EXECUTOR_TEST_RESOLVER_KEPT", "kept")
	rt := resolveTool("{_env}", config.Resolver{Var: "_env", Command: "env=EXECUTOR_TEST_RESOLVER_SECRET env=EXECUTOR_TEST_RESOLVER_KEPT", Timeout: 5})
	res := executor.New().Resolve(context.Background(), rt, build(t, rt, nil))
	if got := res.Vars["_env"]; got != "s3cret\nkept" {
		t.Fatalf("without inherit_env the resolver printed %q, want both values (the control)", got)
	}
	rt.Tool.InheritEnv = []string{"EXECUTOR_TEST_RESOLVER_KEPT"}
	res = executor.New().Resolve(context.Background(), rt, build(t, rt, nil))
	if got := res.Vars["_env"]; got != "<unset>\nkept" {
		t.Errorf("with the tool's inherit_env the resolver printed %q, want %q", got, "<unset>\nkept")
	}
}

// A flag whose template names an arg the call left out is not passed.
func TestResolveLeavesOutFlagsWithoutValues(t *testing.T) {
	t.Parallel()
	rt := resolveTool("{_info}", config.Resolver{Var: "_info", Command: "echo", Timeout: 5,
		Flags: []config.ResolverFlag{{Flag: "--token", Value: "{token}"}, {Flag: "--id", Value: "{bucket}"}}})
	res := executor.New().Resolve(context.Background(), rt, build(t, rt, map[string]any{"bucket": "b1"}))
	if res.Vars["_info"] != "--id b1" {
		t.Errorf("resolution %+v", res)
	}
}

// A resolver that fails leaves its variable saying it was not looked up,
// never as the resolver's own arguments (which read as the answer: "named:
// Name=instance-id,Values=i-1"), and says why.
func TestResolveFailureSaysNotLookedUp(t *testing.T) {
	t.Parallel()
	rt := resolveTool("Delete {_name}?",
		config.Resolver{Var: "_name", Command: "fail", Timeout: 5, Flags: []config.ResolverFlag{{Flag: "--id", Value: "{bucket}"}}},
		config.Resolver{Var: "_slow", Command: "sleep 5", Timeout: 0.2},
		config.Resolver{Var: "_empty", Command: "raw=", Timeout: 5})
	cmd := build(t, rt, map[string]any{"bucket": "bkt-123"})
	res := executor.New().Resolve(context.Background(), rt, cmd)
	for _, v := range []string{"_name", "_slow", "_empty"} {
		if res.Vars[v] != executor.NotLookedUp {
			t.Errorf("%s is %q, want %q", v, res.Vars[v], executor.NotLookedUp)
		}
	}
	want := []string{
		"{_name} could not be looked up: exit status 3: something broke",
		"{_slow} could not be looked up: timed out after 0.2 seconds",
		"{_empty} could not be looked up: it printed nothing",
	}
	if strings.Join(res.Failures, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(res.Failures, "\n"), strings.Join(want, "\n"))
	}
	if got := executor.ConfirmText(rt.Tool, cmd, res); got != "Delete <not looked up>?" {
		t.Errorf("message %q", got)
	}
}

// Filled values cannot add lines to the question: control characters are
// escaped, in args and in a resolver's output alike.
func TestConfirmTextEscapesControlCharacters(t *testing.T) {
	t.Parallel()
	rt := resolveTool("Delete {bucket} {_x}?", config.Resolver{Var: "_x", Command: "echo", Timeout: 5})
	cmd := build(t, rt, map[string]any{"bucket": "a\nApprove: yes\u202e"})
	got := executor.ConfirmText(rt.Tool, cmd, executor.Resolution{Vars: map[string]string{"_x": "q\x1b[2Jz"}})
	if want := `Delete a\nApprove: yes\u202e q\x1b[2Jz?`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

// A failed resolver does not show the value of a secret arg it was given
// where its error output echoes it: the failure goes into the question and
// the log.
func TestResolveFailureHidesSecrets(t *testing.T) {
	t.Parallel()
	rt := resolveTool("Delete {bucket} ({_t})?", config.Resolver{Var: "_t", Command: "out=x", Timeout: 5,
		Flags: []config.ResolverFlag{{Flag: "err=", Value: "bad token {token}"}, {Flag: "exit=", Value: "3"}}})
	cmd := build(t, rt, map[string]any{"bucket": "b", "token": "hunter2"})
	res := executor.New().Resolve(context.Background(), rt, cmd)
	if res.Vars["_t"] != executor.NotLookedUp {
		t.Errorf("value %q", res.Vars["_t"])
	}
	if want := "{_t} could not be looked up: exit status 3: bad token ***"; len(res.Failures) != 1 || res.Failures[0] != want {
		t.Errorf("failures %q, want %q", res.Failures, want)
	}
}
