package realtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// The cargo sandbox: a workspace with a binary crate (app) and a library
// crate (util), no registry dependencies; CARGO_HOME is a temporary
// directory whose config replaces crates.io with a small sparse registry
// served on 127.0.0.1 (for cargo search), so nothing reaches the network.
func init() {
	register(&suite{
		config: "cargo",
		needs:  []string{"git"},
		prepare: func(t *testing.T, sb *sandbox) {
			if os.Getenv("RUSTUP_HOME") == "" {
				if home := envValue(sb.env, "HOME"); home != "" {
					t.Setenv("RUSTUP_HOME", filepath.Join(home, ".rustup"))
				}
			}
			mux := http.NewServeMux()
			var srv *httptest.Server
			mux.HandleFunc("/index/config.json", func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"dl": "%s/dl", "api": "%s"}`, srv.URL, srv.URL)
			})
			mux.HandleFunc("/api/v1/crates", func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"crates":[{"name":"%s-fake","max_version":"1.2.3","description":"A fake crate"}],"meta":{"total":1}}`, r.URL.Query().Get("q"))
			})
			srv = httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			write(t, sb.path("cargo-home", "config.toml"), fmt.Sprintf("[source.crates-io]\nreplace-with = \"fake\"\n\n[registries.fake]\nindex = \"sparse+%s/index/\"\n\n[registry]\ndefault = \"fake\"\n", srv.URL))
			t.Setenv("CARGO_HOME", sb.path("cargo-home"))
			t.Setenv("CARGO_TARGET_DIR", sb.path("target"))
			write(t, sb.path("ws", "Cargo.toml"), "[workspace]\nmembers = [\"app\", \"util\"]\nresolver = \"2\"\n")
			write(t, sb.path("ws", "app", "Cargo.toml"), "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\nloud = []\n\n[dependencies]\n")
			write(t, sb.path("ws", "app", "src", "main.rs"), "fn main() {\n    let args: Vec<String> = std::env::args().skip(1).collect();\n    println!(\"app args {:?}\", args);\n}\n")
			write(t, sb.path("ws", "app", "examples", "demo.rs"), "fn main() {\n    println!(\"demo example\");\n}\n")
			write(t, sb.path("ws", "util", "Cargo.toml"), "[package]\nname = \"util\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
			run(t, sb.dir, "git", "init", "--quiet", sb.path("ws"))
			// Two crates outside the workspace: one to add by its path,
			// one in a git repository (tag v1, branch main) to add by URL.
			for _, c := range []string{"localdep", "gitdep"} {
				write(t, sb.path(c, "Cargo.toml"), "[package]\nname = \""+c+"\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
				write(t, sb.path(c, "src", "lib.rs"), "pub fn one() -> i32 {\n    1\n}\n")
			}
			run(t, sb.dir, "git", "init", "--quiet", "--initial-branch=main", sb.path("gitdep"))
			run(t, sb.path("gitdep"), "git", "add", "-A")
			run(t, sb.path("gitdep"), "git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "gitdep")
			run(t, sb.path("gitdep"), "git", "tag", "v1")
			write(t, sb.path("ws", "util", "src", "lib.rs"), "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        println!(\"captured output\");\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n")
		},
		calls: func(sb *sandbox) []call {
			ws := sb.path("ws")
			gitdep := "file://" + filepath.ToSlash(sb.path("gitdep"))
			return []call{
				{tool: "cargo_check", args: a{"workspace": true, "all_targets": true, "dir": ws}, want: []string{"Finished"}},
				{tool: "cargo_check", args: a{"package": "app", "features": "loud", "dir": ws}, want: []string{"Finished"}},
				{tool: "cargo_build", args: a{"workspace": true, "all_targets": true, "dir": ws}, want: []string{"Finished"}},
				{tool: "cargo_build", args: a{"package": "app", "features": "loud", "release": true, "dir": ws}, want: []string{"Finished `release`"}, check: exists(sb.path("target", "release", "app"), true)},
				{tool: "cargo_test", args: a{"test_name": "adds", "package": "util", "test_arg": []any{"--nocapture", "--test-threads=1"}, "dir": ws}, want: []string{"captured output", "test tests::adds ...", "1 passed"}},
				{tool: "cargo_test", args: a{"workspace": true, "no_fail_fast": true, "features": "app/loud", "dir": ws}, want: []string{"test result: ok"}},
				{tool: "cargo_test", args: a{"test_name": "adds", "package": "util", "release": true, "dir": ws}, want: []string{"1 passed", "release"}},
				// target: which test targets run (an integration test, the
				// library's unit tests, the doc tests, the binaries').
				{tool: "cargo_test", args: a{"target": "--test=more", "package": "util", "dir": ws}, before: func(t *testing.T) {
					write(t, sb.path("ws", "util", "tests", "more.rs"), "#[test]\nfn sums() {\n    assert_eq!(util::add(2, 2), 4);\n}\n")
					write(t, sb.path("ws", "util", "src", "lib.rs"), "/// Adds.\n///\n/// ```\n/// assert_eq!(util::add(1, 1), 2);\n/// ```\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        println!(\"captured output\");\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n")
				}, want: []string{"tests/more.rs", "test sums ... ok"}, check: lacks("tests::adds", "Doc-tests")},
				{tool: "cargo_test", args: a{"target": "--lib", "package": "util", "dir": ws}, want: []string{"test tests::adds ... ok"}, check: lacks("sums", "Doc-tests")},
				{tool: "cargo_test", args: a{"target": "--doc", "package": "util", "dir": ws}, want: []string{"Doc-tests util", "src/lib.rs - add"}, check: lacks("tests::adds", "sums")},
				{tool: "cargo_test", args: a{"target": "--bins", "package": "app", "dir": ws}, want: []string{"src/main.rs", "0 passed"}},
				{tool: "cargo_test", args: a{"target": "--no-run", "dir": ws}, refused: "does not match pattern"},
				{tool: "cargo_test", args: a{"target": "--test=x --doc", "dir": ws}, refused: "does not match pattern"},
				{tool: "cargo_run", args: a{"bin": "app", "package": "app", "program_arg": "--flag", "dir": ws}, want: []string{`app args ["--flag"]`}},
				{tool: "cargo_run", args: a{"package": "app", "program_arg": []any{"-v", "x y"}, "dir": ws}, want: []string{`app args ["-v", "x y"]`}},
				{tool: "cargo_bench", args: a{"package": "util", "no_run": true, "dir": ws}, want: []string{"Finished `bench`"}},
				{tool: "cargo_bench", args: a{"bench_name": "adds", "package": "util", "bench_arg": []any{"--list"}, "dir": ws}, want: []string{"Running"}},
				{tool: "cargo_doc", args: a{"no_deps": true, "package": "util", "document_private_items": true, "dir": ws}, check: exists(sb.path("target", "doc", "util", "index.html"), true)},
				{tool: "cargo_run", args: a{"example": "demo", "package": "app", "release": true, "dir": ws}, want: []string{"demo example"}},
				{tool: "cargo_clippy", args: a{"workspace": true, "all_targets": true, "lint_arg": "-Dwarnings", "dir": ws}, want: []string{"Finished"}},
				{tool: "cargo_clippy", args: a{"fix": true, "allow_dirty": true, "dir": sb.path("ws", "util")}, want: []string{"Finished"}},
				{tool: "cargo_fmt", args: a{"check": true, "dir": ws}, before: func(t *testing.T) {
					write(t, sb.path("ws", "util", "src", "extra.rs"), "pub fn  f( )->i32{1}\n")
					write(t, sb.path("ws", "util", "src", "lib.rs"), "pub mod extra;\n\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n")
					// rustfmt colours its diff when TERM names a colour terminal.
					t.Setenv("TERM", "xterm-256color")
				}, exit: 1, want: []string{"Diff in", "extra.rs", "-pub fn  f( )->i32{1}", "+pub fn f() -> i32 {"}, check: lacks("\x1b")},
				{tool: "cargo_fmt", args: a{"all": true, "dir": ws}, check: fileHas(sb.path("ws", "util", "src", "extra.rs"), "pub fn f() -> i32 {")},
				{tool: "cargo_add", args: a{"crate": "util", "package": "app", "dir": ws}, check: fileHas(sb.path("ws", "app", "Cargo.toml"), `util = { version = "0.1.0", path = "../util"`)},
				{tool: "cargo_add", args: a{"crate": "util", "dev": true, "package": "app", "dir": ws}, check: fileHas(sb.path("ws", "app", "Cargo.toml"), "[dev-dependencies]")},
				{tool: "cargo_add", args: a{"crate": "util", "build": true, "features": "", "dir": sb.path("ws", "app")}, check: fileHas(sb.path("ws", "app", "Cargo.toml"), "[build-dependencies]")},
				{tool: "cargo_add", args: a{"path": "../localdep", "package": "app", "dir": ws}, want: []string{"Adding localdep (local)"}, check: fileHas(sb.path("ws", "app", "Cargo.toml"), `localdep = { version = "0.1.0", path = "../../localdep"`)},
				// The sandbox's default registry (for cargo_search) would be
				// written next to git, which cargo then refuses: crates.io
				// is the default for these two calls, as it is for a user.
				{tool: "cargo_add", args: a{"git": gitdep, "tag": "v1", "package": "app", "dir": ws}, before: crateDefaultRegistry, check: fileHas(sb.path("ws", "app", "Cargo.toml"), `gitdep = { git = "`+gitdep+`", tag = "v1"`)},
				{tool: "cargo_add", args: a{"crate": "gitdep", "git": gitdep, "branch": "main", "dir": sb.path("ws", "app")}, before: crateDefaultRegistry, check: fileHas(sb.path("ws", "app", "Cargo.toml"), `gitdep = { git = "`+gitdep+`", version = "0.1.0", branch = "main" }`)},
				{tool: "cargo_check", args: a{"package": "app", "dir": ws}, want: []string{"Checking localdep", "gitdep?branch=main", "Finished"}},
				{tool: "cargo_remove", args: a{"crate": []any{"localdep", "gitdep"}, "package": "app", "dir": ws}, want: []string{"Removing localdep from dependencies", "Removing gitdep from dependencies"}},
				{tool: "cargo_tree", args: a{"invert": "util", "depth": 1, "dir": ws}, want: []string{"util v0.1.0", "app v0.1.0"}},
				{tool: "cargo_tree", args: a{"package": "app", "duplicates": true, "dir": ws}},
				{tool: "cargo_remove", args: a{"crate": []any{"util"}, "dev": true, "package": "app", "dir": ws}, want: []string{"Removing util from dev-dependencies"}},
				{tool: "cargo_update", args: a{"dry_run": true, "dir": ws}},
				{tool: "cargo_update", args: a{"crate": []any{"util", "app"}, "dir": ws}},
				{tool: "cargo_search", args: a{"query": "serde", "limit": 5}, want: []string{`serde-fake = "1.2.3"`, "A fake crate"}},
				{tool: "cargo_new", args: a{"path": "newlib", "library": true, "dir": sb.dir}, check: exists(sb.path("newlib", "src", "lib.rs"), true)},
				{tool: "cargo_new", args: a{"path": "newbin", "dir": sb.dir}, check: exists(sb.path("newbin", "src", "main.rs"), true)},
				{tool: "cargo_clean", args: a{"package": "util", "release": true, "dir": ws}},
				{tool: "cargo_clean", args: a{"dir": ws}, check: exists(sb.path("target"), false)},
			}
		},
	})
}

// crateDefaultRegistry makes crates.io cargo's default registry for one call.
func crateDefaultRegistry(t *testing.T) { t.Setenv("CARGO_REGISTRY_DEFAULT", "crates-io") }

// envValue returns the value of key in env (KEY=VALUE entries).
func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := cut(kv); ok && k == key {
			return v
		}
	}
	return ""
}

func cut(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}
