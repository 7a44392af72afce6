package gen

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// root is the repository root, seen from this package's directory.
const root = "../../../.."

// TestThirdPartyLicensesCurrent: THIRD_PARTY_LICENSES, which the release
// archives, the MCP bundle and the images ship, holds the licence files of
// every module the climax binary links on a released platform, as the
// generator makes it now: a new or upgraded dependency fails here until
// the file is generated again.
func TestThirdPartyLicensesCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(root, "THIRD_PARTY_LICENSES"))
	if err != nil {
		t.Fatalf("%v: generate it with cd climax && go generate", err)
	}
	mods, err := Linked(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) == 0 {
		t.Fatal("go list found no third-party module linked by climax")
	}
	for _, m := range mods {
		if !bytes.Contains(got, []byte("\n"+Header(m)+": ")) {
			t.Errorf("THIRD_PARTY_LICENSES lacks the licence of %s %s, which climax links: run cd climax && go generate", m.Path, m.Version)
		}
	}
	want, err := Text(root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("THIRD_PARTY_LICENSES is not what the generator makes from the linked modules: run cd climax && go generate")
	}
}

// A module without a licence file fails the generation, naming it; the
// files found are the licence and notice files at its root, whatever
// their suffix.
func TestLegalFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"README.md", "licenses.go", "LICENSE.md", "NOTICE", "COPYING-MIT", "PATENTS"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "LICENSES"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := LegalFiles(dir)
	if want := []string{"COPYING-MIT", "LICENSE.md", "NOTICE", "PATENTS"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("LegalFiles = %q, %v; want %q", got, err, want)
	}
	bare := t.TempDir()
	_, err = Render([]Module{{Path: "example.com/a", Version: "v1.0.0", Dir: dir}, {Path: "example.com/bare", Version: "v0.1.0", Dir: bare}})
	if err == nil || !strings.Contains(err.Error(), "example.com/bare v0.1.0") || !strings.Contains(err.Error(), "no licence file") {
		t.Errorf("Render of a module without a licence: %v, want an error naming it", err)
	}
	text, err := Render([]Module{{Path: "example.com/a", Version: "v1.0.0", Dir: dir}})
	if err != nil || !strings.Contains(string(text), "== example.com/a v1.0.0: LICENSE.md\n"+strings.Repeat("=", 72)+"\n\nLICENSE.md\n") {
		t.Errorf("Render: %v\n%s", err, text)
	}
}

// TestPlatformsReleased: Platforms are the GOOS/GOARCH pairs that
// .goreleaser.yaml builds, so that a platform added to the release adds
// the modules it links to THIRD_PARTY_LICENSES.
func TestPlatformsReleased(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type target struct {
		GOOS   string `yaml:"goos"`
		GOARCH string `yaml:"goarch"`
	}
	var gr struct {
		Builds []struct {
			GOOS   []string `yaml:"goos"`
			GOARCH []string `yaml:"goarch"`
			Ignore []target `yaml:"ignore"`
		} `yaml:"builds"`
	}
	if err := yaml.Unmarshal(data, &gr); err != nil {
		t.Fatal(err)
	}
	var released []string
	for _, b := range gr.Builds {
		for _, goos := range b.GOOS {
			for _, goarch := range b.GOARCH {
				p := goos + "/" + goarch
				ignored := slices.ContainsFunc(b.Ignore, func(i target) bool {
					return (i.GOOS == "" || i.GOOS == goos) && (i.GOARCH == "" || i.GOARCH == goarch)
				})
				if !ignored && !slices.Contains(released, p) {
					released = append(released, p)
				}
			}
		}
	}
	if len(released) == 0 {
		t.Fatal(".goreleaser.yaml: no build with goos and goarch")
	}
	slices.Sort(released)
	if got := slices.Sorted(slices.Values(Platforms)); !slices.Equal(got, released) {
		t.Errorf("Platforms = %q; .goreleaser.yaml builds %q", got, released)
	}
}
