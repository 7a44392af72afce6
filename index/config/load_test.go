package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// problemLines returns the problems of a *LoadError as "file:line:col: msg"
// lines, failing the test when err is something else.
func problemLines(t *testing.T, err error) []string {
	t.Helper()
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *LoadError", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

// wantProblems checks that parsing src as "t.yaml" fails with every line in
// want among its problems (and, when exact, no others).
func wantProblems(t *testing.T, got []string, want []string, exact bool) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("missing problem\n  %s\ngot:\n  %s", w, strings.Join(got, "\n  "))
		}
	}
	if exact && len(got) != len(want) {
		t.Errorf("got %d problems, want %d:\n  %s", len(got), len(want), strings.Join(got, "\n  "))
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // every problem, exactly
	}{
		{
			name: "malformed yaml",
			src:  "command: git\ntools: [\n",
			want: []string{"t.yaml:2: invalid YAML: did not find expected node content"},
		},
		{
			name: "arg patterns",
			src:  "command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: a, pattern: \"safe)|(.*\"}\n      - {name: b, pattern: \"\"}\n",
			want: []string{
				"t.yaml:6:28: tool \"t\": arg \"a\": pattern is not a valid Go regular expression (error parsing regexp: unexpected ): `safe)|(.*`): fix it",
				"t.yaml:7:28: tool \"t\": arg \"b\": pattern is empty: remove it, or give a regular expression every value must match",
			},
		},
		{
			name: "pattern on a boolean",
			src:  "command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: b, type: boolean, flag: -b, pattern: x}\n",
			want: []string{"t.yaml:6:53: tool \"t\": arg \"b\": pattern does not apply to a boolean arg (its values are true and false): remove it"},
		},
		{
			name: "arg name with a space",
			src:  "command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: \"weird name\"}\n",
			want: []string{"t.yaml:6:16: tool \"t\": arg \"weird name\": invalid arg name: use letters, digits, \"_\", \"-\" or \".\" (e.g. max_count)"},
		},
		{
			name: "name not a string",
			src:  "name: true\ncommand: x\ntools: []\n",
			want: []string{"t.yaml:1:7: name: expected a string, got a boolean (true); quote it: \"true\""},
		},
		{
			name: "reserved tool name",
			src:  "command: x\ntools:\n  - {name: climax_call, description: d}\n",
			want: []string{"t.yaml:3:12: tool \"climax_call\": climax_call is the name of CLImax's own meta-tool: name the tool after its CLI and action (e.g. git_status)"},
		},
		{
			name: "tab indentation",
			src:  "command: git\ntools:\n\t- name: x\n",
			want: []string{"t.yaml:3: invalid YAML: found character that cannot start any token"},
		},
		{
			// The YAML reader gives no position for these: the loader finds
			// the byte.
			name: "control character",
			src:  "command: git\ndescription: \"é\x01\"\ntools: []\n",
			want: []string{"t.yaml:2:16: invalid YAML: control characters are not allowed"},
		},
		{
			name: "invalid UTF-8",
			src:  "command: git\ntools: []\n# \xff\n",
			want: []string{"t.yaml:3:3: invalid YAML: invalid leading UTF-8 octet"},
		},
		{
			name: "empty file",
			src:  "",
			want: []string{"t.yaml: config file is empty: a config needs at least command and tools"},
		},
		{
			name: "only comments",
			src:  "# nothing here\n",
			want: []string{"t.yaml: config file is empty: a config needs at least command and tools"},
		},
		{
			name: "null document",
			src:  "---\n",
			want: []string{"t.yaml: config file is empty: a config needs at least command and tools"},
		},
		{
			name: "document is a list",
			src:  "- command: git\n",
			want: []string{"t.yaml:1:1: expected a mapping of keys at the top level, got a list: a config needs at least command and tools"},
		},
		{
			name: "document is a string",
			src:  "git\n",
			want: []string{`t.yaml:1:1: expected a mapping of keys at the top level, got "git": a config needs at least command and tools`},
		},
		{
			name: "two documents",
			src:  "command: git\ntools: []\n---\ncommand: jj\ntools: []\n",
			want: []string{`t.yaml:3:1: more than one YAML document ("---"): keep one config per file`},
		},
		{
			name: "missing command and tools",
			src:  "name: git\n",
			want: []string{
				"t.yaml:1:1: missing \"command\": add the program to run, e.g. command: git",
				"t.yaml:1:1: missing \"tools\": add a list of tools (tools: [] for none)",
			},
		},
		{
			name: "empty command",
			src:  "command: \"  \"\ntools: []\n",
			want: []string{"t.yaml:1:10: command is empty: add the program to run, e.g. command: git"},
		},
		{
			name: "null tools",
			src:  "command: git\ntools:\n",
			want: []string{"t.yaml:1:1: missing \"tools\": add a list of tools (tools: [] for none)"},
		},
		{
			name: "tools is a mapping",
			src:  "command: git\ntools:\n  git_status: {}\n",
			want: []string{`t.yaml:3:3: tools: expected a list of tools (lines starting with "- "), got a mapping`},
		},
		{
			name: "tool missing name and description",
			src:  "command: git\ntools:\n  - command: status\n",
			want: []string{
				"t.yaml:3:5: tool #1: missing \"name\": add the MCP tool name, e.g. name: git_status",
				"t.yaml:3:5: tool #1: missing \"description\": add a sentence telling the model what the tool does",
			},
		},
		{
			name: "tool with empty description",
			src:  "command: git\ntools:\n  - name: git_status\n    description: \"\"\n",
			want: []string{`t.yaml:4:18: tool "git_status": description is empty: add a sentence telling the model what the tool does`},
		},
		{
			name: "tool is a string",
			src:  "command: git\ntools:\n  - git_status\n",
			want: []string{`t.yaml:3:5: tool #1: expected a mapping (key: value lines), got "git_status"`},
		},
		{
			name: "empty tool entry",
			src:  "command: git\ntools:\n  -\n",
			want: []string{"t.yaml:3:4: tool #1: empty tool: give at least name and description"},
		},
		{
			name: "arg missing name",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - flag: --x\n",
			want: []string{`t.yaml:6:9: tool "t": arg #1: missing "name": add the argument's JSON property name, e.g. name: path`},
		},
		{
			name: "timeout not a number",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    timeout: abc\n",
			want: []string{`t.yaml:5:14: tool "t": timeout: expected a number of seconds, got "abc"`},
		},
		{
			name: "tags not a list",
			src:  "command: git\ntags: foo\ntools: []\n",
			want: []string{`t.yaml:2:7: tags: expected a list of strings, got "foo"; write tags: [foo]`},
		},
		{
			name: "tags holds a mapping",
			src:  "command: git\ntags: [a, {b: c}]\ntools: []\n",
			want: []string{`t.yaml:2:11: tags: expected a string in the list, got a mapping`},
		},
		{
			name: "keywords as one string",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    keywords: history\n",
			want: []string{`t.yaml:5:15: tool "t": keywords: expected a list of words and phrases, got "history"; write keywords: [history]`},
		},
		{
			name: "keywords with an empty string, a boolean and a mapping",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    keywords: [log, \" \", true, {a: b}]\n",
			want: []string{
				`t.yaml:5:21: tool "t": keywords: empty keyword: remove it or write a word`,
				`t.yaml:5:26: tool "t": keywords: expected a string in the list, got a boolean (true); quote it: "true"`,
				`t.yaml:5:32: tool "t": keywords: expected a string in the list, got a mapping`,
			},
		},
		{
			name: "required as a string",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        required: \"yes\"\n",
			want: []string{`t.yaml:7:19: tool "t": arg "a": required: expected true or false, got "yes"`},
		},
		{
			name: "description as a boolean",
			src:  "command: git\ndescription: true\ntools: []\n",
			want: []string{`t.yaml:2:14: description: expected a string, got a boolean (true); quote it: "true"`},
		},
		{
			name: "max_output not whole",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    max_output: 1.5\n",
			want: []string{`t.yaml:5:17: tool "t": max_output: expected a whole number, got a number (1.5)`},
		},
		{
			name: "env is a list",
			src:  "command: git\nenv: [A=1]\ntools: []\n",
			want: []string{`t.yaml:2:6: env: expected a mapping of names to values, got a list`},
		},
		{
			name: "env names that are no variable names",
			src:  "command: git\nenv: {\"A=B\": x, \"\": y, C: z}\ntools: []\n",
			want: []string{
				`t.yaml:2:7: env: "A=B" is not a variable name: a name is not empty and has no "="`,
				`t.yaml:2:17: env: "" is not a variable name: a name is not empty and has no "="`,
			},
		},
		{
			name: "tool env is a list",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    env: [A=1]\n",
			want: []string{`t.yaml:5:10: tool "t": env: expected a mapping of names to values, got a list`},
		},
		{
			name: "args is a mapping",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args: {a: 1}\n",
			want: []string{`t.yaml:5:11: tool "t": args: expected a list of args (lines starting with "- "), got a mapping`},
		},
		{
			name: "unknown arg type",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        type: list\n",
			want: []string{`t.yaml:7:15: tool "t": arg "a": unknown type "list" (did you mean "array"?): valid types are string, integer, number, boolean, array, json`},
		},
		{
			name: "arg type from another language",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        type: int\n",
			want: []string{`t.yaml:7:15: tool "t": arg "a": unknown type "int" (did you mean "integer"?): valid types are string, integer, number, boolean, array, json`},
		},
		{
			name: "misspelt arg type",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        type: boolen\n",
			want: []string{`t.yaml:7:15: tool "t": arg "a": unknown type "boolen" (did you mean "boolean"?): valid types are string, integer, number, boolean, array, json`},
		},
		{
			name: "json arg: enum, cwd, non-JSON default",
			src: "command: jq\ntools:\n  - name: t\n    description: d\n    args:\n" +
				"      - {name: b, type: json, enum: [x]}\n" +
				"      - {name: c, type: json, cwd: true}\n" +
				"      - {name: d, type: json, default: {1: x}}\n",
			want: []string{
				`t.yaml:6:37: tool "t": arg "b": enum is not allowed on a json arg: remove it`,
				`t.yaml:7:36: tool "t": arg "c": a cwd arg names a directory: remove type: json (its type is string)`,
				`t.yaml:8:40: tool "t": arg "d": default is not a JSON value: write a mapping with string keys, a list, a string, a number or a boolean`,
			},
		},
		{
			name: "exit_codes",
			src: "command: git\ntools:\n  - name: t\n    description: d\n    exit_codes: {0: ok, 1: \"\", 300: x, 2: true, 3: [a]}\n" +
				"  - name: u\n    description: d\n    exit_codes: [1]\n",
			want: []string{
				`t.yaml:5:18: tool "t": exit_codes: expected an exit code from 1 to 255, got a number (0)`,
				`t.yaml:5:28: tool "t": exit_codes: 1: the meaning is empty: say what the exit code means, e.g. "no matches"`,
				`t.yaml:5:32: tool "t": exit_codes: expected an exit code from 1 to 255, got a number (300)`,
				`t.yaml:5:43: tool "t": exit_codes: 2: expected a short text saying what it means, got a boolean (true)`,
				`t.yaml:5:52: tool "t": exit_codes: 3: expected a short text saying what it means, got a list`,
				`t.yaml:8:17: tool "u": exit_codes: expected a mapping of exit codes to what they mean, e.g. exit_codes: {1: "no matches"}, got a list`,
			},
		},
		{
			name: "type object means json",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        type: object\n",
			want: []string{`t.yaml:7:15: tool "t": arg "a": unknown type "object" (did you mean "json"?): valid types are string, integer, number, boolean, array, json`},
		},
		{
			name: "positional with flag",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        positional: true\n        flag: --a\n",
			want: []string{`t.yaml:8:15: tool "t": arg "a": an arg cannot be both positional and have a flag: remove one`},
		},
		{
			name: "positional false with flag is fine but empty flag is not",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        positional: false\n        flag: \"\"\n",
			want: []string{`t.yaml:8:15: tool "t": arg "a": flag is empty: give the option, e.g. flag: --format, or remove it`},
		},
		{
			name: "stdin with flag and cwd with positional",
			src: "command: git\ntools:\n  - name: t\n    description: d\n    args:\n" +
				"      - name: a\n        stdin: true\n        flag: --a\n" +
				"      - name: b\n        cwd: true\n        positional: true\n",
			want: []string{
				`t.yaml:8:15: tool "t": arg "a": a stdin arg never goes on the command line: remove flag`,
				`t.yaml:11:21: tool "t": arg "b": a cwd arg never goes on the command line: remove positional`,
			},
		},
		{
			name: "stdin and cwd together",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        stdin: true\n        cwd: true\n",
			want: []string{`t.yaml:8:14: tool "t": arg "a": an arg cannot be both stdin and cwd: remove one`},
		},
		{
			name: "two stdin args",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        stdin: true\n      - name: b\n        stdin: true\n",
			want: []string{`t.yaml:8:9: tool "t": arg "b": only one arg can be stdin (another is at line 6)`},
		},
		{
			name: "duplicate arg names",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n      - name: b\n      - name: a\n",
			want: []string{`t.yaml:8:15: tool "t": arg "a": another arg has this name (line 6): rename one`},
		},
		{
			name: "duplicate tool names",
			src:  "command: git\ntools:\n  - name: t\n    description: d\n  - name: u\n    description: d\n  - name: t\n    description: e\n",
			want: []string{`t.yaml:7:11: tool "t": another tool has this name (line 3): rename one`},
		},
		{
			name: "duplicate key",
			src:  "command: git\ncommand: jj\ntools: []\n",
			want: []string{`t.yaml:2:1: key "command" is given twice (first at line 1); remove one`},
		},
		{
			name: "unknown keys at every level",
			src: "command: git\ncatgory: vcs\nglobal_args:\n  - name: g\n    defualt: x\ntools:\n  - name: t\n    description: d\n    timout: 3\n" +
				"    args:\n      - name: a\n        requried: true\n        colour: red\n",
			want: []string{
				`t.yaml:2:1: unknown key "catgory" (did you mean "category"?)`,
				`t.yaml:5:5: global arg "g": unknown key "defualt" (did you mean "default"?)`,
				`t.yaml:9:5: tool "t": unknown key "timout" (did you mean "timeout"?)`,
				`t.yaml:12:9: tool "t": arg "a": unknown key "requried" (did you mean "required"?)`,
				`t.yaml:13:9: tool "t": arg "a": unknown key "colour" (valid keys: name, description, type, items, required, default, flag, positional, enum, stdin, cwd, allow_leading_dash, after_double_dash, secret, pattern)`,
			},
		},
		{
			name: "defaults that do not fit the type",
			src: "command: git\ntools:\n  - name: t\n    description: d\n    args:\n" +
				"      - name: a\n        type: integer\n        default: abc\n" +
				"      - name: b\n        default: [x, y]\n" +
				"      - name: c\n        default: {x: 1}\n" +
				"      - name: d\n        default: true\n" +
				"      - name: e\n        type: boolean\n        default: maybe\n" +
				"      - name: f\n        type: number\n        default: .nan\n" +
				"      - name: g\n        type: integer\n        default: 1.5\n",
			want: []string{
				`t.yaml:8:18: tool "t": arg "a": default "abc" does not fit type integer`,
				`t.yaml:10:18: tool "t": arg "b": default must be a single string value, got a list; for several values use type: array`,
				`t.yaml:12:18: tool "t": arg "c": default must be a single string value, got a mapping`,
				`t.yaml:14:18: tool "t": arg "d": default a boolean (true) does not fit type string; quote it: "true"`,
				`t.yaml:17:18: tool "t": arg "e": default "maybe" does not fit type boolean`,
				`t.yaml:20:18: tool "t": arg "f": default must be a finite number, got .nan`,
				`t.yaml:23:18: tool "t": arg "g": default a number (1.5) does not fit type integer`,
			},
		},
		{
			name: "timeouts and limits out of range",
			src: "command: git\ntools:\n  - name: t\n    description: d\n    timeout: -1\n    max_output: -5\n" +
				"  - name: u\n    description: d\n    timeout: .inf\n    max_output: 0\n" +
				"  - name: v\n    description: d\n    timeout: 0\n" +
				"  - name: w\n    description: d\n    timeout: 1e12\n",
			want: []string{
				`t.yaml:5:14: tool "t": timeout must be more than 0 seconds, got -1`,
				`t.yaml:6:17: tool "t": max_output must be more than 0 bytes, got -5`,
				`t.yaml:9:14: tool "u": timeout: expected a finite number, got .inf`,
				`t.yaml:10:17: tool "u": max_output must be more than 0 bytes, got 0`,
				`t.yaml:13:14: tool "v": timeout must be more than 0 seconds, got 0`,
				`t.yaml:16:14: tool "w": timeout must be at most 3.1536e+07 seconds (one year), got 1e+12`,
			},
		},
		{
			name: "enum rules",
			src: "command: git\ntools:\n  - name: t\n    description: d\n    args:\n" +
				"      - name: a\n        enum: [json, text]\n        default: csv\n" +
				"      - name: b\n        type: boolean\n        enum: [\"true\"]\n" +
				"      - name: c\n        enum: json\n" +
				"      - name: d\n        enum: []\n" +
				"      - name: e\n        type: integer\n        enum: [1, two]\n" +
				"      - name: f\n        enum: [a, a, true]\n",
			want: []string{
				`t.yaml:8:18: tool "t": arg "a": default "csv" is not one of the enum values (json, text)`,
				`t.yaml:11:15: tool "t": arg "b": enum is not allowed on a boolean arg: remove it`,
				`t.yaml:13:15: tool "t": arg "c": enum: expected a list of allowed values, got "json"; write enum: [json]`,
				`t.yaml:15:15: tool "t": arg "d": enum is empty: list the allowed values or remove it`,
				`t.yaml:18:19: tool "t": arg "e": enum value "two" is not an integer`,
				`t.yaml:20:19: tool "t": arg "f": enum lists "a" twice: remove one`,
				`t.yaml:20:22: tool "t": arg "f": enum: expected a string value, got a boolean (true); quote it: "true"`,
			},
		},
		{
			name: "invalid tool names",
			src: "command: git\ntools:\n  - name: git status\n    description: d\n  - name: " + strings.Repeat("x", 129) + "\n    description: d\n" +
				"  - name: \"\"\n    description: d\n",
			want: []string{
				`t.yaml:3:11: tool "git status": invalid tool name: use 1 to 128 letters, digits, "_", "-" or "." (e.g. git_status)`,
				`t.yaml:5:11: tool "` + strings.Repeat("x", 80) + `"…: invalid tool name: use 1 to 128 letters, digits, "_", "-" or "." (e.g. git_status)`,
				`t.yaml:7:11: tool #3: name is empty: add the MCP tool name, e.g. name: git_status`,
			},
		},
		{
			name: "global args cannot be stdin or required",
			src:  "command: git\nglobal_args:\n  - name: g\n    stdin: true\n    required: true\ntools: []\n",
			want: []string{
				`t.yaml:3:5: global arg "g": stdin and cwd are not allowed in global_args; move the arg to a tool`,
				`t.yaml:3:5: global arg "g": required is not allowed in global_args: callers cannot set them; give a default instead`,
			},
		},
		{
			name: "command as a boolean",
			src:  "command: true\ntools: []\n",
			want: []string{`t.yaml:1:10: command: expected a string, got a boolean (true); quote it: "true"`},
		},
		{
			name: "empty cli name",
			src:  "name: \"\"\ncommand: git\ntools: []\n",
			want: []string{`t.yaml:1:7: name is empty: remove it or name the CLI, e.g. name: git`},
		},
		{
			name: "merge of a scalar",
			src:  "command: git\ntools:\n  - <<: 3\n    name: t\n    description: d\n",
			want: []string{`t.yaml:3:9: tool "t": merge ("<<") needs a mapping or a list of mappings, got a number (3)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.src), "t.yaml")
			if err == nil {
				t.Fatalf("Parse succeeded with %+v; want problems:\n  %s", c, strings.Join(tt.want, "\n  "))
			}
			if c != nil {
				t.Errorf("Parse returned a config with an error")
			}
			wantProblems(t, problemLines(t, err), tt.want, true)
		})
	}
}

// TestParseReportsEveryProblem checks that one file's problems all come
// back together, sorted by position, from a testdata file.
func TestParseReportsEveryProblem(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no testdata/invalid/*.yaml")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			want, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			_, err = LoadFile(f)
			if err == nil {
				t.Fatal("LoadFile succeeded")
			}
			got := problemLines(t, err)
			wantLines := strings.Split(strings.TrimSpace(string(want)), "\n")
			if !slices.Equal(got, wantLines) {
				t.Errorf("problems differ\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
			}
			if err.Error() != strings.Join(wantLines, "\n") {
				t.Errorf("Error() = %q, want the problems one per line", err.Error())
			}
		})
	}
}

func TestParseDefaults(t *testing.T) {
	src := `command: git
global_args:
  - name: vault
    flag: "vault="
    default: "$VAULT"
tools:
  - name: git_status
    description: Show status
    args:
      - name: short
        flag: --short
  - name: git_log
    description: Show log
    keywords: [history, "recent commits", 42]
    timeout: 2.5
    max_output: 100
`
	c, err := Parse([]byte(src), "git.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != DefaultCLIName || c.Source != "git.yaml" {
		t.Errorf("Name, Source = %q, %q; want %q, git.yaml", c.Name, c.Source, DefaultCLIName)
	}
	if c.Tags == nil || len(c.Tags) != 0 || c.Env == nil {
		t.Errorf("Tags = %#v, Env = %#v; want empty, non-nil", c.Tags, c.Env)
	}
	if c.Category != "" || c.Description != "" || c.WorkingDir != "" {
		t.Errorf("optional strings not empty: %+v", c)
	}
	st, lg := c.Tools[0], c.Tools[1]
	if st.Timeout != DefaultTimeout || st.MaxOutput != DefaultMaxOutput {
		t.Errorf("git_status timeout, max_output = %v, %v; want defaults", st.Timeout, st.MaxOutput)
	}
	if lg.Timeout != 2.5 || lg.MaxOutput != 100 {
		t.Errorf("git_log timeout, max_output = %v, %v; want 2.5, 100", lg.Timeout, lg.MaxOutput)
	}
	if want := []string{"history", "recent commits", "42"}; !slices.Equal(lg.Keywords, want) || st.Keywords != nil {
		t.Errorf("keywords = %q and %q; want %q and none", lg.Keywords, st.Keywords, want)
	}
	if st.Args[0].Type != TypeString || c.GlobalArgs[0].Type != TypeString {
		t.Errorf("arg types = %q, %q; want string", st.Args[0].Type, c.GlobalArgs[0].Type)
	}
	if c.GlobalArgs[0].Default != "$VAULT" {
		t.Errorf("global default = %#v", c.GlobalArgs[0].Default)
	}
	if st.Line != 7 || lg.Line != 12 {
		t.Errorf("tool lines = %d, %d; want 7, 12", st.Line, lg.Line)
	}
	if st.Args == nil || lg.Args != nil {
		t.Errorf("args = %#v, %#v", st.Args, lg.Args)
	}
}

func TestParseDefaultValues(t *testing.T) {
	src := `command: x
tools:
  - name: t
    description: d
    args:
      - {name: s1, default: "50"}
      - {name: s2, default: 50}
      - {name: s3, default: 2.50}
      - {name: i1, type: integer, default: 10}
      - {name: i2, type: integer, default: "10"}
      - {name: i3, type: integer, default: -3, enum: ["-3", "4"]}
      - {name: n1, type: number, default: 2}
      - {name: n2, type: number, default: "0.5"}
      - {name: n3, type: number, default: 1.0, enum: ["1", "2"]}
      - {name: b1, type: boolean, default: true}
      - {name: b2, type: boolean, default: "false"}
      - {name: e1, enum: [json, text], default: text}
      - {name: z, default: ~}
`
	c, err := Parse([]byte(src), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"s1": "50", "s2": "50", "s3": "2.50",
		"i1": 10, "i2": 10, "i3": -3,
		"n1": 2.0, "n2": 0.5, "n3": 1.0,
		"b1": true, "b2": false,
		"e1": "text", "z": nil,
	}
	for _, a := range c.Tools[0].Args {
		if w := want[a.Name]; !reflect.DeepEqual(a.Default, w) {
			t.Errorf("arg %s: Default = %#v (%T), want %#v (%T)", a.Name, a.Default, a.Default, w, w)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		check func(t *testing.T, c *Config)
	}{
		{
			name: "empty tool list",
			src:  "name: empty\ncommand: \"true\"\ntools: []\n",
			check: func(t *testing.T, c *Config) {
				if c.Tools == nil || len(c.Tools) != 0 {
					t.Errorf("Tools = %#v, want empty", c.Tools)
				}
			},
		},
		{
			name: "null optional fields",
			src:  "command: git\ndescription:\ntags:\nenv:\nglobal_args:\ntools:\n  - name: t\n    description: d\n    args:\n    timeout:\n",
			check: func(t *testing.T, c *Config) {
				if c.Description != "" || len(c.Tags) != 0 || c.Tools[0].Timeout != DefaultTimeout {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "anchors, aliases and merge keys",
			src: `command: git
x-common: &common
  description: shared
  timeout: 5
tools:
  - <<: *common
    name: a
  - <<: *common
    name: b
    timeout: 7
`,
			check: nil, // x-common is an unknown key: see below
		},
		{
			name: "tool names with dots and dashes, 128 chars",
			src:  "command: x\ntools:\n  - {name: a.b-c_D9, description: d}\n  - {name: " + strings.Repeat("y", 128) + ", description: d}\n",
			check: func(t *testing.T, c *Config) {
				if len(c.Tools) != 2 {
					t.Errorf("tools = %d", len(c.Tools))
				}
			},
		},
		{
			name: "env values of any scalar kind",
			src:  "command: x\nenv: {A: 1, B: true, C: text, D: ~}\ntools: []\n",
			check: func(t *testing.T, c *Config) {
				want := map[string]string{"A": "1", "B": "true", "C": "text", "D": ""}
				if !reflect.DeepEqual(c.Env, want) {
					t.Errorf("Env = %#v, want %#v", c.Env, want)
				}
			},
		},
		{
			name: "tool env",
			src:  "command: x\nenv: {A: 1}\ntools:\n  - {name: t, description: d, env: {GOFLAGS: ~, B: b}}\n  - {name: u, description: d}\n",
			check: func(t *testing.T, c *Config) {
				want := map[string]string{"GOFLAGS": "", "B": "b"}
				if !reflect.DeepEqual(c.Tools[0].Env, want) || c.Tools[1].Env != nil {
					t.Errorf("tool Env = %#v and %#v, want %#v and nil", c.Tools[0].Env, c.Tools[1].Env, want)
				}
			},
		},
		{
			name: "numbers as strings",
			src:  "command: x\ntags: [2024, v1]\ntools:\n  - {name: t, description: 42, command: 7}\n",
			check: func(t *testing.T, c *Config) {
				if c.Tools[0].Description != "42" || c.Tools[0].Command != "7" || !slices.Equal(c.Tags, []string{"2024", "v1"}) {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name: "global default with a variable is not checked against enum",
			src:  "command: x\nglobal_args:\n  - {name: g, flag: --g, enum: [a, b], default: $G}\ntools: []\n",
		},
		{
			name: "stdin and cwd args",
			src:  "command: x\ntools:\n  - name: t\n    description: d\n    args:\n      - {name: dir, cwd: true}\n      - {name: body, stdin: true, required: true}\n      - {name: p, positional: true, allow_leading_dash: true}\n",
			check: func(t *testing.T, c *Config) {
				a := c.Tools[0].Args
				if !a[0].Cwd || !a[1].Stdin || !a[1].Required || !a[2].Positional || !a[2].AllowLeadingDash {
					t.Errorf("args = %+v", a)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.src), "t.yaml")
			if tt.check == nil && strings.Contains(tt.src, "x-common") {
				// An unknown top-level key is still an error, even as an
				// anchor holder; the merged tools themselves are fine.
				wantProblems(t, problemLines(t, err), []string{`t.yaml:2:1: unknown key "x-common" (valid keys: name, description, command, env, working_dir, category, tags, global_args, tools)`}, true)
				src := strings.Replace(tt.src, "x-common: &common\n  description: shared\n  timeout: 5\n", "", 1)
				src = strings.Replace(src, "tools:\n  - <<: *common\n", "tools:\n  - &common\n    description: shared\n    timeout: 5\n", 1)
				src = strings.Replace(src, "    name: a\n  - <<: *common\n", "    name: a\n  - <<: *common\n", 1)
				c, err = Parse([]byte(src), "t.yaml")
				if err != nil {
					t.Fatalf("merged config: %v\n%s", err, src)
				}
				if len(c.Tools) != 2 || c.Tools[1].Name != "b" || c.Tools[1].Description != "shared" || c.Tools[1].Timeout != 7 {
					t.Errorf("merged tool = %+v", c.Tools[1])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
		})
	}
}

// TestKnownKeysMatchModel keeps the loader's key lists in step with the
// model's yaml tags.
func TestKnownKeysMatchModel(t *testing.T) {
	tags := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			if tag := rt.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
				out = append(out, tag)
			}
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		model any
		keys  []string
	}{
		{"config", Config{}, configKeys},
		{"tool", Tool{}, toolKeys},
		{"arg", Arg{}, argKeys},
		{"policy", Policy{}, policyKeys},
		{"executor", Executor{}, executorKeys},
		{"tool policy", ToolPolicy{}, toolPolicyKeys},
		{"constraint", Constraint{}, constraintKeys},
	} {
		if got := tags(tt.model); !slices.Equal(got, tt.keys) {
			t.Errorf("%s: yaml tags %v, loader keys %v", tt.name, got, tt.keys)
		}
	}
}

func TestProblemString(t *testing.T) {
	for _, tt := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.yaml", Line: 3, Column: 7, Message: "m"}, "a.yaml:3:7: m"},
		{Problem{File: "a.yaml", Line: 3, Message: "m"}, "a.yaml:3: m"},
		{Problem{File: "a.yaml", Message: "m"}, "a.yaml: m"},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("name: g\ncommand: g\ntools: []\n"), 0o644)
	os.WriteFile(bad, []byte("command: g\n"), 0o644)

	c, err := LoadFile(good)
	if err != nil || c.Source != good || c.Name != "g" {
		t.Errorf("LoadFile(good) = %+v, %v", c, err)
	}
	_, err = LoadFile(bad)
	var le *LoadError
	if !errors.As(err, &le) || le.File != bad || !strings.HasPrefix(le.Problems[0].String(), bad+":1:1: ") {
		t.Errorf("LoadFile(bad) error = %v", err)
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFile(missing) error = %v, want not exist", err)
	}
}

func TestLoadRef(t *testing.T) {
	bundled := fstest.MapFS{
		"git.yaml":    {Data: []byte("name: git\ncommand: git\ntools: []\n")},
		"broken.yaml": {Data: []byte("command: x\ntools: [\n")},
		"notes.txt":   {Data: []byte("not a config")},
	}
	dir := t.TempDir()
	local := filepath.Join(dir, "mine.yaml")
	os.WriteFile(local, []byte("name: mine\ncommand: m\ntools: []\n"), 0o644)

	c, err := LoadRef("git", bundled)
	if err != nil || c.Source != "bundled:git" || c.Name != "git" {
		t.Errorf("LoadRef(git) = %+v, %v", c, err)
	}
	c, err = LoadRef(local, bundled)
	if err != nil || c.Source != local {
		t.Errorf("LoadRef(path) = %+v, %v", c, err)
	}
	_, err = LoadRef("gti", bundled)
	var nf *NotFoundError
	if !errors.As(err, &nf) || !slices.Equal(nf.Bundled, []string{"broken", "git"}) {
		t.Fatalf("LoadRef(gti) error = %#v", err)
	}
	if want := `no config named "gti": it is not a file and not a bundled config (bundled: broken, git)`; err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
	// A bundled config with errors is reported as such, not as missing.
	_, err = LoadRef("broken", bundled)
	var le *LoadError
	if !errors.As(err, &le) || !strings.HasPrefix(err.Error(), "bundled:broken:2: invalid YAML") {
		t.Errorf("LoadRef(broken) error = %v", err)
	}
	if _, err := LoadRef("git", nil); !errors.As(err, &nf) {
		t.Errorf("Resolve with no bundled configs: %v", err)
	}
	if _, err := LoadRef(filepath.Join(dir, "nope.yaml"), bundled); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadRef(missing path) error = %v", err)
	}
}

func TestIsPath(t *testing.T) {
	for ref, want := range map[string]bool{
		"git": false, "git.yaml": true, "x.yml": true, "./git": true,
		"configs/git": true, "/abs/git": true, "docker-compose": false,
	} {
		if got := IsPath(ref); got != want {
			t.Errorf("IsPath(%q) = %v, want %v", ref, got, want)
		}
	}
}

func TestBundledNames(t *testing.T) {
	names, err := BundledNames(fstest.MapFS{
		"jj.yaml": {}, "git.yaml": {}, "docker.yaml": {}, "README.md": {}, "sub/x.yaml": {},
	})
	if err != nil || !slices.Equal(names, []string{"docker", "git", "jj"}) {
		t.Errorf("BundledNames = %v, %v", names, err)
	}
}
