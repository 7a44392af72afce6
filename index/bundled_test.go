package index_test

import (
	"github.com/climax-mcp/climax/index/config"

	"os"
	"path/filepath"
	"testing"

	"github.com/climax-mcp/climax/index"
)

// bundledDir holds the configs embedded in the climax binary.
const bundledDir = "../configs"

// TestBundledConfigs loads every bundled config strictly and builds one
// index from all of them, as `climax` with every bundled name would.
func TestBundledConfigs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(bundledDir, "*.yaml"))
	if len(files) == 0 {
		t.Skipf("no bundled configs in %s", bundledDir)
	}
	var configs []*config.Config
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := config.Parse(data, f)
		if err != nil {
			t.Errorf("bundled config does not load:\n%v", err)
			continue
		}
		if len(c.Tools) == 0 {
			t.Errorf("%s: no tools", f)
		}
		for _, tool := range c.Tools {
			if len(tool.Keywords) == 0 {
				t.Errorf("%s: tool %s has no keywords; bundled tools need them for search", f, tool.Name)
			}
		}
		// Every bundled config has a category and tags (docs/config.md,
		// Bundled configs).
		if c.Category == "" || len(c.Tags) == 0 {
			t.Errorf("%s: category %q, tags %v; bundled configs need both", f, c.Category, c.Tags)
		}
		configs = append(configs, c)
	}
	ix, _, err := index.New(configs, nil)
	if err != nil {
		t.Fatalf("bundled configs do not index together: %v", err)
	}
	if len(ix.Summary()) != len(configs) {
		t.Errorf("Summary lists %d CLIs, want %d", len(ix.Summary()), len(configs))
	}
	// The bundled configs testdata/script/run_bundled.txtar relies on.
	names, err := config.BundledNames(os.DirFS(bundledDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"git", "jj", "docker"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("no bundled config %q (have %v)", want, names)
		}
	}
}
