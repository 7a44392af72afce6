package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// options are the command line of a release or a candidate proxy.
type options struct {
	version  string
	dryRun   bool
	proxyDir string // candidate: where to write the proxy
	modcache string // module cache for the checks; "" for a temporary one
	out      io.Writer
}

// candidate writes a file-system module proxy serving the working tree at
// opts.version to opts.proxyDir and checks that every stamped module is
// tidy against it. It does not change the repository.
func candidate(ws *workspace, opts options) error {
	if err := checkVersion(opts.version); err != nil {
		return err
	}
	if entries, err := os.ReadDir(opts.proxyDir); err == nil && len(entries) > 0 {
		return fmt.Errorf("proxy directory %s is not empty: give a new or empty one", opts.proxyDir)
	}
	stamped, _, err := stamp(ws, opts.version, opts.proxyDir, time.Now())
	if err != nil {
		return err
	}
	if err := checkTidy(ws, stamped, opts); err != nil {
		return err
	}
	var names []string
	for _, m := range ws.released() {
		names = append(names, m.dir)
	}
	fmt.Fprintf(opts.out, "%s serves %s at %s (GOPROXY=%s)\n", opts.proxyDir, strings.Join(names, ", "), opts.version, fileURL(opts.proxyDir))
	return nil
}

// release stamps the repository at opts.version, checks it, and unless
// opts.dryRun commits the changed files and tags every released module in
// dependency order. A dry run prints the same plan and runs the same
// checks, and fails when a release would.
func release(ws *workspace, opts options) error {
	if err := checkVersion(opts.version); err != nil {
		return err
	}
	w := opts.out
	problems, err := releaseProblems(ws, opts.version)
	if err != nil {
		return err
	}
	if !opts.dryRun && len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n"))
	}

	proxyDir, err := os.MkdirTemp("", "climax-release-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(proxyDir)
	stamped, _, err := stamp(ws, opts.version, proxyDir, time.Now())
	if err != nil {
		return err
	}
	changed := printPlan(w, ws, stamped, opts.version)
	fmt.Fprintln(w, "\nchecks:")
	if err := checkTidy(ws, stamped, options{modcache: opts.modcache, proxyDir: proxyDir, out: indentWriter{w}}); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		fmt.Fprintln(w)
		return fmt.Errorf("a release of %s would fail:\n%s", opts.version, strings.Join(problems, "\n"))
	}

	var tags []string
	for _, prefix := range tagPrefixes(ws) {
		tags = append(tags, prefix+opts.version)
	}
	push := "git push origin HEAD " + strings.Join(tags, " ")
	if opts.dryRun {
		fmt.Fprintf(w, "\ndry run: would commit %q and tag, in this order: %s\nthen publish with: %s\n", "release: "+opts.version, strings.Join(tags, " "), push)
		return nil
	}
	if err := commitAndTag(ws, stamped, changed, tags, opts.version); err != nil {
		return err
	}
	head, _ := git(ws.root, "rev-parse", "--short", "HEAD")
	fmt.Fprintf(w, "\ncommitted %s and tagged it: %s\npublish with: %s\n", strings.TrimSpace(head), strings.Join(tags, " "), push)
	return nil
}

// releaseProblems returns what stops a release of version: a work tree
// that is not clean, missing legal files, a tag at or above version.
func releaseProblems(ws *workspace, version string) ([]string, error) {
	var problems []string
	if status, err := git(ws.root, "status", "--porcelain"); err != nil {
		return nil, err
	} else if status != "" {
		problems = append(problems, "the work tree is not clean (commit or stash first):\n"+indent(status))
	}
	problems = append(problems, checkLegalFiles(ws.files)...)
	for _, prefix := range tagPrefixes(ws) {
		tags, err := git(ws.root, "tag", "--list", prefix+"v*")
		if err != nil {
			return nil, err
		}
		for tag := range strings.FieldsSeq(tags) {
			v := strings.TrimPrefix(tag, prefix)
			if semver.IsValid(v) && semver.Compare(v, version) >= 0 {
				problems = append(problems, fmt.Sprintf("tag %s exists: %s must be above every released version", tag, version))
			}
		}
	}
	return problems, nil
}

// printPlan prints the modules in dependency order with what a release of
// version does to each, and the file changes of stamped; it returns the
// names of the changed files.
func printPlan(w io.Writer, ws *workspace, stamped *tree, version string) (changed []string) {
	head, _ := git(ws.root, "rev-parse", "--short", "HEAD")
	fmt.Fprintf(w, "release %s of %s (HEAD %s)\n\nmodules, in dependency order:\n", version, ws.layout.prefix, strings.TrimSpace(head))
	for _, m := range ws.modules {
		var deps []string
		for _, p := range ws.layout.siblings(m) {
			deps = append(deps, strings.TrimPrefix(p, ws.layout.prefix+"/"))
		}
		what := "tag " + m.dir + "/" + version
		if !m.released {
			what = "not tagged (internal)"
		}
		fmt.Fprintf(w, "  %-14s %-26s requires %s\n", m.dir, what, orNothing(strings.Join(deps, ", ")))
	}
	changed = ws.files.changed(stamped)
	fmt.Fprintln(w, "\nfile changes:")
	if len(changed) == 0 {
		fmt.Fprintln(w, "  none: the tree is already at", version)
	}
	for _, name := range changed {
		fmt.Fprintf(w, "  %s\n", name)
		removed, added := lineDiff(ws.files.data[name], stamped.data[name])
		for _, l := range removed {
			fmt.Fprintf(w, "    - %s\n", l)
		}
		for _, l := range added {
			fmt.Fprintf(w, "    + %s\n", l)
		}
	}
	return changed
}

// commitAndTag writes the changed files of stamped, commits them and
// makes the annotated tags, in order.
func commitAndTag(ws *workspace, stamped *tree, changed, tags []string, version string) error {
	for _, name := range changed {
		p := filepath.Join(ws.root, filepath.FromSlash(name))
		if err := os.WriteFile(p, stamped.data[name], stamped.mode[name]); err != nil {
			return err
		}
	}
	if len(changed) > 0 {
		if _, err := git(ws.root, append([]string{"add", "--"}, changed...)...); err != nil {
			return err
		}
		if _, err := git(ws.root, "commit", "-q", "-m", "release: "+version); err != nil {
			return err
		}
	}
	for i, tag := range tags {
		msg := ws.released()[i].path + " " + version
		if _, err := git(ws.root, "tag", "-a", tag, "-m", msg); err != nil {
			return fmt.Errorf("%w (tags made so far: %s; delete them with git tag -d before trying again)", err, strings.Join(tags[:i], " "))
		}
	}
	return nil
}

// tidyTree runs go mod tidy in every module of a copy of the tree, with
// the released modules served at the version the tree requires them at,
// and writes the resulting go.mod and go.sum files back. A go.sum keeps
// its own lines for released modules: they are the published hashes of
// the released version, not those of the working tree.
func tidyTree(ws *workspace, modcache string, out io.Writer) error {
	version, err := ws.wiredVersion()
	if err != nil {
		return err
	}
	proxyDir, err := os.MkdirTemp("", "climax-release-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(proxyDir)
	stamped, _, err := stamp(ws, version, proxyDir, time.Now())
	if err != nil {
		return err
	}
	stage, err := os.MkdirTemp("", "climax-release-stage-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := stamped.write(stage); err != nil {
		return err
	}
	env, err := goEnv(ws.layout, proxyDir, modcache, stage)
	if err != nil {
		return err
	}
	var changed int
	for _, m := range ws.modules {
		cmd := exec.Command("go", "mod", "tidy")
		cmd.Dir = filepath.Join(stage, filepath.FromSlash(m.dir))
		cmd.Env = env
		if outp, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go mod tidy in %s: %v\n%s", m.dir, err, indent(string(outp)))
		}
		for _, name := range []string{m.dir + "/go.mod", m.dir + "/go.sum"} {
			data, err := os.ReadFile(filepath.Join(stage, filepath.FromSlash(name)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			} else if err != nil {
				return err
			}
			if strings.HasSuffix(name, "/go.sum") {
				if data, err = keepOwnSums(ws.layout, data, ws.files.data[name]); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
			}
			if old, ok := ws.files.get(name); ok && bytes.Equal(old, data) || !ok && len(data) == 0 {
				continue
			}
			if err := os.WriteFile(filepath.Join(ws.root, filepath.FromSlash(name)), data, 0o644); err != nil {
				return err
			}
			fmt.Fprintf(out, "updated %s\n", name)
			changed++
		}
	}
	if changed == 0 {
		fmt.Fprintf(out, "every module is tidy (siblings at %s)\n", version)
	}
	return nil
}

// keepOwnSums returns the go.sum data tidied without its lines for
// released modules, plus those lines of the original go.sum.
func keepOwnSums(l layout, tidied, original []byte) ([]byte, error) {
	var own []string
	for line := range strings.Lines(string(original)) {
		if f := strings.Fields(line); len(f) > 0 && l.siblingPath(f[0]) {
			own = append(own, strings.TrimSpace(line))
		}
	}
	var lines []string
	for line := range strings.Lines(string(tidied)) {
		if f := strings.Fields(line); len(f) > 0 && !l.siblingPath(f[0]) {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	return sortSum(append(lines, own...))
}

// legalFiles are the files at the repository root that every release
// carries: the module zips take LICENSE, and the release archives, the
// container images and the MCP bundle ship all three (RELEASING.md).
var legalFiles = []string{"LICENSE", "NOTICE", "THIRD_PARTY_LICENSES"}

// checkLegalFiles returns a problem for each of legalFiles that the tree
// lacks or holds empty.
func checkLegalFiles(t *tree) []string {
	var problems []string
	for _, name := range legalFiles {
		data, ok := t.get(name)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is missing at the repository root: every release carries it (module zips, archives, images); add and commit it", name))
		case len(bytes.TrimSpace(data)) == 0:
			problems = append(problems, fmt.Sprintf("%s at the repository root is empty: every release carries it (module zips, archives, images)", name))
		}
	}
	return problems
}

// tagPrefixes returns the prefixes of a release's tags in the order they
// are made: one per released module in dependency order (index/, ...,
// climax/). There is no tag without a prefix: a tag vX.Y.Z would be a
// version of a module at the repository root, which the go command looks
// up, and downloads whole, for every go install of the climax module
// (RELEASING.md). The binaries are released from climax/vX.Y.Z.
func tagPrefixes(ws *workspace) []string {
	var out []string
	for _, m := range ws.released() {
		out = append(out, m.dir+"/")
	}
	return out
}

// checkTidy writes the stamped tree to a temporary directory and runs go
// mod tidy -diff in every module there, outside the workspace, with the
// released modules served from opts.proxyDir.
func checkTidy(ws *workspace, stamped *tree, opts options) error {
	stage, err := os.MkdirTemp("", "climax-release-stage-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := stamped.write(stage); err != nil {
		return err
	}
	env, err := goEnv(ws.layout, opts.proxyDir, opts.modcache, stage)
	if err != nil {
		return err
	}
	var failed []string
	for _, m := range ws.modules {
		cmd := exec.Command("go", "mod", "tidy", "-diff")
		cmd.Dir = filepath.Join(stage, filepath.FromSlash(m.dir))
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			failed = append(failed, fmt.Sprintf("go mod tidy -diff in %s (stamped, GOWORK=off): %v\n%s", m.dir, err, indent(string(out))))
			fmt.Fprintf(opts.out, "FAIL go mod tidy -diff  %s\n", m.dir)
			continue
		}
		fmt.Fprintf(opts.out, "ok   go mod tidy -diff  %s\n", m.dir)
	}
	if len(failed) > 0 {
		return errors.New(strings.Join(failed, "\n"))
	}
	return nil
}

// goEnv returns candidateEnv with the module cache at modcache, from
// which the project's modules are removed first, or, when modcache is "",
// in a new directory in tmp.
func goEnv(l layout, proxyDir, modcache, tmp string) ([]string, error) {
	if modcache == "" {
		modcache = filepath.Join(tmp, ".modcache")
	} else if err := forgetOwnModules(modcache, l.prefix); err != nil {
		return nil, err
	}
	return candidateEnv(l, proxyDir, modcache)
}

// candidateEnv is the environment in which the go command sees the
// released modules as the proxy at proxyDir serves them: no workspace, the
// proxy first (then the module cache's own downloads and the usual proxy,
// for third-party modules), no checksum database for the project's
// modules, and a module cache of its own, so that no earlier contents of
// the same versions are used.
func candidateEnv(l layout, proxyDir, modcache string) ([]string, error) {
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOPROXY", "GOFLAGS").Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	vals := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(vals) != 3 {
		return nil, fmt.Errorf("go env printed %q", out)
	}
	proxies := []string{fileURL(proxyDir)}
	if vals[0] != "" {
		proxies = append(proxies, fileURL(filepath.Join(vals[0], "cache", "download")))
	}
	if vals[1] != "" && vals[1] != "off" {
		proxies = append(proxies, vals[1])
	}
	return append(os.Environ(),
		"GOWORK=off",
		"GOFLAGS="+strings.TrimSpace(vals[2]+" -mod=mod -modcacherw"),
		"GOPROXY="+strings.Join(proxies, ","),
		"GONOSUMDB="+l.prefix,
		"GOPRIVATE=",
		"GONOPROXY=",
		"GOMODCACHE="+modcache,
	), nil
}

// forgetOwnModules removes the project's modules, extracted and
// downloaded, from the module cache at dir, so that the go command fetches
// them again from the candidate proxy; third-party modules stay.
func forgetOwnModules(dir, prefix string) error {
	esc, err := module.EscapePath(prefix)
	if err != nil {
		return err
	}
	for _, p := range []string{
		filepath.Join(dir, filepath.FromSlash(esc)),
		filepath.Join(dir, "cache", "download", filepath.FromSlash(esc)),
	} {
		// The go command makes extracted modules read-only unless
		// -modcacherw was given: make them removable first.
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(path, 0o755)
			}
			return nil
		})
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}

// fileURL returns the file:// URL of a directory, as GOPROXY takes it.
func fileURL(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	return "file://" + p
}

// lineDiff returns the lines of a missing from b and the lines of b
// missing from a, each in order.
func lineDiff(a, b []byte) (removed, added []string) {
	al := strings.Split(strings.TrimSuffix(string(a), "\n"), "\n")
	bl := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(a) == 0 {
		al = nil
	}
	for _, l := range al {
		if !slices.Contains(bl, l) {
			removed = append(removed, l)
		}
	}
	for _, l := range bl {
		if !slices.Contains(al, l) {
			added = append(added, l)
		}
	}
	return removed, added
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

func orNothing(s string) string {
	if s == "" {
		return "no sibling"
	}
	return s
}

// indentWriter indents what is written to it by two spaces; every write
// must be whole lines.
type indentWriter struct{ w io.Writer }

func (i indentWriter) Write(p []byte) (int, error) {
	lines := bytes.SplitAfter(p, []byte("\n"))
	for _, l := range lines {
		if len(l) == 0 {
			continue
		}
		if _, err := i.w.Write(append([]byte("  "), l...)); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
