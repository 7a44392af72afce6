package realtest

import (
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

// An environLeak is a bundled tool whose output would show the server's
// environment (docs/security.md, The server's environment), and how its
// config keeps it out.
type environLeak struct {
	config, tool string
	// prepare writes the fixture in dir; the canary variable is set.
	prepare func(t *testing.T, dir string)
	args    func(dir string) map[string]any
	// want lists texts the defended call must still show; refused, when
	// set, means it must be refused with that text instead.
	want    []string
	refused string
	// hidden lists texts besides the canary's value that the defended
	// call must not show and the control must.
	hidden []string
	// oracle, when set, replaces the canary's value in that list: a
	// tool that shows whether a secret matches, not the secret.
	oracle func(canary string) string
	// undefend takes the defence off the tool, for the control.
	undefend func(*config.Tool)
}

// canaryVar is the variable standing for a secret of the server's
// environment (an AWS key, a GitHub token).
const canaryVar = "REALTEST_CANARY_SECRET"

// environLeaks are the bundled tools that printed the server's
// environment, with a fixture each.
var environLeaks = []environLeak{
	{
		// make reads its environment as make variables, which
		// --print-data-base lists, reads the makefiles MAKEFILES names and
		// takes MAKEFLAGS as its own options.
		config: "make", tool: "make_list_targets",
		prepare: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "Makefile"), "all: build\n\nbuild:\n\t@echo building\n\ntest:\n\t@echo testing\n")
			write(t, filepath.Join(dir, "extra.mk"), "from-the-makefiles-variable:\n")
			t.Setenv("MAKEFILES", filepath.Join(dir, "extra.mk"))
			t.Setenv("MAKEFLAGS", "--eval=from-the-makeflags-variable:")
		},
		args:     func(dir string) map[string]any { return a{"dir": dir} },
		want:     []string{"# Files", "\nbuild:", "\ntest:", "\nall: build"},
		hidden:   []string{"from-the-makefiles-variable", "from-the-makeflags-variable"},
		undefend: func(t *config.Tool) { t.InheritEnv = nil },
	},
	{
		// A recipe naming a variable of the environment shows its value
		// in a preview.
		config: "make", tool: "make_dry_run",
		prepare: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "Makefile"), "deploy:\n\tcurl -H 'Authorization: Bearer $("+canaryVar+")' https://deploy.invalid/\n")
		},
		args:     func(dir string) map[string]any { return a{"target": "deploy", "dir": dir} },
		want:     []string{"curl -H 'Authorization: Bearer ' https://deploy.invalid/"},
		undefend: func(t *config.Tool) { t.InheritEnv = nil },
	},
	{
		// rg reads any file it is given, /proc/self/environ too: its
		// binary detection hides the text, but a count answers yes or no
		// for any pattern, which recovers a secret a character at a time.
		config: "rg", tool: "rg_search",
		prepare: func(t *testing.T, dir string) {
			if runtime.GOOS != "linux" {
				t.Skip("/proc/self/environ is Linux's")
			}
		},
		args: func(string) map[string]any {
			return a{"pattern": canaryVar + "=canary-", "fixed_strings": true, "count": true, "path": []any{"/proc/self/environ"}}
		},
		oracle:   func(string) string { return "/proc/self/environ:1" },
		undefend: func(t *config.Tool) { t.InheritEnv = nil },
	},
	{
		config:   "jq",
		tool:     "jq_query",
		args:     func(string) map[string]any { return a{"filter": "$ENV", "input": "null", "compact": true} },
		want:     []string{`"HOME":`},
		undefend: func(t *config.Tool) { t.InheritEnv = nil },
	},
	{
		// gh's built-in jq (gojq) has $ENV and env too.
		config: "gh", tool: "gh_api",
		prepare: func(t *testing.T, dir string) {
			srv := httptest.NewTLSServer(fakeGitHub(&recorder{}))
			t.Cleanup(srv.Close)
			write(t, filepath.Join(dir, "cert.pem"), string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
			t.Setenv("SSL_CERT_FILE", filepath.Join(dir, "cert.pem"))
			t.Setenv("GH_HOST", srv.Listener.Addr().String())
			t.Setenv("GH_ENTERPRISE_TOKEN", "fake-token")
			t.Setenv("GH_CONFIG_DIR", filepath.Join(dir, "gh-config"))
			t.Setenv("GH_TOKEN", "")
			t.Setenv("GITHUB_TOKEN", "")
		},
		args: func(dir string) map[string]any {
			return a{"endpoint": "repos/acme/widgets/pulls/12/comments", "jq": "$ENV", "dir": dir}
		},
		refused:  "does not match pattern",
		undefend: withoutPattern("jq"),
	},
	{
		// npm's own "env" script, run when package.json has none, prints
		// the environment.
		config: "npm", tool: "npm_run",
		prepare: func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "package.json"), `{"name": "fixture", "version": "1.0.0", "scripts": {"build": "echo built"}}`)
		},
		args:     func(dir string) map[string]any { return a{"script": "env", "dir": dir} },
		refused:  "does not match pattern",
		undefend: withoutPattern("script"),
	},
}

// withoutPattern returns an undefend that drops the pattern of the
// tool's arg name.
func withoutPattern(name string) func(*config.Tool) {
	return func(t *config.Tool) {
		t.Args = slices.Clone(t.Args)
		for i := range t.Args {
			if t.Args[i].Name == name {
				t.Args[i].Pattern = ""
			}
		}
	}
}

// TestToolsHideTheServersEnvironment calls each tool of [environLeaks],
// from its bundled config, with a canary secret in the server's
// environment: the call does what it is for and shows neither the secret
// nor anything else the config keeps out. The control makes the same call
// with the tool's defence taken off and must show them, or the fixture
// proves nothing.
func TestToolsHideTheServersEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real programs; not with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the make fixture's recipe is POSIX shell, and npm's env script is SET there")
	}
	for _, leak := range environLeaks {
		t.Run(leak.tool, func(t *testing.T) {
			c, err := config.LoadFS(configs.FS, leak.config+".yaml")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := executor.FindProgram(c); err != nil {
				t.Skipf("%s not installed: %v", executor.BaseCommand(c)[0], err)
			}
			dir := t.TempDir()
			t.Setenv("HOME", filepath.Join(dir, "home"))
			canary := fmt.Sprintf("canary-%d-%s", os.Getpid(), leak.tool)
			t.Setenv(canaryVar, canary)
			if leak.prepare != nil {
				leak.prepare(t, dir)
			}
			secret := canary
			if leak.oracle != nil {
				secret = leak.oracle(canary)
			}
			hidden := append([]string{secret}, leak.hidden...)
			cl := call{tool: leak.tool, args: leak.args(dir)}

			out := environCall(t, c, cl, nil)
			t.Logf("argv %q:\n%.2000s", out.Argv, out.Text)
			switch {
			case leak.refused != "":
				if out.Result != nil || !strings.Contains(out.Text, leak.refused) {
					t.Errorf("want the call refused with %q; got:\n%s", leak.refused, out.Text)
				}
			case out.Result == nil:
				t.Errorf("did not run: %s", out.Text)
			}
			for _, w := range leak.want {
				if !strings.Contains(out.Text, w) {
					t.Errorf("result lacks %q:\n%s", w, out.Text)
				}
			}
			for _, h := range hidden {
				if i := strings.Index(out.Text, h); i >= 0 {
					t.Errorf("the result shows %q (at byte %d), which the config keeps out", h, i)
				}
			}

			// The control's result holds the environment of the test: it
			// is not printed (CI's may hold secrets).
			control := environCall(t, c, cl, leak.undefend)
			for _, h := range hidden {
				if !strings.Contains(control.Text, h) {
					t.Errorf("control: without its defence %s does not show %q, so the fixture proves nothing (argv %q, exit %v, %d bytes of result)", leak.tool, h, control.Argv, control.Result != nil && control.Result.ExitCode != 0, len(control.Text))
				}
			}
		})
	}
}

// environCall makes cl through an index of c, after undefend (when not
// nil) has changed a copy of the tool.
func environCall(t *testing.T, c *config.Config, cl call, undefend func(*config.Tool)) executor.Outcome {
	t.Helper()
	if undefend != nil {
		cp := *c
		cp.Tools = slices.Clone(c.Tools)
		for i := range cp.Tools {
			if cp.Tools[i].Name == cl.tool {
				undefend(&cp.Tools[i])
			}
		}
		c = &cp
	}
	ix, _, err := index.New([]*config.Config{c}, config.WithConfirm(nil, config.ConfirmNone))
	if err != nil {
		t.Fatal(err)
	}
	_, out := callTool(t, executor.New(), ix, cl)
	return out
}
