package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

// fixtureDeps is a small copy of the repository's module graph: each
// module's go.mod requires these siblings at the wired version, and its
// code imports them, so that go mod tidy keeps them.
var fixtureDeps = map[string][]string{
	"index":            nil,
	"configs":          nil,
	"executor":         {"index"},
	"metatools":        {"executor", "index"},
	"server":           {"executor", "index", "metatools"},
	"climax":           {"configs", "executor", "index", "server"},
	"benchmark":        {"configs", "index", "metatools"},
	"configs/realtest": {"configs", "executor", "index"}, // a module nested in a released one
}

// fixtureIndirect are the siblings a module needs only through others:
// tidy lists them as // indirect.
var fixtureIndirect = map[string][]string{"climax": {"metatools"}, "benchmark": {"executor"}}

// newFixture makes a git repository holding a workspace laid out as
// climaxLayout, wired to version, with one commit, and returns its root.
// The modules have no third-party dependencies, so that the go command
// needs nothing beyond the proxies the tests write.
func newFixture(t *testing.T, version string) string {
	t.Helper()
	t.Setenv("GIT_AUTHOR_NAME", "test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1") // no core.autocrlf from a system config: files stay as written
	t.Setenv("GOFLAGS", "")
	root := t.TempDir()
	p := climaxLayout.prefix
	files := map[string]string{}
	var uses, replaces []string
	for dir, deps := range fixtureDeps {
		mod := "module " + p + "/" + dir + "\n\ngo 1.26\n"
		var imports []string
		var direct, indirect []string
		for _, d := range deps {
			direct = append(direct, p+"/"+d+" "+version)
			imports = append(imports, "\t_ \""+p+"/"+d+"\"\n")
		}
		for _, d := range fixtureIndirect[dir] {
			indirect = append(indirect, p+"/"+d+" "+version+" // indirect")
		}
		mod += requireBlock(direct) + requireBlock(indirect)
		pkg := strings.ReplaceAll(filepath.Base(dir), "-", "")
		if dir == "climax" || dir == "benchmark" {
			pkg = "main"
		}
		src := "package " + pkg + "\n"
		if len(imports) > 0 {
			src += "\nimport (\n" + strings.Join(imports, "") + ")\n"
		}
		if pkg == "main" {
			src += "\nfunc main() {}\n"
		}
		files[dir+"/go.mod"] = mod
		files[dir+"/x.go"] = src
		uses = append(uses, "\t./"+dir+"\n")
		if slices.Contains(climaxLayout.released, dir) {
			replaces = append(replaces, "\t"+p+"/"+dir+" "+version+" => ./"+dir+"\n")
		}
	}
	slices.Sort(uses)
	slices.Sort(replaces)
	files["go.work"] = "go 1.26\n\nuse (\n" + strings.Join(uses, "") + ")\n\n// Local wiring.\nreplace (\n" + strings.Join(replaces, "") + ")\n"
	files["README.md"] = "fixture\n"
	files["LICENSE"] = "Fixture license.\n"
	files["NOTICE"] = "Fixture notices.\n"
	files["THIRD_PARTY_LICENSES"] = "Fixture licences.\n"
	for name, data := range files {
		writeTestFile(t, root, name, data)
	}
	mustGit(t, root, "init", "-q")
	mustGit(t, root, "add", ".")
	mustGit(t, root, "commit", "-q", "-m", "fixture")
	return root
}

// requireBlock formats requirements as go mod tidy does.
func requireBlock(reqs []string) string {
	switch len(reqs) {
	case 0:
		return ""
	case 1:
		return "\nrequire " + reqs[0] + "\n"
	}
	return "\nrequire (\n\t" + strings.Join(reqs, "\n\t") + "\n)\n"
}

func writeTestFile(t *testing.T, root, name, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := git(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readTestFile(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runRelease runs the command on the repository at root.
func runRelease(t *testing.T, root string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"-C", root}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func moduleDirs(mods []*workModule) []string {
	var dirs []string
	for _, m := range mods {
		dirs = append(dirs, m.dir)
	}
	return dirs
}

func TestDependencyOrder(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	want := []string{"index", "configs", "executor", "metatools", "server", "climax", "benchmark", "configs/realtest"}
	ws, err := loadWorkspace(root, climaxLayout)
	if err != nil {
		t.Fatal(err)
	}
	if got := moduleDirs(ws.modules); !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	// The layout's order only breaks ties: listed top-down, the modules
	// still come in dependency order.
	reversed := climaxLayout
	reversed.released = slices.Clone(climaxLayout.released)
	slices.Reverse(reversed.released)
	ws, err = loadWorkspace(root, reversed)
	if err != nil {
		t.Fatal(err)
	}
	got := moduleDirs(ws.released())
	for _, m := range ws.released() {
		for _, dep := range reversed.siblings(m) {
			if slices.Index(got, strings.TrimPrefix(dep, reversed.prefix+"/")) > slices.Index(got, m.dir) {
				t.Errorf("order %v: %s comes before %s, which it requires", got, m.dir, dep)
			}
		}
	}
	if got[0] != "configs" {
		t.Errorf("order %v: with the layout reversed, configs (no sibling) should come first", got)
	}
}

func TestLoadWorkspaceErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(t *testing.T, root string)
		wants []string
	}{
		{"cycle", func(t *testing.T, root string) {
			writeTestFile(t, root, "index/go.mod", "module github.com/climax-mcp/climax/index\n\ngo 1.26\n\nrequire github.com/climax-mcp/climax/climax v0.1.0\n")
		}, []string{"cycle", "index", "climax"}},
		{"unknown module", func(t *testing.T, root string) {
			writeTestFile(t, root, "extra/go.mod", "module github.com/climax-mcp/climax/extra\n\ngo 1.26\n")
			data := readTestFile(t, root, "go.work")
			writeTestFile(t, root, "go.work", strings.Replace(data, "use (\n", "use (\n\t./extra\n", 1))
		}, []string{"extra", "climaxLayout"}},
		{"released requires internal", func(t *testing.T, root string) {
			writeTestFile(t, root, "server/go.mod", "module github.com/climax-mcp/climax/server\n\ngo 1.26\n\nrequire github.com/climax-mcp/climax/benchmark v0.1.0\n")
		}, []string{"server/go.mod", "benchmark", "never released"}},
		{"wrong module path", func(t *testing.T, root string) {
			writeTestFile(t, root, "configs/go.mod", "module example.com/configs\n\ngo 1.26\n")
		}, []string{"configs/go.mod", "github.com/climax-mcp/climax/configs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newFixture(t, "v0.1.0")
			tc.edit(t, root)
			_, err := loadWorkspace(root, climaxLayout)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestCurrent(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	if code, out, errOut := runRelease(t, root, "-current"); code != 0 || out != "v0.1.0\n" {
		t.Errorf("-current: exit %d, stdout %q, stderr %q; want v0.1.0", code, out, errOut)
	}

	// A go.mod at another version.
	data := readTestFile(t, root, "server/go.mod")
	writeTestFile(t, root, "server/go.mod", strings.Replace(data, "metatools v0.1.0", "metatools v0.0.9", 1))
	if code, _, errOut := runRelease(t, root, "-current"); code != 1 || !strings.Contains(errOut, "v0.0.9 (server/go.mod)") {
		t.Errorf("-current with server requiring v0.0.9: exit %d, stderr %q", code, errOut)
	}
	writeTestFile(t, root, "server/go.mod", data)

	// A replace directive in a released module.
	writeTestFile(t, root, "executor/go.mod", readTestFile(t, root, "executor/go.mod")+"\nreplace github.com/climax-mcp/climax/index => ../index\n")
	if code, _, errOut := runRelease(t, root, "-current"); code != 1 || !strings.Contains(errOut, "executor/go.mod replaces github.com/climax-mcp/climax/index") || !strings.Contains(errOut, "go.work") {
		t.Errorf("-current with a replace in executor: exit %d, stderr %q", code, errOut)
	}
}

func TestCandidateVersion(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	candidate := func() string {
		t.Helper()
		code, out, errOut := runRelease(t, root, "-candidate")
		if code != 0 {
			t.Fatalf("-candidate: exit %d, stderr %q", code, errOut)
		}
		return strings.TrimSpace(out)
	}
	first := candidate()
	if !regexp.MustCompile(`^v0\.1\.0-ci-[0-9a-f]{12}$`).MatchString(first) || checkVersion(first) != nil {
		t.Errorf("-candidate printed %q, want v0.1.0-ci- and 12 hex digits, a valid version", first)
	}
	if again := candidate(); again != first {
		t.Errorf("-candidate on the same tree: %q, then %q", first, again)
	}
	writeTestFile(t, root, "index/x.go", "package index\n\nconst X = 1\n")
	if changed := candidate(); changed == first {
		t.Errorf("-candidate after a change in index: still %q", changed)
	}
}

func TestCheckVersion(t *testing.T) {
	for v, ok := range map[string]bool{
		"v0.2.0": true, "v1.0.0": true, "v0.2.0-rc.1": true,
		"0.2.0": false, "v0.2": false, "v2.0.0": false, "v0.2.0+build": false, "": false,
	} {
		if err := checkVersion(v); (err == nil) != ok {
			t.Errorf("checkVersion(%q) = %v, want ok %v", v, err, ok)
		}
	}
}

// goDownload asks the go command for a module served by the proxy at dir
// and returns its go.sum hashes as the go command computes them.
func goDownload(t *testing.T, dir, modVersion string) (zipSum, modSum string) {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", modVersion)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-modcacherw", "GOPROXY="+fileURL(dir), "GONOSUMDB=github.com/climax-mcp", "GOMODCACHE="+filepath.Join(cmd.Dir, "modcache"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s: %v\n%s", modVersion, err, out)
	}
	var info struct{ Sum, GoModSum string }
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	return info.Sum, info.GoModSum
}

func TestStamp(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	ws, err := loadWorkspace(root, climaxLayout)
	if err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	stamped, sums, err := stamp(ws, "v0.2.0", proxy, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != len(climaxLayout.released) {
		t.Errorf("%d modules in the proxy, want %d", len(sums), len(climaxLayout.released))
	}
	// The go command agrees with the hashes of every module served.
	for _, dir := range climaxLayout.released {
		path := climaxLayout.prefix + "/" + dir
		zipSum, modSum := goDownload(t, proxy, path+"@v0.2.0")
		if got := sums[path]; got.zip != zipSum || got.mod != modSum {
			t.Errorf("%s: stamped hashes %+v, the go command computes %s and %s", path, got, zipSum, modSum)
		}
	}
	climaxMod := string(stamped.data["climax/go.mod"])
	if strings.Contains(climaxMod, "v0.1.0") || !strings.Contains(climaxMod, climaxLayout.prefix+"/metatools v0.2.0 // indirect") {
		t.Errorf("climax/go.mod not at v0.2.0 (with its indirect comment kept):\n%s", climaxMod)
	}
	wantSum := ""
	for _, d := range []string{"configs", "executor", "index", "metatools", "server"} {
		s := sums[climaxLayout.prefix+"/"+d]
		wantSum += climaxLayout.prefix + "/" + d + " v0.2.0 " + s.zip + "\n" + climaxLayout.prefix + "/" + d + " v0.2.0/go.mod " + s.mod + "\n"
	}
	if got := string(stamped.data["climax/go.sum"]); got != wantSum {
		t.Errorf("climax/go.sum:\n%s\nwant:\n%s", got, wantSum)
	}
	if _, ok := stamped.data["index/go.sum"]; ok {
		t.Error("index requires no sibling, yet gets a go.sum")
	}
	work := string(stamped.data["go.work"])
	if strings.Contains(work, "v0.1.0") || !strings.Contains(work, climaxLayout.prefix+"/server v0.2.0 => ./server") || !strings.Contains(work, "// Local wiring.") {
		t.Errorf("go.work not moved to v0.2.0 with its comment kept:\n%s", work)
	}
	info := readTestFile(t, proxy, "github.com/climax-mcp/climax/index/@v/v0.2.0.info")
	if info != `{"Version":"v0.2.0","Time":"2026-01-02T03:04:05Z"}` {
		t.Errorf("index .info: %s", info)
	}
	// The repository itself is unchanged.
	if status := mustGit(t, root, "status", "--porcelain"); status != "" {
		t.Errorf("stamp changed the repository:\n%s", status)
	}
}

func TestDryRun(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	code, out, errOut := runRelease(t, root, "-version", "v0.2.0", "-dry-run")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	want := "would commit \"release: v0.2.0\" and tag, in this order: index/v0.2.0 configs/v0.2.0 executor/v0.2.0 metatools/v0.2.0 server/v0.2.0 climax/v0.2.0\n"
	for _, w := range []string{want, "- \tgithub.com/climax-mcp/climax/index v0.1.0", "+ \tgithub.com/climax-mcp/climax/index v0.2.0", "ok   go mod tidy -diff  configs/realtest", "git push origin HEAD index/v0.2.0"} {
		if !strings.Contains(out, w) {
			t.Errorf("dry run output lacks %q:\n%s", w, out)
		}
	}
	if status := mustGit(t, root, "status", "--porcelain"); status != "" {
		t.Errorf("dry run changed the repository:\n%s", status)
	}
	if tags := mustGit(t, root, "tag"); tags != "" {
		t.Errorf("dry run made tags: %s", tags)
	}

	// A dry run reports what would stop a release, and fails.
	writeTestFile(t, root, "README.md", "changed\n")
	code, _, errOut = runRelease(t, root, "-version", "v0.2.0", "-dry-run")
	if code != 1 || !strings.Contains(errOut, "not clean") || !strings.Contains(errOut, "README.md") {
		t.Errorf("dry run on a dirty tree: exit %d, stderr %q", code, errOut)
	}
}

func TestRelease(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	code, out, errOut := runRelease(t, root, "-version", "v0.2.0")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if msg := mustGit(t, root, "log", "-1", "--format=%s"); msg != "release: v0.2.0\n" {
		t.Errorf("HEAD commit %q, want the release commit", msg)
	}
	if status := mustGit(t, root, "status", "--porcelain"); status != "" {
		t.Errorf("release left changes:\n%s", status)
	}
	head := mustGit(t, root, "rev-parse", "HEAD")
	for _, tag := range []string{"index/v0.2.0", "configs/v0.2.0", "executor/v0.2.0", "metatools/v0.2.0", "server/v0.2.0", "climax/v0.2.0"} {
		if got := mustGit(t, root, "rev-parse", tag+"^{commit}"); got != head {
			t.Errorf("tag %s points to %s, want HEAD %s", tag, got, head)
		}
	}
	if !strings.Contains(out, "tagged it: index/v0.2.0 configs/v0.2.0 executor/v0.2.0 metatools/v0.2.0 server/v0.2.0 climax/v0.2.0\n") {
		t.Errorf("output does not list the tags in dependency order:\n%s", out)
	}
	if tags := mustGit(t, root, "tag", "--list", "benchmark/*", "configs/realtest/*"); tags != "" {
		t.Errorf("internal modules tagged: %s", tags)
	}
	// No tag without a prefix: it would be a version of a module at the
	// repository root, which every go install of climax would download.
	if tags := mustGit(t, root, "tag", "--list", "v*"); tags != "" {
		t.Errorf("tags without a module prefix: %s", tags)
	}
	if got := readTestFile(t, root, "executor/go.mod"); !strings.Contains(got, "index v0.2.0") {
		t.Errorf("executor/go.mod after the release:\n%s", got)
	}
	// The go.sum lines of the release commit are the hashes of the module
	// zips the go command makes from the tags (x/mod/zip.CreateFromVCS does
	// what it does, repository-root LICENSE included).
	sums := readTestFile(t, root, "climax/go.sum")
	for _, dir := range []string{"configs", "executor", "index", "metatools", "server"} {
		var buf bytes.Buffer
		mv := module.Version{Path: climaxLayout.prefix + "/" + dir, Version: "v0.2.0"}
		if err := zip.CreateFromVCS(&buf, mv, root, dir+"/v0.2.0", dir); err != nil {
			t.Fatal(err)
		}
		zipName := filepath.Join(t.TempDir(), "m.zip")
		if err := os.WriteFile(zipName, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		h, err := dirhash.HashZip(zipName, dirhash.Hash1)
		if err != nil {
			t.Fatal(err)
		}
		if line := mv.Path + " v0.2.0 " + h + "\n"; !strings.Contains(sums, line) {
			t.Errorf("climax/go.sum lacks %q (the hash of the zip made from tag %s/v0.2.0):\n%s", line, dir, sums)
		}
	}

	// The released tree is wired to the new version and builds in the
	// workspace.
	if code, out, errOut := runRelease(t, root, "-current"); code != 0 || out != "v0.2.0\n" {
		t.Errorf("-current after the release: exit %d, %q %q", code, out, errOut)
	}
	cmd := exec.Command("go", "build", "work")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go build work after the release: %v\n%s", err, out)
	}

	// The same version, or a lower one, cannot be released again.
	for _, v := range []string{"v0.2.0", "v0.1.5"} {
		code, _, errOut = runRelease(t, root, "-version", v)
		if code != 1 || !strings.Contains(errOut, "tag index/v0.2.0 exists") {
			t.Errorf("release %s after v0.2.0: exit %d, stderr %q", v, code, errOut)
		}
	}
}

func TestReleaseRefusesDirtyTree(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	writeTestFile(t, root, "index/new.go", "package index\n")
	code, _, errOut := runRelease(t, root, "-version", "v0.2.0")
	if code != 1 || !strings.Contains(errOut, "not clean") || !strings.Contains(errOut, "index/new.go") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if tags := mustGit(t, root, "tag"); tags != "" {
		t.Errorf("tags made: %s", tags)
	}
}

// A release needs a LICENSE, a NOTICE and THIRD_PARTY_LICENSES at the
// repository root, committed and not empty: the module zips, the archives,
// the bundles and the images carry them.
func TestReleaseRefusesMissingLegalFiles(t *testing.T) {
	for _, tt := range []struct {
		name, change, want string
	}{
		{"no LICENSE", "rm LICENSE", "LICENSE is missing"},
		{"no NOTICE", "rm NOTICE", "NOTICE is missing"},
		{"empty NOTICE", "empty NOTICE", "NOTICE at the repository root is empty"},
		{"no THIRD_PARTY_LICENSES", "rm THIRD_PARTY_LICENSES", "THIRD_PARTY_LICENSES is missing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := newFixture(t, "v0.1.0")
			verb, name, _ := strings.Cut(tt.change, " ")
			if verb == "rm" {
				mustGit(t, root, "rm", "-q", name)
			} else {
				writeTestFile(t, root, name, " \n")
				mustGit(t, root, "add", name)
			}
			mustGit(t, root, "commit", "-q", "-m", tt.change)
			for _, dry := range []bool{true, false} {
				args := []string{"-version", "v0.2.0"}
				if dry {
					args = append(args, "-dry-run")
				}
				code, _, errOut := runRelease(t, root, args...)
				if code != 1 || !strings.Contains(errOut, tt.want) {
					t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q", args, code, errOut, tt.want)
				}
			}
			if tags := mustGit(t, root, "tag"); tags != "" {
				t.Errorf("tags made: %s", tags)
			}
		})
	}
}

func TestCandidateProxy(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	// An uncommitted change is served: the proxy shows the work tree.
	writeTestFile(t, root, "index/extra.go", "package index\n\nconst Extra = 1\n")
	proxy := filepath.Join(t.TempDir(), "proxy")
	code, out, errOut := runRelease(t, root, "-version", "v0.1.0", "-proxy", proxy)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "serves index, configs, executor, metatools, server, climax at v0.1.0") {
		t.Errorf("output:\n%s", out)
	}
	for _, name := range []string{"list", "v0.1.0.info", "v0.1.0.mod", "v0.1.0.zip"} {
		if _, err := os.Stat(filepath.Join(proxy, "github.com/climax-mcp/climax/climax/@v", name)); err != nil {
			t.Error(err)
		}
	}
	// The module installs from the proxy as a user would install it.
	bin := t.TempDir()
	cmd := exec.Command("go", "install", climaxLayout.prefix+"/climax@v0.1.0")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-modcacherw", "GOPROXY="+fileURL(proxy), "GONOSUMDB=github.com/climax-mcp", "GOMODCACHE="+filepath.Join(cmd.Dir, "modcache"), "GOBIN="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install from the proxy: %v\n%s", err, out)
	}
	if status := mustGit(t, root, "status", "--porcelain"); status != "?? index/extra.go\n" {
		t.Errorf("-proxy changed the repository:\n%s", status)
	}
	// The directory must be new or empty.
	if code, _, errOut := runRelease(t, root, "-version", "v0.1.0", "-proxy", proxy); code != 1 || !strings.Contains(errOut, "not empty") {
		t.Errorf("second -proxy into the same directory: exit %d, stderr %q", code, errOut)
	}
}

func TestTidy(t *testing.T) {
	root := newFixture(t, "v0.1.0")
	// climax loses its indirect requirement, and holds a go.sum line of
	// its own for a sibling (the published hash of a released version).
	data := readTestFile(t, root, "climax/go.mod")
	i := strings.LastIndex(data, "\nrequire ")
	writeTestFile(t, root, "climax/go.mod", data[:i])
	own := climaxLayout.prefix + "/index v0.1.0 h1:published=\n"
	writeTestFile(t, root, "climax/go.sum", own)
	code, out, errOut := runRelease(t, root, "-tidy")
	if code != 0 || !strings.Contains(out, "updated climax/go.mod") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if got := readTestFile(t, root, "climax/go.mod"); got != data {
		t.Errorf("climax/go.mod after -tidy:\n%s\nwant:\n%s", got, data)
	}
	if got := readTestFile(t, root, "climax/go.sum"); got != own {
		t.Errorf("climax/go.sum after -tidy: %q, want its own line kept: %q", got, own)
	}
	if code, out, _ := runRelease(t, root, "-tidy"); code != 0 || !strings.Contains(out, "every module is tidy") {
		t.Errorf("second -tidy: exit %d, %q", code, out)
	}
}

// TestRepository checks the repository's own workspace: every module is
// known to the layout, the released ones come in dependency order, and the
// wiring is consistent.
func TestRepository(t *testing.T) {
	root, err := repoRoot(".")
	if err != nil {
		t.Skip(err)
	}
	ws, err := loadWorkspace(root, climaxLayout)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := moduleDirs(ws.released()), []string{"index", "configs", "executor", "metatools", "server", "climax"}; !slices.Equal(got, want) {
		t.Errorf("release order %v, want %v", got, want)
	}
	if _, err := ws.wiredVersion(); err != nil {
		t.Error(err)
	}
}
