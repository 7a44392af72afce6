package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/climax-mcp/climax/climax/internal/bundlegen/gen"
	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/index/config"
)

// The compiled bundled configs are what the YAML gives, and the generated
// file is what bundlegen writes today (run `go generate ./climax/` after
// changing a bundled config or the config model).
func TestCompiledBundledConfigs(t *testing.T) {
	names, err := config.BundledNames(configs.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(compiledBundled) != len(names) {
		t.Errorf("%d compiled configs, %d bundled YAML files: run go generate ./climax/", len(compiledBundled), len(names))
	}
	for _, name := range names {
		want, err := config.LoadFS(configs.FS, name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		got, ok := compiledConfig(name)
		if !ok {
			t.Errorf("%s: not compiled: run go generate ./climax/", name)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the compiled config differs from its YAML: run go generate ./climax/", name)
		}
		if again, _ := compiledConfig(name); again == got || &again.Tools[0] == &got.Tools[0] {
			t.Errorf("%s: compiled configs share memory between loads", name)
		}
	}
	if _, ok := compiledConfig("./git"); ok {
		t.Error("a path was served from the compiled configs")
	}

	src, err := gen.Source()
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile("bundled_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, file) {
		t.Error("bundled_gen.go is not what bundlegen writes today: run go generate ./climax/")
	}
}
