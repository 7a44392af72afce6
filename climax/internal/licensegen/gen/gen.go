// Package gen collects the licence texts of what the climax binary links:
// the third-party Go modules of its builds for every released platform,
// and the Go standard library and runtime (see the licensegen command).
package gen

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Platforms are the GOOS/GOARCH pairs climax is released for
// (.goreleaser.yaml, which TestPlatformsReleased holds them to); a module
// linked on any of them is listed.
var Platforms = []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "windows/arm64"}

// mainPackage is the package of the climax binary.
const mainPackage = "github.com/climax-mcp/climax/climax"

// Module is a module the binary links, with the directory that holds its
// files (in the module cache).
type Module struct {
	Path, Version, Dir string
}

// legalName matches the names of the files a module ships its licence
// and notices in, at its root: LICENSE, LICENCE, COPYING, NOTICE, PATENTS
// and UNLICENSE, with any suffix (LICENSE.md, LICENSE-MIT, COPYING.txt).
var legalName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents|unlicense)([._-].*)?$`)

// Linked returns the modules other than the workspace's own that the
// climax binary links on any of [Platforms], sorted by path, as `go list`
// run in dir (a directory of the repository) resolves them.
func Linked(dir string) ([]Module, error) {
	seen := map[string]Module{}
	for _, p := range Platforms {
		goos, goarch, _ := strings.Cut(p, "/")
		cmd := exec.Command("go", "list", "-deps", "-f",
			`{{with .Module}}{{if not .Main}}{{with .Replace}}{{.Path}}	{{.Version}}	{{.Dir}}{{else}}{{.Path}}	{{.Version}}	{{.Dir}}{{end}}{{end}}{{end}}`,
			mainPackage)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps %s for %s: %v: %s", mainPackage, p, err, bytes.TrimSpace(stderr.Bytes()))
		}
		for line := range strings.Lines(string(out)) {
			f := strings.Split(strings.TrimRight(line, "\n"), "\t")
			if len(f) != 3 || f[0] == "" {
				continue
			}
			if f[2] == "" {
				return nil, fmt.Errorf("go list gives no directory for %s %s: download it (go mod download %s)", f[0], f[1], f[0])
			}
			seen[f[0]] = Module{Path: f[0], Version: f[1], Dir: f[2]}
		}
	}
	mods := make([]Module, 0, len(seen))
	for _, m := range seen {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(a, b Module) int { return cmp.Compare(a.Path, b.Path) })
	return mods, nil
}

// LegalFiles returns the names of the licence and notice files at the
// root of dir, sorted, and an error when there is none: a module whose
// licence cannot be shipped must not be linked unnoticed.
func LegalFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && legalName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no licence file (LICENSE, COPYING, ...)", dir)
	}
	slices.Sort(names)
	return names, nil
}

// Header is the first line of a module's section in the file: the module
// path and version (the Go standard library's is "Go standard library and
// runtime").
func Header(m Module) string {
	if m.Version == "" {
		return "== " + m.Path
	}
	return "== " + m.Path + " " + m.Version
}

// goModule is the Go standard library and runtime, which every Go binary
// links, with GOROOT as its directory.
func goModule(dir string) (Module, error) {
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return Module{}, fmt.Errorf("go env GOROOT: %v", err)
	}
	return Module{Path: "Go standard library and runtime", Dir: strings.TrimSpace(string(out))}, nil
}

// Text returns the contents of THIRD_PARTY_LICENSES for the repository
// that holds dir: an introduction, the list of modules, then each
// module's licence and notice files in full.
func Text(dir string) ([]byte, error) {
	mods, err := Linked(dir)
	if err != nil {
		return nil, err
	}
	std, err := goModule(dir)
	if err != nil {
		return nil, err
	}
	return Render(append([]Module{std}, mods...))
}

// Render returns the file for mods, in their order.
func Render(mods []Module) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`Third-party licences of the climax binary

climax (Apache-2.0: LICENSE and NOTICE) is linked from the Go standard
library and runtime and from the Go modules below, each under its own
licence. This file holds their licence and notice files as the modules
ship them, at the versions the climax builds of every released platform
link. It is generated (cd climax && go generate, which runs
climax/internal/licensegen); do not edit it. The notice of the data
climax embeds (the Fig autocomplete specs, MIT) is in NOTICE.

`)
	var errs []error
	files := make([][]string, len(mods))
	for i, m := range mods {
		names, err := LegalFiles(m.Dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", m.Path, m.Version, err))
			continue
		}
		files[i] = names
		fmt.Fprintf(&b, "- %s (%s)\n", strings.TrimPrefix(Header(m), "== "), strings.Join(names, ", "))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	rule := strings.Repeat("=", 72) + "\n"
	for i, m := range mods {
		for _, name := range files[i] {
			data, err := os.ReadFile(filepath.Join(m.Dir, name))
			if err != nil {
				return nil, err
			}
			data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
			fmt.Fprintf(&b, "\n%s%s: %s\n%s\n", rule, Header(m), name, rule)
			b.Write(bytes.TrimRight(data, "\n"))
			b.WriteString("\n")
		}
	}
	return b.Bytes(), nil
}
