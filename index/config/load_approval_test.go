package config

import (
	"reflect"
	"strings"
	"testing"
)

// TestParseApprovalKeyErrors covers risk, confirm_message and resolve as
// CLImax 0.5 configs write them: each wrong shape is one problem with its
// position and, where a name is close, a did-you-mean.
func TestParseApprovalKeyErrors(t *testing.T) {
	args := []string{"    args:", "      - {name: bucket, positional: true}"} // lines 5-6
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "unknown risk",
			src:  tool1("    risk: high"),
			want: []string{`t.yaml:5:11: tool "t": unknown risk "high" (did you mean "destructive"?): valid levels are read, write, destructive`},
		},
		{
			name: "misspelt risk",
			src:  tool1("    risk: wirte"),
			want: []string{`t.yaml:5:11: tool "t": unknown risk "wirte" (did you mean "write"?): valid levels are read, write, destructive`},
		},
		{
			name: "risk read against read_only false",
			src:  tool1("    risk: read", "    read_only: false"),
			want: []string{`t.yaml:6:16: tool "t": risk: read means read_only: true, but the tool says read_only: false; remove one of them`},
		},
		{
			name: "risk write against destructive true",
			src:  tool1("    destructive: true", "    risk: write"),
			want: []string{`t.yaml:5:18: tool "t": risk: write means destructive: false, but the tool says destructive: true; remove one of them`},
		},
		{
			name: "risk destructive against read_only true",
			src:  tool1("    risk: destructive", "    read_only: true"),
			want: []string{`t.yaml:6:16: tool "t": risk: destructive means read_only: false, but the tool says read_only: true; remove one of them`},
		},
		{
			name: "confirm_message naming an unknown arg",
			src:  tool1(append(args, `    confirm_message: "Delete {buckt}?"`)...),
			want: []string{`t.yaml:7:22: tool "t": confirm_message: {buckt} is neither an arg of the tool nor a resolve variable (did you mean {bucket}?)`},
		},
		{
			name: "confirm_message naming an unknown resolver",
			src:  tool1(append(args, `    confirm_message: "Delete {_sise}?"`, "    resolve:", "      _size: {command: ls, args: {id: \"{bucket}\"}}")...),
			want: []string{`t.yaml:7:22: tool "t": confirm_message: {_sise} is neither an arg of the tool nor a resolve variable (did you mean {_size}?)`},
		},
		{
			name: "confirm_message with an unclosed brace",
			src:  tool1(append(args, `    confirm_message: "Delete {bucket?"`)...),
			want: []string{`t.yaml:7:22: tool "t": confirm_message: "{" at byte 8 is not closed: write {name} for a value, or {{ for a literal brace`},
		},
		{
			name: "resolve without command",
			src:  tool1(append(args, `    confirm_message: "Delete {_size}?"`, "    resolve:", "      _size: {args: {id: \"{bucket}\"}}")...),
			want: []string{`t.yaml:9:7: tool "t": resolve "_size": missing "command": add the subcommand that prints the value, appended to the CLI's command as a tool's is (e.g. command: s3api get-bucket-location)`},
		},
		{
			name: "resolve with a negative timeout",
			src:  tool1(append(args, `    confirm_message: "Delete {_size}?"`, "    resolve:", "      _size: {command: ls, timeout: -1}")...),
			want: []string{`t.yaml:9:37: tool "t": resolve "_size": timeout must be more than 0 seconds, got -1`},
		},
		{
			name: "resolve args naming an unknown arg",
			src:  tool1(append(args, `    confirm_message: "Delete {_size}?"`, "    resolve:", "      _size: {command: ls, args: {id: \"{buckets}\"}}")...),
			want: []string{`t.yaml:9:39: tool "t": resolve "_size": args: "id": {buckets} is not an arg of the tool (did you mean {bucket}?)`},
		},
		{
			name: "resolve key misspelt",
			src:  tool1(append(args, `    confirm_message: "Delete {_size}?"`, "    resolve:", "      _size: {command: ls, timout: 5}")...),
			want: []string{`t.yaml:9:28: tool "t": resolve "_size": unknown key "timout" (did you mean "timeout"?)`},
		},
		{
			name: "resolve variable named like an arg",
			src:  tool1(append(args, `    confirm_message: "Delete {bucket}?"`, "    resolve:", "      bucket: {command: ls}")...),
			want: []string{`t.yaml:9:7: tool "t": resolve "bucket": an arg has this name, so {bucket} in confirm_message would be ambiguous: rename the variable (e.g. _bucket)`},
		},
		{
			name: "resolve without confirm_message",
			src:  tool1(append(args, "    resolve:", "      _size: {command: ls}")...),
			want: []string{`t.yaml:8:7: tool "t": resolve has no use without a confirm_message that names its variables (e.g. confirm_message: "Delete {_size}?")`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.src), "t.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded with %+v; want problems:\n  %s", c, strings.Join(tt.want, "\n  "))
			}
			wantProblems(t, problemLines(t, err), tt.want, true)
		})
	}
}

// TestParseApprovalKeys checks what the loader makes of well-formed 0.5
// keys: risk sets the annotations (and agrees with consistent ones),
// resolvers keep their order, flags and default timeout.
func TestParseApprovalKeys(t *testing.T) {
	src := `command: aws
tools:
  - name: r
    description: d
    risk: read
    read_only: true
  - name: w
    description: d
    risk: write
  - name: x
    description: d
    risk: destructive
    destructive: true
    confirm_message: "Delete {bucket} ({_size}, {_region})? {{literal}}"
    args:
      - {name: bucket, positional: true}
    resolve:
      _size:
        command: s3 ls
        args: {summarize: "yes", page_size: "{bucket}", --query: "x{bucket}y"}
        timeout: 2.5
      _region:
        command: s3api get-bucket-location
  - name: plain
    description: d
`
	c, err := Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ann := func(b *bool) string {
		if b == nil {
			return "unset"
		}
		if *b {
			return "true"
		}
		return "false"
	}
	got := map[string]string{}
	for _, tl := range c.Tools {
		got[tl.Name] = string(tl.Risk) + " ro=" + ann(tl.ReadOnly) + " d=" + ann(tl.Destructive)
	}
	want := map[string]string{
		"r":     "read ro=true d=unset",
		"w":     "write ro=false d=false",
		"x":     "destructive ro=false d=true",
		"plain": " ro=unset d=unset", // no risk: the annotations stay as given
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("annotations:\n got %v\nwant %v", got, want)
	}
	x := c.Tools[2]
	wantRes := []Resolver{
		{Var: "_size", Command: "s3 ls", Timeout: 2.5, Line: 19, Flags: []ResolverFlag{{"--summarize", "yes"}, {"--page-size", "{bucket}"}, {"--query", "x{bucket}y"}}},
		{Var: "_region", Command: "s3api get-bucket-location", Timeout: DefaultResolveTimeout, Line: 23},
	}
	if !reflect.DeepEqual(x.Resolve, wantRes) {
		t.Errorf("resolvers:\n got %+v\nwant %+v", x.Resolve, wantRes)
	}
	if x.ConfirmMessage != "Delete {bucket} ({_size}, {_region})? {{literal}}" {
		t.Errorf("confirm message %q", x.ConfirmMessage)
	}
}

func TestParseTemplate(t *testing.T) {
	parts, err := ParseTemplate("a {{b}} {c}!")
	want := []TemplatePart{{Text: "a {b} "}, {Var: "c"}, {Text: "!"}}
	if err != nil || !reflect.DeepEqual(parts, want) {
		t.Errorf("got %+v, %v; want %+v", parts, err, want)
	}
	for _, bad := range []string{"{", "}", "{}", "{a b}", "x{y"} {
		if _, err := ParseTemplate(bad); err == nil {
			t.Errorf("ParseTemplate(%q) succeeded", bad)
		}
	}
}
