// Command figconvert regenerates climax's embedded copy of the Fig
// autocomplete specs (../specs.zip and ../LICENSE.withfig) from the npm
// package @withfig/autocomplete at the version pinned below. It needs
// node and npm and network access to the npm registry, and runs at
// conversion time only: climax itself never runs Node.
//
//	cd climax/internal/scaffold/fig && go generate
//
// It installs the package into a temporary directory, runs convert.mjs
// there (which keeps the static data of each spec and drops functions),
// and packs one JSON file per program into a zip file with fixed
// timestamps, so that the same version always gives the same bytes.
// Programs whose data is identical (hub is git's spec) share one file.
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"time"
)

// pinnedVersion is the version of @withfig/autocomplete converted. After
// changing it, run go generate in the fig package; a test fails while the
// embedded data records another version.
const pinnedVersion = "2.692.3"

const packageName = "@withfig/autocomplete"

//go:embed convert.mjs
var convertScript []byte

func main() {
	out := flag.String("o", "specs.zip", "the zip file to write")
	license := flag.String("license", "LICENSE.withfig", "where to copy the package's licence text")
	flag.Parse()
	if err := run(*out, *license); err != nil {
		fmt.Fprintln(os.Stderr, "figconvert:", err)
		os.Exit(1)
	}
}

func run(out, license string) error {
	dir, err := os.MkdirTemp("", "figconvert-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`), 0o644); err != nil {
		return err
	}
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--save-exact", packageName+"@"+pinnedVersion)
	npm.Dir, npm.Stdout, npm.Stderr = dir, os.Stderr, os.Stderr
	if err := npm.Run(); err != nil {
		return fmt.Errorf("npm install %s@%s: %w", packageName, pinnedVersion, err)
	}
	pkgDir := filepath.Join(dir, "node_modules", "@withfig", "autocomplete")
	script := filepath.Join(dir, "convert.mjs")
	if err := os.WriteFile(script, convertScript, 0o644); err != nil {
		return err
	}
	node := exec.Command("node", script, filepath.Join(pkgDir, "build"))
	node.Dir, node.Stderr = dir, os.Stderr
	stdout, err := node.StdoutPipe()
	if err != nil {
		return err
	}
	if err := node.Start(); err != nil {
		return fmt.Errorf("node: %w", err)
	}
	data, perr := pack(stdout)
	if err := node.Wait(); err != nil {
		return fmt.Errorf("node convert.mjs: %w", err)
	}
	if perr != nil {
		return perr
	}
	text, err := os.ReadFile(filepath.Join(pkgDir, "LICENSE"))
	if err != nil {
		return fmt.Errorf("the package's licence: %w", err)
	}
	if err := os.WriteFile(license, text, 0o644); err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

// index is the zip's index.json; the fig package reads the same layout.
type index struct {
	Package string            `json:"package"`
	Version string            `json:"version"`
	Specs   map[string]string `json:"specs"` // program name -> file in the zip
}

// pack reads convert.mjs's lines and writes the zip.
func pack(r io.Reader) ([]byte, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 256<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("convert.mjs printed nothing")
	}
	ix := index{Specs: map[string]string{}}
	if err := json.Unmarshal(sc.Bytes(), &ix); err != nil {
		return nil, fmt.Errorf("convert.mjs header: %w", err)
	}
	if ix.Version != pinnedVersion {
		return nil, fmt.Errorf("npm installed %s, not the pinned %s", ix.Version, pinnedVersion)
	}
	files := map[string][]byte{}
	byHash := map[[32]byte]string{}
	for sc.Scan() {
		var line struct {
			Name string          `json:"name"`
			Spec json.RawMessage `json:"spec"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("convert.mjs: %w", err)
		}
		h := sha256.Sum256(line.Spec)
		if f, ok := byHash[h]; ok {
			ix.Specs[line.Name] = f
			continue
		}
		f := "specs/" + line.Name + ".json"
		byHash[h] = f
		ix.Specs[line.Name] = f
		files[f] = bytes.Clone(line.Spec)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	mod := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	put := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	ixData, err := json.Marshal(ix)
	if err != nil {
		return nil, err
	}
	if err := put("index.json", ixData); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		if err := put(f, files[f]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "figconvert: %s@%s: %d programs in %d files, %d bytes\n", ix.Package, ix.Version, len(ix.Specs), len(files), buf.Len())
	return buf.Bytes(), nil
}
