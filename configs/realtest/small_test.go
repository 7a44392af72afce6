package realtest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// The tar sandbox: a project directory with files to archive.
func init() {
	register(&suite{
		config: "tar",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("project", "README.md"), "# project\n")
			write(t, sb.path("project", "src", "main.c"), "int main(void) { return 0; }\n")
			write(t, sb.path("project", "build", "main.o"), "object\n")
		},
		calls: func(sb *sandbox) []call {
			return []call{
				{tool: "tar_create", args: a{"archive": "project.tar.gz", "path": "project", "exclude": "*.o", "dir": sb.dir}, check: exists(sb.path("project.tar.gz"), true)},
				{tool: "tar_create", args: a{"archive": "two.tar", "path": []any{"README.md", "src", "-dash.txt"}, "exclude": []any{"*.o", "*.tmp"}, "dir": sb.path("project")}, before: func(t *testing.T) {
					write(t, sb.path("project", "-dash.txt"), "dash\n")
					write(t, sb.path("project", "src", "x.tmp"), "tmp\n")
				}, check: exists(sb.path("project", "two.tar"), true)},
				{tool: "tar_list", args: a{"archive": "two.tar", "member": []any{"README.md", "-dash.txt"}, "dir": sb.path("project")}, want: []string{"README.md", "-dash.txt"}, check: lacks("x.tmp")},
				{tool: "tar_extract", args: a{"archive": sb.path("project", "two.tar"), "destination": sb.path("two"), "member": []any{"src/main.c", "-dash.txt"}}, before: mkdir(sb.path("two")), check: func(t *testing.T, o outcome) {
					fileHas(sb.path("two", "-dash.txt"), "dash")(t, o)
					exists(sb.path("two", "README.md"), false)(t, o)
				}},
				{tool: "tar_list", args: a{"archive": sb.path("project.tar.gz")}, want: []string{"project/README.md", "project/src/main.c"}, check: func(t *testing.T, out outcome) {
					if strings.Contains(out.Text, "main.o") {
						t.Errorf("exclude ignored: %s", out.Text)
					}
				}},
				{tool: "tar_list", args: a{"archive": "project.tar.gz", "verbose": true, "member": "project/README.md", "dir": sb.dir}, want: []string{"project/README.md", "10"}},
				// host:file names a remote archive for GNU tar, reached by
				// running a remote shell; --force-local keeps it a file.
				{tool: "tar_list", args: a{"archive": "127.0.0.1:evil.tar", "dir": sb.dir}, exit: 2, want: []string{"Cannot open: No such file"}, check: lacks("remote shell")},
				{tool: "tar_extract", args: a{"archive": sb.path("project.tar.gz"), "destination": sb.path("out"), "strip_components": 1}, before: mkdir(sb.path("out")), check: fileHas(sb.path("out", "src", "main.c"), "int main")},
				{tool: "tar_extract", args: a{"archive": "project.tar.gz", "member": "project/README.md", "keep_old_files": true, "dir": sb.dir}, exit: 2, want: []string{"exists"}},
				// A destination that does not exist yet is created, parents too.
				{tool: "tar_extract", args: a{"archive": "project.tar.gz", "destination": "fresh/deep", "dir": sb.dir}, check: fileHas(sb.path("fresh", "deep", "project", "src", "main.c"), "int main")},
			}
		},
	})
}

// The jq sandbox: a JSON file.
func init() {
	register(&suite{
		config: "jq",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("data.json"), `{"items":[{"name":"a","n":1},{"name":"b","n":2}]}`)
		},
		calls: func(sb *sandbox) []call {
			return []call{
				{tool: "jq_query", args: a{"filter": ".items[].name", "file": sb.path("data.json"), "raw_output": true}, want: []string{"a\nb"}},
				{tool: "jq_query", args: a{"filter": "[.items[] | select(.n > 1)]", "file": "data.json", "compact": true, "dir": sb.dir}, want: []string{`[{"name":"b","n":2}]`}},
				{tool: "jq_query", args: a{"filter": "length", "input": "1 2 3", "slurp": true}, want: []string{"3"}},
				// input is text, passed as it is: an object is refused with
				// the text to send instead, which works.
				{tool: "jq_query", args: a{"filter": ".a", "input": map[string]any{"a": 7}}, refused: `cannot convert object {"a":7} to string; to send JSON, send its text as a string: "{\"a\":7}"`},
				{tool: "jq_query", args: a{"filter": ".a", "input": `{"a":7}`}, want: []string{"7"}},
				{tool: "jq_query", args: a{"filter": ".x", "input": "not json"}, exit: failed, want: []string{"parse error"}},
				{tool: "jq_query", args: a{"filter": "[$vars.who, $vars.n + 1]", "vars": `{"who":"ada","n":41}`, "input": "null", "compact": true}, want: []string{`["ada",42]`}},
				// vars takes a JSON object as it is, not only as text.
				{tool: "jq_query", args: a{"filter": "[.items[] | select(.n > $vars.min) | .name]", "vars": map[string]any{"min": 1}, "file": "data.json", "compact": true, "dir": sb.dir}, want: []string{`["b"]`}},
				{tool: "jq_query", args: a{"filter": ".items | length", "file": []any{"data.json", "-data.json"}, "dir": sb.dir}, before: func(t *testing.T) {
					write(t, sb.path("-data.json"), `{"items":[1]}`)
				}, want: []string{"2\n1"}},
				// jq reads a leading "-" as an option; "(-1)" is the filter.
				{tool: "jq_query", args: a{"filter": "-1", "input": "5"}, refused: "starts with '-'"},
				{tool: "jq_query", args: a{"filter": ".a | (", "input": "{}"}, exit: 3, want: []string{"compile error", "(the filter does not compile)"}},
				{tool: "jq_query", args: a{"filter": ".a", "input": "1"}, exit: 5, want: []string{"Cannot index number", "(the filter failed on the input)"}},
				{tool: "jq_query", args: a{"filter": "(-1)", "input": "5"}, want: []string{"-1"}},
			}
		},
	})
}

// The curl sandbox: a local HTTP server that echoes what it receives.
func init() {
	register(&suite{
		config: "curl",
		prepare: func(t *testing.T, sb *sandbox) {
			sb.rec = &recorder{}
			mux := http.NewServeMux()
			mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				sb.rec.add(request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
				w.Header().Set("X-Echo", "yes")
				fmt.Fprintf(w, "%s %s ct=%s x=%s body=%s\n", r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("X-Test"), body)
			})
			mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/echo", http.StatusFound)
			})
			mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
				http.Error(w, "nothing here", http.StatusNotFound)
			})
			mux.HandleFunc("/file.txt", func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, "downloaded content\n")
			})
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			sb.url = srv.URL
		},
		calls: func(sb *sandbox) []call {
			u := sb.url
			return []call{
				{tool: "curl_request", args: a{"url": u + "/echo"}, want: []string{"GET /echo"}},
				// "@file" would make curl send a local file: refused.
				{tool: "curl_request", args: a{"url": u + "/echo", "header": []any{"@/etc/passwd"}}, refused: "does not match pattern"},
				// A json value is JSON text: "@/etc/passwd" is a JSON string, never a file to send.
				{tool: "curl_request", args: a{"url": u + "/echo", "json": "@/etc/passwd"}, want: []string{`POST /echo ct=application/json x= body="@/etc/passwd"`}, check: lacks("root:")},
				{tool: "curl_request", args: a{"url": u + "/echo", "json": map[string]any{"user": map[string]any{"name": "ada"}, "tags": []any{"a", 1.0}}}, want: []string{`POST /echo ct=application/json x= body={"tags":["a",1],"user":{"name":"ada"}}`}},
				{tool: "curl_request", args: a{"url": u + "/moved", "include": true}, want: []string{"HTTP/1.1 302", "GET /echo"}},
				{tool: "curl_request", args: a{"url": u + "/moved", "follow_redirects": false}, want: []string{"Found"}},
				{tool: "curl_request", args: a{"url": u + "/echo", "method": "PUT", "json": `{"a":1}`, "header": "X-Test: 1"}, want: []string{`PUT /echo ct=application/json x=1 body={"a":1}`}},
				{tool: "curl_request", args: a{"url": u + "/echo", "data": "k=v"}, want: []string{"POST /echo ct=application/x-www-form-urlencoded x= body=k=v"}},
				{tool: "curl_request", args: a{"url": u + "/echo", "header": []any{"X-Test: 5", "X-Other: 6"}}, want: []string{"GET /echo ct= x=5"}, check: func(t *testing.T, _ outcome) {
					if q, ok := sb.rec.find("GET", "/echo"); !ok || q.Header["X-Other"] == nil {
						t.Errorf("second header not sent: %v", q.Header)
					}
				}},
				// Redirects keep the method and the body (--post301/302/303).
				{tool: "curl_request", args: a{"url": u + "/moved", "json": `{"kept":1}`}, want: []string{`POST /echo ct=application/json x= body={"kept":1}`}},
				{tool: "curl_request", args: a{"url": u + "/moved", "method": "PUT", "data": "v=1"}, want: []string{"PUT /echo ct=application/x-www-form-urlencoded x= body=v=1"}},
				// HTTP(S) only: no local files, no other protocols.
				{tool: "curl_request", args: a{"url": "file:///etc/hostname"}, exit: 1, want: []string{`Protocol "file" not supported`}},
				{tool: "curl_headers", args: a{"url": "telnet://127.0.0.1:1"}, exit: 1, want: []string{`Protocol "telnet" not supported`}},
				// An HTTP error status is exit code 22 by default, with the body.
				{tool: "curl_request", args: a{"url": u + "/missing"}, exit: 22, want: []string{"nothing here", "returned error: 404", "[exit code: 22 (the server answered with an HTTP error status)]"}},
				{tool: "curl_request", args: a{"url": u + "/missing", "fail_on_error": true}, exit: 22, want: []string{"nothing here", "404", "[exit code: 22 (the server answered with an HTTP error status)]"}},
				{tool: "curl_request", args: a{"url": u + "/missing", "fail_on_error": false}, want: []string{"nothing here"}, check: lacks("exit code")},
				{tool: "curl_send_stdin", args: a{"url": u + "/missing", "body": "{}"}, exit: 22, want: []string{"nothing here", "returned error: 404", "(the server answered with an HTTP error status)"}},
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": `{"big":true}`}, want: []string{`POST /echo ct=application/json x= body={"big":true}`}},
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": "{}", "include": true}, want: []string{"HTTP/1.1 200", "Content-Type: ", `POST /echo ct=application/json x= body={}`}},
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": "{}"}, check: lacks("HTTP/1.1 200")},
				// body is text, sent byte for byte: an object is refused with
				// the text to send instead.
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": map[string]any{"name": "x"}}, refused: `cannot convert object {"name":"x"} to string; to send JSON, send its text as a string: "{\"name\":\"x\"}"`},
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": "{\"name\": \"x\"}"}, want: []string{`POST /echo ct=application/json x= body={"name": "x"}`}},
				{tool: "curl_send_stdin", args: a{"url": u + "/echo", "body": "<a/>", "method": "PUT", "content_type_header": "Content-Type: application/xml", "header": "X-Test: 2"}, want: []string{"PUT /echo ct=application/xml x=2 body=<a/>"}},
				{tool: "curl_headers", args: a{"url": u + "/echo", "header": "X-Test: 3"}, want: []string{"HTTP/1.1 200 OK", "X-Echo: yes"}},
				{tool: "curl_headers", args: a{"url": u + "/moved", "follow_redirects": true}, want: []string{"HTTP/1.1 302", "HTTP/1.1 200"}},
				{tool: "curl_download", args: a{"url": u + "/file.txt", "output": "dl/file.txt", "header": "X-Test: 4", "dir": sb.dir}, check: fileHas(sb.path("dl", "file.txt"), "downloaded content")},
				// An existing file is overwritten, as the description and
				// destructive: true say.
				{tool: "curl_download", args: a{"url": u + "/file.txt", "output": "dl/file.txt", "dir": sb.dir}, before: func(t *testing.T) {
					write(t, sb.path("dl", "file.txt"), "my own work\n")
				}, check: fileIs(sb.path("dl", "file.txt"), "downloaded content\n")},
				{tool: "curl_download", args: a{"url": u + "/missing", "output": sb.path("none.txt")}, exit: 22, want: []string{"404"}},
			}
		},
	})
}

// The make sandbox: a Makefile with a few targets.
func init() {
	register(&suite{
		config: "make",
		prepare: func(t *testing.T, sb *sandbox) {
			write(t, sb.path("proj", "Makefile"), "MSG ?= default\nVERSION ?= 0.0.0\n\nall: build\n\nbuild:\n\t@echo building $(MSG)\n\ttouch built.txt\n\ntest:\n\t@echo testing\n\nrelease:\n\techo releasing $(VERSION)\n\ttar -czf app-$(VERSION).tar.gz Makefile\n\nstamp.txt:\n\ttouch stamp.txt\n")
			write(t, sb.path("proj", "other.mk"), "hello:\n\t@echo hello from other\n")
		},
		calls: func(sb *sandbox) []call {
			proj := sb.path("proj")
			return []call{
				{tool: "make_dry_run", args: a{"dir": proj}, want: []string{"echo building default", "touch built.txt"}, check: exists(sb.path("proj", "built.txt"), false)},
				{tool: "make_dry_run", args: a{"makefile": "other.mk", "dir": proj}, want: []string{"echo hello from other"}},
				// The targets of make_run, previewed.
				{tool: "make_dry_run", args: a{"target": "release", "dir": proj}, want: []string{"echo releasing", "tar -czf app-"}, check: lacks("building")},
				{tool: "make_dry_run", args: a{"target": []any{"test", "build"}, "dir": proj}, want: []string{"echo testing\necho building default"}},
				// A preview takes no variables: they would reach the
				// Makefile's $(shell ...) calls and the environment of what
				// make runs; one given is ignored, with a note.
				{tool: "make_dry_run", args: a{"target": "release", "variable": "VERSION=1.2.3", "dir": proj}, want: []string{"ignored argument 'variable'", "echo releasing"}, check: lacks("1.2.3")},
				// always_make shows the recipe of an up-to-date target.
				{tool: "make_dry_run", args: a{"target": "stamp.txt", "dir": proj}, before: func(t *testing.T) {
					write(t, sb.path("proj", "stamp.txt"), "x\n")
				}, want: []string{"is up to date"}},
				{tool: "make_dry_run", args: a{"target": "stamp.txt", "always_make": true, "dir": proj}, want: []string{"touch stamp.txt"}},
				{tool: "make_dry_run", args: a{"target": "nope", "dir": proj}, exit: 2, want: []string{"No rule to make target 'nope'"}},
				// A preview must not run anything a caller gives: make
				// expands "X:=$(shell ...)" even with --dry-run, and a
				// target lands in the Makefile's "+" lines. Each
				// of these is refused before make runs (the make fixture
				// of hostile_test.go proves what they would do).
				{tool: "make_dry_run", args: a{"target": "X:=$(shell touch pwned-target)", "dir": proj}, refused: "does not match pattern", check: exists(sb.path("proj", "pwned-target"), false)},
				{tool: "make_dry_run", args: a{"target": "-f/etc/passwd", "dir": proj}, refused: "starts with '-'"},
				{tool: "make_dry_run", args: a{"target": []any{"build", "--eval=all:"}, "dir": proj}, refused: "starts with '-'"},
				{tool: "make_dry_run", args: a{"target": "build;touch pwned", "dir": proj}, refused: "does not match pattern"},
				{tool: "make_run", args: a{"target": "build", "variable": "MSG=custom", "jobs": 2, "dir": proj}, want: []string{"building custom"}, check: exists(sb.path("proj", "built.txt"), true)},
				{tool: "make_run", args: a{"target": "hello", "makefile": "other.mk", "dir": proj}, want: []string{"hello from other"}},
				// A variable given as the target would slip past a policy on variable.
				{tool: "make_run", args: a{"target": "MSG=sneaky", "dir": proj}, refused: "does not match pattern"},
				{tool: "make_run", args: a{"target": "build", "variable": []any{"MSG=two", "OTHER=x"}, "dir": proj}, want: []string{"building two"}},
				{tool: "make_run", args: a{"target": []any{"test", "build"}, "dir": proj}, want: []string{"testing\nbuilding default"}},
				{tool: "make_run", args: a{"target": "nope", "dir": proj}, exit: 2, want: []string{"No rule to make target"}},
				// An existing stamp.txt is up to date; always_make runs its recipe anyway.
				{tool: "make_run", args: a{"target": "stamp.txt", "dir": proj}, before: func(t *testing.T) {
					write(t, sb.path("proj", "stamp.txt"), "x\n")
				}, want: []string{"is up to date"}},
				{tool: "make_run", args: a{"target": "stamp.txt", "always_make": true, "keep_going": true, "dir": proj}, want: []string{"touch stamp.txt"}},
				// The targets, and nothing built: --question runs no recipe.
				{tool: "make_list_targets", args: a{"dir": proj}, before: func(t *testing.T) {
					if err := os.Remove(sb.path("proj", "built.txt")); err != nil {
						t.Fatal(err)
					}
				}, exit: 1, want: []string{"# Files", "\nbuild:", "\ntest:", "\nall: build", "(the default target is not up to date)"}, check: exists(sb.path("proj", "built.txt"), false)},
				{tool: "make_list_targets", args: a{"makefile": "other.mk", "dir": proj}, exit: 1, want: []string{"\nhello:"}},
				// make's 2 is any error: here it read the Makefile, whose
				// default target needs a file nothing makes.
				{tool: "make_list_targets", args: a{"makefile": "broken.mk", "dir": proj}, before: func(t *testing.T) {
					write(t, sb.path("proj", "broken.mk"), "all: missing.c\n\tcc missing.c\n")
				}, exit: 2, want: []string{"\nall: missing.c", "No rule to make target 'missing.c'", "[exit code: 2 (make stopped on an error: see stderr (targets it read are listed))]"}},
			}
		},
	})
}
