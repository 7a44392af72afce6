// Command consumer is a program of another project that uses the index
// module on its own: .ci/run builds it against the candidate release served
// from a local module proxy, runs it, and checks that its module graph holds
// nothing but itself, index and the YAML library. It loads a config the way
// climax loads its bundled ones (from an embedded file system) and searches
// it.
package main

import (
	"embed"
	"fmt"
	"os"

	"github.com/climax-mcp/climax/index"
	"github.com/climax-mcp/climax/index/config"
)

//go:embed *.yaml
var configs embed.FS

func main() {
	cfg, err := config.LoadFS(configs, "greet.yaml")
	if err != nil {
		fail(err)
	}
	ix, warnings, err := index.New([]*config.Config{cfg}, nil)
	if err != nil {
		fail(err)
	}
	if len(warnings) > 0 {
		fail(fmt.Errorf("unexpected warnings: %v", warnings))
	}
	results := ix.Search("say goodbye", "", "", 3)
	if len(results) == 0 || results[0].ToolName != "greet_bye" {
		fail(fmt.Errorf(`search "say goodbye": got %v, want greet_bye first`, results))
	}
	fmt.Printf("%s: %s\n", results[0].ToolName, results[0].Description)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "consumer:", err)
	os.Exit(1)
}
