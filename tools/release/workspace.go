package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
)

// A layout says which modules of the workspace are released, in the order
// that breaks ties between modules that do not depend on each other.
type layout struct {
	prefix   string   // module path of a directory: prefix + "/" + dir
	released []string // directories of the released (tagged) modules
	internal []string // directories of workspace modules that are never tagged
}

// climaxLayout is this repository. A module added to go.work must be added
// here too, as released (users install or import it; it gets tags) or as
// internal (only run from a checkout, like the benchmark).
var climaxLayout = layout{
	prefix:   "github.com/climax-mcp/climax",
	released: []string{"index", "configs", "executor", "metatools", "server", "climax"},
	internal: []string{"benchmark", "configs/realtest"},
}

// A workModule is one module of the workspace.
type workModule struct {
	dir      string // relative to the repository root, slash-separated
	path     string // module path
	released bool
	mod      *modfile.File
}

// A workspace is the repository: its modules and its files.
type workspace struct {
	root    string
	layout  layout
	modules []*workModule // released modules in dependency order, then internal ones
	work    *modfile.WorkFile
	files   *tree
}

// loadWorkspace reads go.work, every go.mod and the files of the repository
// at root, and orders the released modules so that every module comes
// after the siblings it requires.
func loadWorkspace(root string, l layout) (*workspace, error) {
	files, err := loadTree(root)
	if err != nil {
		return nil, err
	}
	workData, ok := files.get("go.work")
	if !ok {
		return nil, fmt.Errorf("%s has no go.work (or it is ignored by git)", root)
	}
	work, err := modfile.ParseWork("go.work", workData, nil)
	if err != nil {
		return nil, err
	}
	ws := &workspace{root: root, layout: l, work: work, files: files}
	byDir := map[string]*workModule{}
	for _, u := range work.Use {
		dir := path.Clean(filepath.ToSlash(u.Path))
		released := slices.Contains(l.released, dir)
		if !released && !slices.Contains(l.internal, dir) {
			return nil, fmt.Errorf("go.work uses %s, which tools/release does not know: add it to climaxLayout in tools/release/workspace.go, as released (it gets tags) or internal", dir)
		}
		name := dir + "/go.mod"
		data, ok := files.get(name)
		if !ok {
			return nil, fmt.Errorf("go.work uses %s, but %s is missing (or not known to git)", dir, name)
		}
		mf, err := modfile.Parse(name, data, nil)
		if err != nil {
			return nil, err
		}
		m := &workModule{dir: dir, path: mf.Module.Mod.Path, released: released, mod: mf}
		if want := l.prefix + "/" + dir; released && m.path != want {
			return nil, fmt.Errorf("%s: module path is %s; a released module in %s must be %s for its tags (%s/vX.Y.Z) to work", name, m.path, dir, want, dir)
		}
		byDir[dir] = m
	}
	for _, dir := range slices.Concat(l.released, l.internal) {
		if byDir[dir] == nil {
			return nil, fmt.Errorf("go.work does not use ./%s, which tools/release expects: add it to go.work or remove it from climaxLayout", dir)
		}
	}
	ordered, err := dependencyOrder(l, byDir)
	if err != nil {
		return nil, err
	}
	ws.modules = ordered
	for _, dir := range l.internal {
		ws.modules = append(ws.modules, byDir[dir])
	}
	return ws, nil
}

// siblingPath reports whether p is the path of a released module.
func (l layout) siblingPath(p string) bool {
	dir, ok := strings.CutPrefix(p, l.prefix+"/")
	return ok && slices.Contains(l.released, dir)
}

// siblings returns the released modules m requires, in go.mod order.
func (l layout) siblings(m *workModule) []string {
	var out []string
	for _, r := range m.mod.Require {
		if l.siblingPath(r.Mod.Path) {
			out = append(out, r.Mod.Path)
		}
	}
	return out
}

// dependencyOrder sorts the released modules so that each comes after the
// released modules it requires; among modules ready at the same time, the
// layout's order wins.
func dependencyOrder(l layout, byDir map[string]*workModule) ([]*workModule, error) {
	byPath := map[string]*workModule{}
	for _, dir := range l.released {
		byPath[byDir[dir].path] = byDir[dir]
	}
	for _, dir := range l.released {
		m := byDir[dir]
		for _, r := range m.mod.Require {
			if dep := byDir[strings.TrimPrefix(r.Mod.Path, l.prefix+"/")]; dep != nil && !dep.released && dep.path == r.Mod.Path {
				return nil, fmt.Errorf("%s/go.mod requires %s, which is never released: a released module can require only released ones", m.dir, r.Mod.Path)
			}
		}
	}
	var order []*workModule
	done := map[string]bool{}
	for len(order) < len(l.released) {
		progressed := false
		for _, dir := range l.released {
			m := byDir[dir]
			if done[m.path] {
				continue
			}
			ready := true
			for _, p := range l.siblings(m) {
				if !done[p] {
					ready = false
					break
				}
			}
			if ready {
				order = append(order, m)
				done[m.path] = true
				progressed = true
				break // restart from the top: the layout's order breaks ties
			}
		}
		if !progressed {
			var left []string
			for _, dir := range l.released {
				if !done[byDir[dir].path] {
					left = append(left, dir)
				}
			}
			return nil, fmt.Errorf("the released modules %s require each other in a cycle: no module can be tagged first", strings.Join(left, ", "))
		}
	}
	return order, nil
}

// released returns the released modules in dependency order.
func (ws *workspace) released() []*workModule {
	var out []*workModule
	for _, m := range ws.modules {
		if m.released {
			out = append(out, m)
		}
	}
	return out
}

// wiredVersion returns the one version at which the go.mod files require
// their released siblings, after checking that go.work replaces every
// released module at that version by its directory and that no go.mod has
// a replace directive for a sibling.
func (ws *workspace) wiredVersion() (string, error) {
	if err := ws.checkNoReplace(); err != nil {
		return "", err
	}
	versions := map[string][]string{} // version -> where it is required
	for _, m := range ws.modules {
		for _, r := range m.mod.Require {
			if ws.layout.siblingPath(r.Mod.Path) {
				versions[r.Mod.Version] = append(versions[r.Mod.Version], m.dir+"/go.mod")
			}
		}
	}
	replaced := map[string]string{} // path -> version replaced in go.work
	for _, r := range ws.work.Replace {
		if ws.layout.siblingPath(r.Old.Path) {
			replaced[r.Old.Path] = r.Old.Version
			versions[r.Old.Version] = append(versions[r.Old.Version], "go.work")
		}
	}
	if len(versions) != 1 {
		var parts []string
		for _, v := range slices.Sorted(maps.Keys(versions)) {
			parts = append(parts, fmt.Sprintf("%s (%s)", orNone(v), strings.Join(slices.Compact(versions[v]), ", ")))
		}
		return "", fmt.Errorf("the modules are wired to more than one version of their siblings: %s; run go -C tools/release run . -version vX.Y.Z -dry-run to see them set to one", strings.Join(parts, "; "))
	}
	v := slices.Collect(maps.Keys(versions))[0]
	for _, m := range ws.released() {
		if got, ok := replaced[m.path]; !ok || got != v {
			return "", fmt.Errorf("go.work must replace %s %s => ./%s so that the workspace builds before %s is published", m.path, v, m.dir, v)
		}
	}
	return v, nil
}

// candidateVersion returns the wired version with a pre-release suffix
// made from the contents of the tree: the same tree gives the same
// version, and a changed tree another one. The go command assumes that a
// module version in its module cache never changes (it indexes the
// directory once), so a module cache kept between CI runs must never see
// two contents under one version.
func (ws *workspace) candidateVersion() (string, error) {
	v, err := ws.wiredVersion()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, name := range ws.files.names {
		fmt.Fprintf(h, "%s %d\n", name, len(ws.files.data[name]))
		h.Write(ws.files.data[name])
	}
	return fmt.Sprintf("%s-ci-%x", semver.Canonical(v), h.Sum(nil)[:6]), nil
}

// checkNoReplace refuses replace and exclude directives in released
// modules (go install refuses them) and sibling replaces anywhere.
func (ws *workspace) checkNoReplace() error {
	for _, m := range ws.modules {
		for _, r := range m.mod.Replace {
			if m.released || ws.layout.siblingPath(r.Old.Path) {
				return fmt.Errorf("%s/go.mod replaces %s: go install refuses a module with replace directives; go.work is the only place for local wiring (see RELEASING.md)", m.dir, r.Old.Path)
			}
		}
		if m.released && len(m.mod.Exclude) > 0 {
			return fmt.Errorf("%s/go.mod has exclude directives: go install refuses them; drop them", m.dir)
		}
	}
	return nil
}

// checkVersion says whether v can be the version of a release.
func checkVersion(v string) error {
	switch {
	case !semver.IsValid(v):
		return fmt.Errorf("version %q is not a semantic version like v0.2.0", v)
	case semver.Canonical(v) != v:
		return fmt.Errorf("version %q is not canonical: write %s", v, semver.Canonical(v))
	case semver.Major(v) != "v0" && semver.Major(v) != "v1":
		return fmt.Errorf("version %s: %s needs a /%s suffix on every module path (https://go.dev/ref/mod#major-version-suffixes); change the module paths first", v, semver.Major(v), semver.Major(v))
	}
	return nil
}

// A tree is the repository's files as git would commit them: tracked files
// and untracked ones that are not ignored, with their contents.
type tree struct {
	names []string // sorted, slash-separated
	data  map[string][]byte
	mode  map[string]fs.FileMode
}

func loadTree(root string) (*tree, error) {
	out, err := git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	t := &tree{data: map[string][]byte{}, mode: map[string]fs.FileMode{}}
	for name := range strings.SplitSeq(strings.TrimSuffix(out, "\x00"), "\x00") {
		if name == "" || t.data[name] != nil {
			continue
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, a symbolic link or a submodule
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return nil, err
		}
		t.names = append(t.names, name)
		t.data[name] = data
		t.mode[name] = fi.Mode().Perm()
	}
	slices.Sort(t.names)
	return t, nil
}

func (t *tree) get(name string) ([]byte, bool) {
	data, ok := t.data[name]
	return data, ok
}

// clone returns a copy whose files can be replaced without changing t.
func (t *tree) clone() *tree {
	c := &tree{names: slices.Clone(t.names), data: map[string][]byte{}, mode: map[string]fs.FileMode{}}
	maps.Copy(c.data, t.data)
	maps.Copy(c.mode, t.mode)
	return c
}

// set replaces or adds a file.
func (t *tree) set(name string, data []byte) {
	if _, ok := t.data[name]; !ok {
		t.names = append(t.names, name)
		slices.Sort(t.names)
		t.mode[name] = 0o644
	}
	t.data[name] = data
}

// write writes every file of t under dir.
func (t *tree) write(dir string) error {
	for _, name := range t.names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, t.data[name], t.mode[name]); err != nil {
			return err
		}
	}
	return nil
}

// changed returns the names of the files whose contents differ in u.
func (t *tree) changed(u *tree) []string {
	var out []string
	for _, name := range u.names {
		if old, ok := t.data[name]; !ok || !bytes.Equal(old, u.data[name]) {
			out = append(out, name)
		}
	}
	return out
}

// repoRoot returns the top directory of the git work tree holding dir.
func repoRoot(dir string) (string, error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git work tree: %w", dir, err)
	}
	return filepath.FromSlash(strings.TrimSpace(out)), nil
}

// git runs git in dir and returns its standard output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

func orNone(v string) string {
	if v == "" {
		return "(any version)"
	}
	return v
}
