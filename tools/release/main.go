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
// a LICENSE and a NOTICE at its root. Pushing is left to the
// person releasing; the command prints the git push to run.
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

// run is the whole command, testable: it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		version  = fs.String("version", "", "the version to release, e.g. v0.2.0 (tags index/v0.2.0, ...)")
		dryRun   = fs.Bool("dry-run", false, "print the plan and run the checks without changing the repository")
		proxy    = fs.String("proxy", "", "write a file-system module proxy serving the tree at -version to this directory (for GOPROXY=file://DIR), change nothing")
		modcache = fs.String("modcache", "", "module cache for the checks, kept between runs to save time: the project's own modules are removed from it first (default: a temporary one)")
		current  = fs.Bool("current", false, "print the version the go.mod files require their siblings at, and exit")
		cand     = fs.Bool("candidate", false, "print a candidate version for -proxy: the current version with a pre-release suffix naming the tree's contents (v0.1.0-ci-0123456789ab), and exit")
		tidy     = fs.Bool("tidy", false, "run go mod tidy in every module against the tree served at the current version (go mod tidy itself cannot fetch unpublished siblings)")
		dir      = fs.String("C", ".", "a directory inside the repository")
	)
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
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "release: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	root, err := repoRoot(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	ws, err := loadWorkspace(root, climaxLayout)
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	if *current {
		v, err := ws.wiredVersion()
		if err != nil {
			fmt.Fprintf(stderr, "release: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, v)
		return 0
	}
	if *cand {
		v, err := ws.candidateVersion()
		if err != nil {
			fmt.Fprintf(stderr, "release: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, v)
		return 0
	}
	if *tidy {
		if err := tidyTree(ws, *modcache, stdout); err != nil {
			fmt.Fprintf(stderr, "release: %v\n", err)
			return 1
		}
		return 0
	}
	if *version == "" {
		fmt.Fprintln(stderr, "release: -version is required, e.g. -version v0.2.0")
		return 2
	}
	if *proxy != "" && *dryRun {
		fmt.Fprintln(stderr, "release: -proxy and -dry-run do not go together: -proxy never changes the repository")
		return 2
	}
	opts := options{
		version:  *version,
		dryRun:   *dryRun,
		modcache: *modcache,
		out:      stdout,
	}
	if *proxy != "" {
		opts.proxyDir, err = filepath.Abs(*proxy)
		if err == nil {
			err = candidate(ws, opts)
		}
	} else {
		err = release(ws, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	return 0
}
