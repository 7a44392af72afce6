// Command bundlegen writes the bundled configs as Go source: each config
// of the configs module, loaded and checked by the config loader, printed
// as a composite literal. The climax command serves bundled configs from
// that file instead of parsing their YAML at every start (see
// bundled.go in the climax command, and docs/operations.md, Cold start).
//
//	go run ./internal/bundlegen -o bundled_gen.go
//
// The output depends on nothing but the YAML files and the config model,
// so running it again gives the same bytes; a test of the climax command
// checks that the file is up to date and equal to what the YAML gives.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/climax-mcp/climax/climax/internal/bundlegen/gen"
)

func main() {
	out := flag.String("o", "bundled_gen.go", "output file")
	flag.Parse()
	src, err := gen.Source()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundlegen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bundlegen:", err)
		os.Exit(1)
	}
}
