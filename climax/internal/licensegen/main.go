// Command licensegen writes THIRD_PARTY_LICENSES at the repository root:
// the licence and notice files of every module the climax binary links on
// the released platforms, and those of the Go standard library and
// runtime, as the modules ship them (from the module cache, at the
// versions the build selects, which go.sum pins).
//
//	go run ./internal/licensegen -o ../THIRD_PARTY_LICENSES
//
// It runs `go list`, which reads the module cache and, for a module not in
// it yet, the Go module proxy; nothing else. The release archives, the MCP
// bundle and the container images ship the file; a test of gen checks that
// it is up to date and names every linked module.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/climax-mcp/climax/climax/internal/licensegen/gen"
)

func main() {
	out := flag.String("o", "../THIRD_PARTY_LICENSES", "output file")
	flag.Parse()
	text, err := gen.Text(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "licensegen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, text, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "licensegen:", err)
		os.Exit(1)
	}
}
