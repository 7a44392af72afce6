package index_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/index/config"
)

// TestCategoriesDocumented: the table of categories in docs/config.md
// ("One file per CLI, categories and tags") names every bundled config
// under its category, and nothing else.
func TestCategoriesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Skip(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| ([a-z, -]+) \\|$")
	documented := map[string]string{} // CLI -> category
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		for cli := range strings.SplitSeq(m[2], ",") {
			documented[strings.TrimSpace(cli)] = m[1]
		}
	}
	files, _ := filepath.Glob(filepath.Join(bundledDir, "*.yaml"))
	var bundled []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := config.Parse(data, f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		bundled = append(bundled, name)
		if got := documented[name]; got != c.Category {
			t.Errorf("docs/config.md puts %s under category %q; its config says %q", name, got, c.Category)
		}
	}
	for cli := range documented {
		if !slices.Contains(bundled, cli) {
			t.Errorf("docs/config.md's category table names %s, which is not a bundled config", cli)
		}
	}
}
