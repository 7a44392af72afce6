// Command release prepares a release of the CLImax modules and tags it, or
// serves the working tree at a candidate version from a file-system module
// proxy so that CI can install it the way users will.
//
// Usage (from the repository root):
//
//	go -C tools/release run . -version v0.2.0 -dry-run   # print the plan and run the checks, change nothing
//	go -C tools/release run . -version v0.2.0            # commit the go.mod/go.sum/go.work changes, tag every module
//	go -C tools/release run . -version v0.2.0 -proxy DIR # write a module proxy serving the tree at v0.2.0
//	go -C tools/release run . -candidate                 # print a version for -proxy naming the tree's contents
//	go -C tools/release run . -current                   # print the version the tree is wired to
//	go -C tools/release run . -tidy                      # go mod tidy every module (see below)
//
// The command is a workspace of its own (tools/release/go.work), outside the
// repository's go.work: its dependencies (golang.org/x/mod and what that
// requires) would otherwise raise the versions of modules that climax links,
// such as golang.org/x/sys, in every build and test of the workspace, so
// that CI would test versions that go install never links.
//
// A release sets every released module's requirements on its siblings to
// the new version (with go.sum lines computed from the module zips, in
// dependency order), moves go.work's replace lines to that version, checks
// that every module is tidy against the candidate served from a temporary
// proxy, commits the result and creates one annotated tag per module
// (index/v0.2.0, configs/v0.2.0, ..., climax/v0.2.0) in dependency order;
// the binaries are released from climax/v0.2.0. It refuses a tree without
// a LICENSE, a NOTICE and a THIRD_PARTY_LICENSES at its root. Pushing is
// left to the person releasing; the command prints the git push to run.
//
// Between releases the go.mod files require their siblings at a version
// the module proxy may not serve yet, so go mod tidy cannot run in a
// module directory; -tidy runs it in a copy of the tree against a proxy
// serving the tree at that version and writes the changes back (go.sum
// keeps its own lines for the sibling modules).
// RELEASING.md describes the process and the versioning rules.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// flags is the command line.
type flags struct {
	version, proxy, modcache, dir string
	dryRun, current, cand, tidy   bool
}

// parseFlags parses args; ok false means exit with code.
func parseFlags(args []string, stderr io.Writer) (f flags, code int, ok bool) {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.version, "version", "", "the version to release, e.g. v0.2.0 (tags index/v0.2.0, ...)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the plan and run the checks without changing the repository")
	fs.StringVar(&f.proxy, "proxy", "", "write a file-system module proxy serving the tree at -version to this directory (for GOPROXY=file://DIR), change nothing")
	fs.StringVar(&f.modcache, "modcache", "", "module cache for the checks, kept between runs to save time: the project's own modules are removed from it first (default: a temporary one)")
	fs.BoolVar(&f.current, "current", false, "print the version the go.mod files require their siblings at, and exit")
	fs.BoolVar(&f.cand, "candidate", false, "print a candidate version for -proxy: the current version with a pre-release suffix naming the tree's contents (v0.1.0-ci-0123456789ab), and exit")
	fs.BoolVar(&f.tidy, "tidy", false, "run go mod tidy in every module against the tree served at the current version (go mod tidy itself cannot fetch unpublished siblings)")
	fs.StringVar(&f.dir, "C", ".", "a directory inside the repository")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage:
  go -C tools/release run . -version vX.Y.Z [-dry-run]
  go -C tools/release run . -version vX.Y.Z -proxy DIR [-modcache DIR]
  go -C tools/release run . -candidate | -current | -tidy

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return f, 0, false
		}
		return f, 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "release: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return f, 2, false
	}
	return f, 0, true
}

// run is the whole command, testable: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	f, code, ok := parseFlags(args, stderr)
	if !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	root, err := repoRoot(f.dir)
	if err != nil {
		return fail(err)
	}
	ws, err := loadWorkspace(root, climaxLayout)
	if err != nil {
		return fail(err)
	}
	switch {
	case f.current || f.cand:
		version := ws.wiredVersion
		if !f.current {
			version = ws.candidateVersion
		}
		v, err := version()
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, v)
		return 0
	case f.tidy:
		if err := tidyTree(ws, f.modcache, stdout); err != nil {
			return fail(err)
		}
		return 0
	case f.version == "":
		fmt.Fprintln(stderr, "release: -version is required, e.g. -version v0.2.0")
		return 2
	case f.proxy != "" && f.dryRun:
		fmt.Fprintln(stderr, "release: -proxy and -dry-run do not go together: -proxy never changes the repository")
		return 2
	}
	opts := options{version: f.version, dryRun: f.dryRun, modcache: f.modcache, out: stdout}
	if f.proxy != "" {
		opts.proxyDir, err = filepath.Abs(f.proxy)
		if err == nil {
			err = candidate(ws, opts)
		}
	} else {
		err = release(ws, opts)
	}
	if err != nil {
		return fail(err)
	}
	return 0
}
