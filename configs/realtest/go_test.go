package realtest

import (
	"os/exec"
	"strings"
	"testing"
)

// The go sandbox: a module with a main package, a library package with a
// test and a benchmark, and a local dependency module wired with replace;
// GOPROXY=off, so nothing is downloaded.
func init() {
	register(&suite{
		config: "go",
		prepare: func(t *testing.T, sb *sandbox) {
			cmd := exec.Command("go", "env", "GOCACHE")
			cmd.Env = sb.env
			cache, err := cmd.Output()
			if err != nil {
				t.Fatalf("go env GOCACHE: %v", err)
			}
			t.Setenv("GOCACHE", strings.TrimSpace(string(cache)))
			t.Setenv("GOPATH", sb.path("gopath"))
			t.Setenv("GOPROXY", "off")
			t.Setenv("GOFLAGS", "-mod=mod")
			t.Setenv("GOTOOLCHAIN", "local")
			t.Setenv("GOWORK", "off")
			t.Setenv("GONOSUMDB", "*")
			t.Setenv("GOBIN", sb.path("gobin"))
			write(t, sb.path("dep", "go.mod"), "module example.com/dep\n\ngo 1.24\n")
			write(t, sb.path("dep", "dep.go"), "// Package dep greets.\npackage dep\n\n// Hello returns a greeting.\nfunc Hello() string { return \"hello\" }\n")
			write(t, sb.path("app", "go.mod"), "module example.com/app\n\ngo 1.24\n\nreplace example.com/dep => ../dep\n")
			write(t, sb.path("app", "main.go"), "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n\t\"example.com/app/calc\"\n)\n\nfunc main() {\n\tfmt.Println(\"sum\", calc.Add(2, 3), os.Args[1:])\n}\n")
			write(t, sb.path("app", "calc", "calc.go"), "// Package calc adds.\npackage calc\n\n// Add returns a+b.\nfunc Add(a, b int) int { return a + b }\n")
			write(t, sb.path("app", "calc", "calc_test.go"), "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n\nfunc BenchmarkAdd(b *testing.B) {\n\tfor b.Loop() {\n\t\tAdd(1, 2)\n\t}\n}\n")
			write(t, sb.path("app", "ugly", "ugly.go"), "package ugly\nfunc  F( ) int {return 1}\n")
			write(t, sb.path("app", "cmd", "ver", "main.go"), "package main\n\nimport \"fmt\"\n\nvar version = \"dev\"\n\nfunc main() { fmt.Println(\"version\", version) }\n")
			write(t, sb.path("app", "calc", "integ_test.go"), "//go:build integration\n\npackage calc\n\nimport \"testing\"\n\nfunc TestIntegration(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"short\")\n\t}\n}\n")
			write(t, sb.path("app", "gen", "gen.go"), "// Package gen has a generator directive.\npackage gen\n\n//go:generate touch generated.txt\n")
		},
		calls: func(sb *sandbox) []call {
			app := sb.path("app")
			return []call{
				{tool: "go_version", want: []string{"go version go1."}},
				{tool: "go_env", args: a{"variable": "GOPROXY", "dir": app}, want: []string{"off"}},
				{tool: "go_build", args: a{"packages": "./...", "verbose": true, "tags": "demo", "dir": app}},
				// One main package and no output: the binary lands in dir.
				{tool: "go_build", args: a{"dir": app}, check: exists(sb.path("app", "app"), true)},
				{tool: "go_build", args: a{"packages": []any{"./calc", "./ugly"}, "dir": app}},
				{tool: "go_build", args: a{"output": sb.path("bin", "app"), "packages": ".", "dir": app}, check: exists(sb.path("bin", "app"), true)},
				{tool: "go_build", args: a{"packages": "./nope", "dir": app}, exit: 1, want: []string{"nope"}},
				{tool: "go_vet", args: a{"packages": "./...", "dir": app}},
				{tool: "go_fmt", args: a{"packages": "./ugly", "dir": app}, want: []string{"ugly.go"}, check: fileHas(sb.path("app", "ugly", "ugly.go"), "func F() int { return 1 }")},
				{tool: "go_test", args: a{"packages": "./...", "run": "TestAdd", "verbose": true, "count": 1, "failfast": true, "cover": true, "test_timeout": "2m", "dir": app}, want: []string{"--- PASS: TestAdd", "coverage:"}},
				{tool: "go_test", args: a{"packages": "./calc", "run": "^$", "bench": "Add", "dir": app}, want: []string{"BenchmarkAdd"}},
				{tool: "go_test", args: a{"packages": "./calc", "list": ".", "dir": app}, want: []string{"TestAdd", "BenchmarkAdd"}, check: lacks("PASS")},
				{tool: "go_run", args: a{"package": ".", "arguments": "world", "dir": app}, want: []string{"sum 5 [world]"}},
				// Everything after the package is the program's, dashes too.
				{tool: "go_run", args: a{"package": ".", "arguments": []any{"-v", "--port=8080", "x"}, "dir": app}, want: []string{"sum 5 [-v --port=8080 x]"}},
				{tool: "go_run", args: a{"package": "-exec=true", "dir": app}, refused: "starts with '-'"},
				{tool: "go_test", args: a{"packages": []any{"./calc", "./ugly"}, "dir": app}, want: []string{"ok  \texample.com/app/calc", "example.com/app/ugly\t[no test files]"}},
				{tool: "go_generate", args: a{"packages": "./gen", "dry_run": true, "dir": app}, want: []string{"touch generated.txt"}, check: exists(sb.path("app", "gen", "generated.txt"), false)},
				{tool: "go_generate", args: a{"packages": []any{"./gen"}, "pattern": "touch", "dir": app}, check: exists(sb.path("app", "gen", "generated.txt"), true)},
				{tool: "go_install", args: a{"packages": []any{"."}, "dir": app}, check: exists(sb.path("gobin", "app"), true)},
				{tool: "go_mod_init", args: a{"module": "example.com/fresh", "dir": sb.path("fresh")}, before: mkdir(sb.path("fresh")), check: fileHas(sb.path("fresh", "go.mod"), "module example.com/fresh")},
				{tool: "go_get", args: a{"module": []any{"example.com/dep"}, "dir": app}, check: fileHas(sb.path("app", "go.mod"), "require example.com/dep v0.0.0")},
				{tool: "go_mod_tidy", args: a{"diff": true, "dir": app}, exit: 1, want: []string{"example.com/dep"}},
				{tool: "go_mod_why", args: a{"modules": true, "target": []any{"example.com/dep", "example.com/app"}, "dir": app}, want: []string{"example.com/dep"}},
				{tool: "go_list", args: a{"modules": true, "pattern": "all", "dir": app}, want: []string{"example.com/app", "example.com/dep v0.0.0-", "=> ../dep"}},
				{tool: "go_list", args: a{"json": true, "pattern": []any{"./calc", "./ugly"}, "dir": app}, want: []string{`"ImportPath": "example.com/app/calc"`}},
				{tool: "go_list", args: a{"modules": true, "updates": true, "pattern": "example.com/app", "dir": app}, want: []string{"example.com/app"}},
				{tool: "go_mod_tidy", args: a{"verbose": true, "dir": app}, check: func(t *testing.T, _ outcome) {
					fileHas(sb.path("app", "go.mod"), "example.com/dep")(t, outcome{})
				}},
				{tool: "go_doc", args: a{"symbol": "fmt.Println"}, want: []string{"func Println"}},
				{tool: "go_doc", args: a{"symbol": "./calc", "all": true, "unexported": true, "source": true, "dir": app}, want: []string{"func Add(a, b int) int"}},
				// Linker flags set a version at build time; -trimpath drops local paths.
				{tool: "go_build", args: a{"output": sb.path("bin", "ver"), "packages": "./cmd/ver", "ldflags": "-s -w -X main.version=1.2.3", "trimpath": true, "dir": app}, check: func(t *testing.T, _ outcome) {
					if out := run(t, app, sb.path("bin", "ver")); out != "version 1.2.3\n" {
						t.Errorf("the built binary printed %q, want the version set by -ldflags", out)
					}
					if bin := run(t, app, "go", "version", "-m", sb.path("bin", "ver")); !strings.Contains(bin, "-trimpath=true") {
						t.Errorf("the binary was not built with -trimpath:\n%s", bin)
					}
				}},
				// Build tags select files; -short makes testing.Short() true.
				{tool: "go_test", args: a{"packages": "./calc", "tags": "integration", "short": true, "verbose": true, "run": "TestIntegration", "dir": app}, want: []string{"--- SKIP: TestIntegration"}},
				{tool: "go_vet", args: a{"packages": "./calc", "tags": "integration", "dir": app}},
				// go test runs vet checks first unless skip_vet; a printf
				// mistake in a test file fails the first and not the second.
				{tool: "go_test", args: a{"packages": "./vetbad", "dir": app}, before: func(t *testing.T) {
					write(t, sb.path("app", "vetbad", "v_test.go"), "package vetbad\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestV(t *testing.T) { _ = fmt.Sprintf(\"%d\", \"x\") }\n")
				}, exit: 1, want: []string{"Sprintf format %d has arg"}},
				{tool: "go_test", args: a{"packages": "./vetbad", "skip_vet": true, "dir": app}, want: []string{"ok  \texample.com/app/vetbad"}},
			}
		},
	})
}
