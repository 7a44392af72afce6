// Package realtest proves the bundled configs against the real programs.
//
// Its tests call every tool of every bundled config the way the server does
// (config loaded from the embedded files, index built, arguments validated,
// command line built and run by the executor) against the real program, in
// a sandbox made for each config: a temporary git repository with history,
// branches, tags and a bare remote served over HTTP on 127.0.0.1 (git
// http-backend; git_push refuses a local path); a Go module built with
// GOPROXY=off; a Cargo workspace built offline; npm against a small registry
// served on 127.0.0.1 by the test; curl against a local HTTP server; psql
// against a PostgreSQL server started on a Unix socket in a temporary
// directory; docker and kubectl against small fake API servers on 127.0.0.1
// that record the requests they receive.
//
// A config whose program is not installed is skipped with a message saying
// so. The test prints one summary line per config (tools run, passed,
// skipped) with -v, and writes the same lines to the file named by
// CLIMAX_REALTEST_REPORT when that variable is set.
//
// The package has no API: everything is in its tests.
package realtest
