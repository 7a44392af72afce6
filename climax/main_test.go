package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar from the actual output")

// TestMain lets the test binary act as the programs the scripts run: the
// real climax command, and fake CLIs (fakecli, docker, podman, jj) that report how
// they were called.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"climax":  main,
		"fakecli": func() { os.Exit(fakeCLI(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"docker":  func() { os.Exit(fakeCLI(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"podman":  func() { os.Exit(fakeCLI(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"jj":      func() { os.Exit(fakeCLI(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"widget":  func() { os.Exit(fakeWidget(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script.
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Abs("../testdata/fixtures")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "../testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			gorace := "atexit_sleep_ms=0" // children under -race would sleep 1 s at exit
			if v := os.Getenv("GORACE"); v != "" {
				gorace = v + " " + gorace
			}
			e.Setenv("HOME", home)
			e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			e.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
			e.Setenv("GORACE", gorace)
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			e.Setenv("GIT_AUTHOR_NAME", "Test")
			e.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			e.Setenv("GIT_COMMITTER_NAME", "Test")
			e.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			e.Setenv("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
			e.Setenv("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
			e.Setenv("FIXTURES", fixtures)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mcp":       cmdMCP,
			"grepcount": cmdGrepcount,
		},
	})
}

// envNames are the variables the mcp command passes from the script's
// environment to climax (when set), besides those named with -env.
var envNames = []string{
	"PATH", "HOME", "WORK", "TMPDIR", "GORACE", "GOCOVERDIR",
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "FIXTURES", "PROJECT_DIR",
	"GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE",
	"CLIMAX_LOG_LEVEL", "CLIMAX_LOG_FILE", "CLIMAX_POLICY", "CLIMAX_CLASSIC",
	"CLIMAX_MAX_OUTPUT", "CLIMAX_MAX_CONCURRENT", "CLIMAX_READ_ONLY", "CLIMAX_STRICT_ARGS",
	"CLIMAX_CONFIRM", "CLIMAX_CONFIRM_TIMEOUT", "CLIMAX_CONFIRM_FALLBACK",
}

// cmdMCP is the script command
//
//	mcp [-text | -pretty] [-init] [-notifications] [-elicit ANSWER] [-env NAME,...] [-timeout D] REQUESTS [CLIMAX ARGS...]
//
// It starts climax (the one on the script's PATH) with CLIMAX ARGS as a
// subprocess, initializes an MCP session over its stdin/stdout, then sends
// the requests in the file REQUESTS — one JSON object per line; blank lines
// and lines starting with # are skipped; ${NAME} is replaced by the script's
// variable NAME — one at a time, waiting for each
// reply before sending the next. "jsonrpc" is filled in, and "id" too
// (1, 2, ...) unless the method is a notification. It prints the replies to
// stdout:
//
//   - default: one compact JSON object per line;
//   - -pretty: indented JSON;
//   - -text: for a tool call, "isError: true" (when set) then the result
//     text (JSON text indented); for tools/list the tool names; a JSON-RPC
//     error as "error CODE: MESSAGE"; each reply ends with a "---" line.
//
// With -elicit the client declares the elicitation capability and answers
// every elicitation/create request of climax, which it prints first (-text:
// "elicitation: " and the message, then "---"): accept (with approve:
// true), reject (accept with approve: false), decline, cancel, or ignore
// (no answer at all).
//
// Volatile fields are normalised: every "duration_ms" becomes 0 and the
// server version "VERSION". -init also prints the initialize reply;
// -notifications prints server notifications (as JSON lines) too. Then it
// closes climax's stdin, waits for it to exit and copies its stderr to the
// script's stderr. It fails when climax exits with an error (or, negated,
// when it does not).
func cmdMCP(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(ts.Stderr())
	textOut := fs.Bool("text", false, "print result texts instead of JSON")
	pretty := fs.Bool("pretty", false, "print indented JSON")
	showInit := fs.Bool("init", false, "print the initialize reply too")
	notes := fs.Bool("notifications", false, "print server notifications too")
	extraEnv := fs.String("env", "", "comma-separated names of further variables to pass")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for each reply")
	elicit := fs.String("elicit", "", "answer elicitation requests: accept, reject, decline, cancel or ignore")
	if err := fs.Parse(args); err != nil || fs.NArg() < 1 {
		ts.Fatalf("usage: mcp [-text | -pretty] [-init] [-notifications] [-elicit ANSWER] [-env NAMES] [-timeout D] REQUESTS [CLIMAX ARGS...]")
	}
	var answer map[string]any // the result of an elicitation/create; nil: none
	switch *elicit {
	case "", "ignore":
	case "accept":
		answer = map[string]any{"action": "accept", "content": map[string]any{"approve": true}}
	case "reject":
		answer = map[string]any{"action": "accept", "content": map[string]any{"approve": false}}
	case "decline", "cancel":
		answer = map[string]any{"action": *elicit}
	default:
		ts.Fatalf("mcp: -elicit %q: want accept, reject, decline, cancel or ignore", *elicit)
	}
	requests, err := parseRequests(expandBraced(ts, ts.ReadFile(fs.Arg(0))))
	ts.Check(err)

	bin := lookPath(ts, "climax")
	cmd := exec.Command(bin, fs.Args()[1:]...)
	cmd.Dir = ts.MkAbs(".")
	detachTerminal(cmd)
	names := append([]string{}, envNames...)
	if *extraEnv != "" {
		names = append(names, strings.Split(*extraEnv, ",")...)
	}
	for _, n := range names {
		if v := ts.Getenv(n); v != "" {
			cmd.Env = append(cmd.Env, n+"="+v)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	stdout, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())

	msgs := make(chan map[string]any)
	go func() {
		defer close(msgs)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
		for sc.Scan() {
			var m map[string]any
			d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			d.UseNumber()
			if err := d.Decode(&m); err != nil {
				m = map[string]any{"unparsable_output": sc.Text()}
			}
			msgs <- m
		}
		io.Copy(io.Discard, stdout)
	}()

	out := ts.Stdout()
	print := func(m map[string]any) {
		normalise(m)
		switch {
		case *textOut:
			printText(out, m)
		case *pretty:
			b, _ := marshal(m, "  ")
			fmt.Fprintf(out, "%s\n", b)
		default:
			b, _ := marshal(m, "")
			fmt.Fprintf(out, "%s\n", b)
		}
	}
	// exchange sends msg and, for a request, waits for its reply. It
	// reports false when climax stopped answering.
	exchange := func(msg map[string]any, printReply bool) bool {
		b, _ := json.Marshal(msg)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			return false
		}
		id, isRequest := msg["id"]
		if !isRequest {
			return true
		}
		want := fmt.Sprint(id)
		deadline := time.After(*timeout)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					return false
				}
				if m["method"] == "elicitation/create" && *elicit != "" {
					if *textOut {
						params, _ := m["params"].(map[string]any)
						fmt.Fprintf(out, "elicitation: %v\n---\n", params["message"])
					} else {
						print(m)
					}
					if answer != nil {
						reply, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m["id"], "result": answer})
						if _, err := stdin.Write(append(reply, '\n')); err != nil {
							return false
						}
					}
					continue
				}
				if _, hasID := m["id"]; !hasID || m["method"] != nil {
					if *notes {
						print(m)
					}
					continue
				}
				if fmt.Sprint(m["id"]) != want {
					ts.Logf("mcp: reply to unexpected id %v", m["id"])
					continue
				}
				if printReply {
					print(m)
				}
				return true
			case <-deadline:
				cmd.Process.Kill()
				cmd.Wait()
				ts.Logf("climax stderr:\n%s", stderr.String())
				ts.Fatalf("mcp: no reply to %s within %v", b, *timeout)
			}
		}
	}

	capabilities := map[string]any{}
	if *elicit != "" {
		capabilities["elicitation"] = map[string]any{}
	}
	alive := exchange(map[string]any{
		"jsonrpc": "2.0", "id": 0, "method": "initialize",
		"params": map[string]any{
			"protocolVersion": "2025-06-18",
			"capabilities":    capabilities,
			"clientInfo":      map[string]any{"name": "testscript", "version": "0"},
		},
	}, *showInit)
	if alive {
		alive = exchange(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}, false)
	}
	for _, r := range requests {
		if !alive {
			break
		}
		alive = exchange(r, true)
	}
	stdin.Close()

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		werr = fmt.Errorf("climax did not exit within 30s after stdin was closed: %w", <-done)
	}
	ts.Stderr().Write(stderr.Bytes())
	switch {
	case werr != nil && !neg:
		ts.Fatalf("mcp: climax: %v", werr)
	case werr == nil && neg:
		ts.Fatalf("mcp: climax exited successfully, unexpectedly")
	case !alive && !neg:
		ts.Fatalf("mcp: climax stopped answering")
	}
}

var bracedVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expandBraced replaces ${NAME} (braced only, so that "$" in patterns stays)
// with the script's value of NAME, JSON-escaped for use inside a string.
func expandBraced(ts *testscript.TestScript, s string) string {
	return bracedVar.ReplaceAllStringFunc(s, func(m string) string {
		b, _ := json.Marshal(ts.Getenv(m[2 : len(m)-1]))
		return string(b[1 : len(b)-1])
	})
}

// cmdGrepcount is the script command
//
//	grepcount REGEXP FILE
//
// It prints the number of lines of FILE that REGEXP matches, so that two
// counts can be compared with cmp.
func cmdGrepcount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: grepcount REGEXP FILE")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	n := 0
	for _, line := range strings.Split(ts.ReadFile(args[1]), "\n") {
		if re.MatchString(line) {
			n++
		}
	}
	fmt.Fprintf(ts.Stdout(), "%d\n", n)
}

// parseRequests reads one JSON object per line and fills in jsonrpc and id.
func parseRequests(data string) ([]map[string]any, error) {
	var reqs []map[string]any
	id := 1
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var m map[string]any
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&m); err != nil {
			return nil, fmt.Errorf("requests line %d: %v", n+1, err)
		}
		m["jsonrpc"] = "2.0"
		method, _ := m["method"].(string)
		if _, ok := m["id"]; !ok && !strings.HasPrefix(method, "notifications/") {
			m["id"] = id
			id++
		}
		reqs = append(reqs, m)
	}
	return reqs, nil
}

// normalise replaces volatile values so that transcripts are stable.
func normalise(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "duration_ms":
				v[k] = 0
			case "serverInfo":
				if si, ok := x.(map[string]any); ok {
					if _, ok := si["version"]; ok {
						si["version"] = "VERSION"
					}
				}
			default:
				normalise(x)
			}
		}
	case []any:
		for _, x := range v {
			normalise(x)
		}
	}
}

func marshal(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	err := enc.Encode(v)
	return bytes.TrimRight(buf.Bytes(), "\n"), err
}

// printText prints a reply for people: result texts, tool names, errors.
func printText(w io.Writer, m map[string]any) {
	defer fmt.Fprintln(w, "---")
	if e, ok := m["error"].(map[string]any); ok {
		fmt.Fprintf(w, "error %v: %v\n", e["code"], e["message"])
		return
	}
	res, _ := m["result"].(map[string]any)
	if tools, ok := res["tools"].([]any); ok {
		for _, t := range tools {
			if t, ok := t.(map[string]any); ok {
				fmt.Fprintln(w, t["name"])
			}
		}
		return
	}
	content, ok := res["content"].([]any)
	if !ok {
		b, _ := marshal(m, "")
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	if res["isError"] == true {
		fmt.Fprintln(w, "isError: true")
	}
	for _, c := range content {
		c, _ := c.(map[string]any)
		text, _ := c["text"].(string)
		var buf bytes.Buffer
		if t := strings.TrimSpace(text); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Indent(&buf, []byte(t), "", "  ") == nil {
			text = buf.String()
		}
		fmt.Fprintln(w, strings.TrimRight(text, "\n"))
	}
}

// lookPath finds prog on the script's PATH.
func lookPath(ts *testscript.TestScript, prog string) string {
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	ts.Fatalf("%s not found on the script's PATH", prog)
	return ""
}

// fakeCLI is a stand-in program for tests. Called as docker, podman, jj or
// any name but fakecli it prints its name and arguments on one line
// (arguments with spaces or empty ones quoted); as docker or podman it then
// prints "env KEY=VALUE" for each "-e KEY" argument, with the value it
// finds in its environment, as the real client would pass it on. As
// fakecli, the first argument chooses what it does:
//
//	fakecli echo WORDS...            print WORDS
//	fakecli stderr WORDS...          print WORDS on stderr
//	fakecli fail CODE WORDS...       print WORDS on stderr and exit with CODE
//	fakecli sleep SECONDS [PIDFILE]  write the pid to PIDFILE, sleep, then print "awake"
//	fakecli cat                      copy stdin to stdout
//	fakecli pwd                      print the working directory
//	fakecli report WORDS...          print "argv:" WORDS, "cwd:" the working directory, "stdin:" its input
//	fakecli getenv NAME              print the value of NAME
//	fakecli touch FILES...           create empty FILES
//	fakecli lines N                  print N numbered lines
//	fakecli anything else            print "fakecli ARGS..." like the other names
func fakeCLI(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name, args := filepath.Base(argv[0]), argv[1:]
	quoted := func(words []string) string {
		q := make([]string, len(words))
		for i, w := range words {
			if w == "" || strings.ContainsAny(w, " \t\n\"'") {
				w = strconv.Quote(w)
			}
			q[i] = w
		}
		return strings.Join(q, " ")
	}
	if name != "fakecli" || len(args) == 0 {
		fmt.Fprintln(stdout, strings.TrimSpace(name+" "+quoted(args)))
		if name == "docker" || name == "podman" {
			for i := 0; i+1 < len(args); i++ {
				if args[i] == "-e" && !strings.Contains(args[i+1], "=") {
					fmt.Fprintf(stdout, "env %s=%s\n", args[i+1], quoted([]string{os.Getenv(args[i+1])}))
				}
			}
		}
		return 0
	}
	switch args[0] {
	case "echo":
		fmt.Fprintln(stdout, strings.Join(args[1:], " "))
	case "stderr":
		fmt.Fprintln(stderr, strings.Join(args[1:], " "))
	case "fail":
		code := 1
		if len(args) > 1 {
			code, _ = strconv.Atoi(args[1])
		}
		if len(args) > 2 {
			fmt.Fprintln(stderr, strings.Join(args[2:], " "))
		}
		return code
	case "sleep":
		secs := 1.0
		if len(args) > 1 {
			secs, _ = strconv.ParseFloat(args[1], 64)
		}
		if len(args) > 2 {
			if err := os.WriteFile(args[2], []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
				return 9
			}
		}
		time.Sleep(time.Duration(secs * float64(time.Second)))
		fmt.Fprintln(stdout, "awake")
	case "cat":
		io.Copy(stdout, stdin)
	case "pwd":
		wd, _ := os.Getwd()
		fmt.Fprintln(stdout, wd)
	case "touch":
		for _, f := range args[1:] {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				fmt.Fprintln(stderr, err)
				return 1
			}
		}
	case "report":
		wd, _ := os.Getwd()
		in, _ := io.ReadAll(stdin)
		fmt.Fprintf(stdout, "argv: %s\ncwd: %s\nstdin: %s\n", quoted(args[1:]), wd, in)
	case "getenv":
		if len(args) > 1 {
			fmt.Fprintln(stdout, os.Getenv(args[1]))
		}
	case "lines":
		n := 10
		if len(args) > 1 {
			n, _ = strconv.Atoi(args[1])
		}
		for i := 1; i <= n; i++ {
			fmt.Fprintf(stdout, "line %d\n", i)
		}
	default:
		fmt.Fprintln(stdout, name+" "+quoted(args))
	}
	return 0
}

// widgetHelp is the --help of the fake program widget (GNU getopt layout).
const widgetHelp = `Usage: widget [OPTION]... FILE...
Count the widgets in FILEs.

  -c, --count=NUM     stop after NUM widgets
  -v, --verbose       say what is counted
      --help          display this help and exit
`

// fakeWidget is a program with a help text for climax scaffold: it
// answers --help after any options it knows and refuses the others.
func fakeWidget(args []string, stdout, stderr io.Writer) int {
	help := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--help":
			help = true
		case a == "-c" || a == "--count":
			i++
		case strings.HasPrefix(a, "--count="), a == "-v", a == "--verbose":
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "widget: unrecognized option '%s'\n", a)
			return 2
		}
	}
	if !help {
		fmt.Fprintln(stderr, "widget: only --help is implemented")
		return 1
	}
	fmt.Fprint(stdout, widgetHelp)
	return 0
}
