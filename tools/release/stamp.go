package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/zip"
)

// A sum is what go.sum records for one module version.
type sum struct {
	zip, mod string // "h1:..." of the module zip and of its go.mod
}

// stamp returns the workspace's files with every module requiring its
// released siblings at version, go.sum holding their hashes and go.work
// replacing them at that version, and writes a module proxy serving each
// released module at version (zip, .mod, .info and list files) to
// proxyDir. Modules are stamped in dependency order, so that a module's
// go.sum holds the hashes of its siblings' zips as they are served.
func stamp(ws *workspace, version, proxyDir string, when time.Time) (*tree, map[string]sum, error) {
	if err := ws.checkNoReplace(); err != nil {
		return nil, nil, err
	}
	t := ws.files.clone()
	sums := map[string]sum{}
	for _, m := range ws.modules {
		modName := m.dir + "/go.mod"
		mf, err := modfile.Parse(modName, t.data[modName], nil)
		if err != nil {
			return nil, nil, err
		}
		var sibs []string
		for _, r := range mf.Require {
			if ws.layout.siblingPath(r.Mod.Path) {
				sibs = append(sibs, r.Mod.Path)
			}
		}
		for _, p := range sibs {
			if err := mf.AddRequire(p, version); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", modName, err)
			}
		}
		mf.Cleanup()
		modData := modfile.Format(mf.Syntax)
		t.set(modName, modData)

		sumName := m.dir + "/go.sum"
		old, hadSum := t.get(sumName)
		newSum, err := stampSum(ws.layout, old, sibs, version, sums)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", sumName, err)
		}
		if hadSum || len(newSum) > 0 {
			t.set(sumName, newSum)
		}

		if m.released {
			s, err := addToProxy(proxyDir, m, version, t, when)
			if err != nil {
				return nil, nil, err
			}
			sums[m.path] = s
		}
	}
	work, err := stampWork(ws, version)
	if err != nil {
		return nil, nil, err
	}
	t.set("go.work", work)
	return t, sums, nil
}

// stampSum returns go.sum data without lines for released modules, plus
// the lines for the siblings required at version, sorted as the go
// command sorts them.
func stampSum(l layout, data []byte, siblings []string, version string, sums map[string]sum) ([]byte, error) {
	var lines []string
	for line := range strings.Lines(string(data)) {
		if f := strings.Fields(line); len(f) > 0 && !l.siblingPath(f[0]) {
			lines = append(lines, line)
		}
	}
	for _, p := range siblings {
		s, ok := sums[p]
		if !ok {
			return nil, fmt.Errorf("no hash for %s %s: a released module requires one that comes after it", p, version)
		}
		lines = append(lines, p+" "+version+" "+s.zip, p+" "+version+"/go.mod "+s.mod)
	}
	return sortSum(lines)
}

// sortSum returns go.sum lines ("path version hash") sorted and without
// duplicates, as the go command writes them: by module path, then version
// (a version's go.mod hash after its zip hash), then hash.
func sortSum(lines []string) ([]byte, error) {
	hashes := map[module.Version][]string{}
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: malformed: %q", i+1, line)
		}
		mv := module.Version{Path: f[0], Version: f[1]}
		hashes[mv] = append(hashes[mv], f[2])
	}
	mods := slices.Collect(maps.Keys(hashes))
	module.Sort(mods)
	var buf bytes.Buffer
	for _, mv := range mods {
		list := hashes[mv]
		slices.Sort(list)
		for _, h := range slices.Compact(list) {
			fmt.Fprintf(&buf, "%s %s %s\n", mv.Path, mv.Version, h)
		}
	}
	return buf.Bytes(), nil
}

// stampWork returns go.work with every released module replaced at
// version by its directory, in place of the replace lines at other
// versions; comments and the order of the lines are kept.
func stampWork(ws *workspace, version string) ([]byte, error) {
	work, err := modfile.ParseWork("go.work", ws.files.data["go.work"], nil)
	if err != nil {
		return nil, err
	}
	for _, m := range ws.released() {
		var old []string
		for _, r := range work.Replace {
			if r.Old.Path == m.path && r.Old.Version != version {
				old = append(old, r.Old.Version)
			}
		}
		if err := work.AddReplace(m.path, version, "./"+m.dir, ""); err != nil {
			return nil, err
		}
		for _, v := range old {
			if err := work.DropReplace(m.path, v); err != nil {
				return nil, err
			}
		}
	}
	work.Cleanup()
	return modfile.Format(work.Syntax), nil
}

// addToProxy writes module m at version, from the files of t, to the
// file-system module proxy at dir and returns its go.sum hashes.
func addToProxy(dir string, m *workModule, version string, t *tree, when time.Time) (sum, error) {
	mv := module.Version{Path: m.path, Version: version}
	escPath, err := module.EscapePath(m.path)
	if err != nil {
		return sum{}, err
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		return sum{}, err
	}
	vdir := filepath.Join(dir, filepath.FromSlash(escPath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return sum{}, err
	}
	var files []zip.File
	prefix := m.dir + "/"
	for _, name := range t.names {
		if rel, ok := strings.CutPrefix(name, prefix); ok {
			files = append(files, memFile{path: rel, data: t.data[name], mode: t.mode[name]})
		}
	}
	// Like the go command fetching a module from its repository, a module
	// without a LICENSE of its own gets the one at the repository's root.
	if _, own := t.data[prefix+"LICENSE"]; !own {
		if data, ok := t.data["LICENSE"]; ok {
			files = append(files, memFile{path: "LICENSE", data: data, mode: t.mode["LICENSE"]})
		}
	}
	zipName := filepath.Join(vdir, escVersion+".zip")
	f, err := os.Create(zipName)
	if err != nil {
		return sum{}, err
	}
	if err := zip.Create(f, mv, files); err != nil {
		f.Close()
		return sum{}, fmt.Errorf("zip of %s: %w", mv, err)
	}
	if err := f.Close(); err != nil {
		return sum{}, err
	}
	modData := t.data[m.dir+"/go.mod"]
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when.UTC().Truncate(time.Second)})
	if err != nil {
		return sum{}, err
	}
	for name, data := range map[string][]byte{escVersion + ".mod": modData, escVersion + ".info": info} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			return sum{}, err
		}
	}
	list, err := os.OpenFile(filepath.Join(vdir, "list"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return sum{}, err
	}
	fmt.Fprintln(list, version)
	if err := list.Close(); err != nil {
		return sum{}, err
	}
	zipHash, err := dirhash.HashZip(zipName, dirhash.Hash1)
	if err != nil {
		return sum{}, err
	}
	modHash, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(modData)), nil
	})
	if err != nil {
		return sum{}, err
	}
	return sum{zip: zipHash, mod: modHash}, nil
}

// memFile is a file of a tree, for zip.Create.
type memFile struct {
	path string
	data []byte
	mode fs.FileMode
}

func (f memFile) Path() string                 { return f.path }
func (f memFile) Lstat() (fs.FileInfo, error)  { return memInfo(f), nil }
func (f memFile) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.data)), nil }

type memInfo memFile

func (i memInfo) Name() string       { return filepath.Base(i.path) }
func (i memInfo) Size() int64        { return int64(len(i.data)) }
func (i memInfo) Mode() fs.FileMode  { return i.mode }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
