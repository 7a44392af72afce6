package realtest

import "testing"

// The gofmt sandbox: one formatted file, one unformatted, one that a
// simplification (-s) would change, and one that does not parse.
func init() {
	register(&suite{
		config: "gofmt",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("src", "good.go"), "package src\n\nfunc Good() int { return 1 }\n")
			write(t, sb.path("src", "ugly.go"), "package src\nfunc  Ugly( ) int {return 1}\n")
			write(t, sb.path("simple", "s.go"), "package simple\n\nvar S = []struct{ A int }{struct{ A int }{1}}\n")
			write(t, sb.path("broken", "b.go"), "package broken\nfunc B( {}\n")
		},
		calls: func(sb *sandbox) []call {
			src := sb.path("src")
			return []call{
				// Check only: the unformatted file is listed and left as it is.
				{tool: "gofmt_list", args: a{"dir": src}, want: []string{"ugly.go"}, check: func(t *testing.T, o outcome) {
					lacks("good.go")(t, o)
					fileHas(sb.path("src", "ugly.go"), "func  Ugly( )")(t, o)
				}},
				{tool: "gofmt_list", args: a{"path": "good.go", "dir": src}, want: []string{"(no output)"}},
				{tool: "gofmt_list", args: a{"path": []any{"simple"}, "dir": sb.dir}, want: []string{"(no output)"}},
				{tool: "gofmt_list", args: a{"path": []any{"simple"}, "simplify": true, "dir": sb.dir}, want: []string{"s.go"}},
				{tool: "gofmt_list", args: a{"path": "broken", "dir": sb.dir}, exit: 2, want: []string{"expected ')'", "[exit code: 2 (a file did not parse)]"}},
				{tool: "gofmt_diff", args: a{"dir": src}, exit: 1, want: []string{"+func Ugly() int { return 1 }", "[exit code: 1 (some files are not formatted)]"}, check: fileHas(sb.path("src", "ugly.go"), "func  Ugly( )")},
				{tool: "gofmt_diff", args: a{"path": "good.go", "dir": src}, want: []string{"(no output)"}},
				{tool: "gofmt_diff", args: a{"path": "simple", "simplify": true, "dir": sb.dir}, exit: 1, want: []string{"+var S = []struct{ A int }{{1}}"}},
			}
		},
	})
}
