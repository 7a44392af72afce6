package main

import (
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// bundledTool returns the bundled tool name of config cli.
func bundledTool(t *testing.T, cli, name string) *config.Tool {
	t.Helper()
	c, err := config.LoadFS(configs.FS, cli+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Tools {
		if c.Tools[i].Name == name {
			return &c.Tools[i]
		}
	}
	t.Fatalf("%s has no tool %s", cli, name)
	return nil
}

// The names callers give the bundled tools' arguments by mistake get the
// argument they meant, and names that mean none of them get none (docs/calls.md,
// Validation).
func TestBundledArgSuggestions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cli, tool, name string
		value           any
		want            string
	}{
		{"tar", "tar_extract", "dest", "o", "destination"},
		{"tar", "tar_extract", "output_dir", "o", "destination"},
		{"tar", "tar_extract", "target_dir", "o", "destination"},
		{"tar", "tar_extract", "into", "o", "destination"},
		{"tar", "tar_extract", "extract_to", "o", "destination"},
		{"tar", "tar_extract", "file", "a.tar", "archive"}, // its option is --file
		{"go", "go_build", "out", "/x", "output"},
		{"go", "go_build", "o", "/x", "output"},
		{"go", "go_build", "outputs", "/x", "output"},
		{"jq", "jq_query", "variables", map[string]any{"x": 1.0}, "vars"},
		{"docker", "docker_exec", "cwd", "/app", "workdir"},
		{"docker", "docker_exec", "working_dir", "/app", "workdir"},
		{"git", "git_log", "count", 5.0, "max_count"},
		{"gh", "gh_run_view", "verbose", true, "steps"}, // its option is --verbose
		{"git", "git_show", "revision", "v0.1.0", "object"},
		{"git", "git_blame", "commit", "HEAD~1", "revision"},
		// Conventional abbreviations: a contraction, or a two-letter one.
		{"psql", "psql_query", "db", "shop", "database"},
		{"cargo", "cargo_build", "pkg", "web", "package"},
		{"go", "go_test", "pkgs", []any{"./..."}, "packages"},
		{"kubectl", "kubectl_get", "ns", "default", "namespace"},
		{"kubectl", "kubectl_get", "ctx", "prod", "context"},
		{"docker", "docker_images", "repo", "alpine", "repository"}, // no cwd arg to take it
		{"git", "git_commit", "msg", "x", "message"},
		// None of these means an argument of the tool.
		{"tar", "tar_extract", "path", "/x", "dir"}, // the working directory's alias, not a guess
		{"tar", "tar_extract", "force", true, ""},
		{"tar", "tar_extract", "x", "y", ""},
		{"go", "go_build", "name", "x", ""},
		{"go", "go_build", "default", "x", ""},                // "Default: ." describes packages
		{"go", "go_build", "strip", "x", ""},                  // trimpath is a boolean: "Strip local paths"
		{"go", "go_build", "output_dir", "/x", "output"},      // the dir is the output's, not the working directory
		{"docker", "docker_exec", "output_dir", "/x", ""},     // workdir is "Directory inside the container": a generic word alone
		{"docker", "docker_exec", "image", "x", ""},           // "(default: the image's WORKDIR)" is an aside
		{"git", "git_log", "limit", 5.0, ""},                  // path says "Limit to these paths", but takes no number
		{"git", "git_clone", "out", "x", ""},                  // "Branch to check out"
		{"kubectl", "kubectl_wait", "format", "json", ""},     // not --for
		{"kubectl", "kubectl_logs", "name", "web", ""},        // not namespace
		{"docker", "docker_compose_up", "src", "x", ""},       // not service
		{"docker", "docker_images", "file", "x", ""},          // not filter
		{"psql", "psql_query", "data", "x", ""},               // not database
		{"obsidian", "obsidian_files", "extract_to", "x", ""}, // not ext
	}
	for _, tt := range tests {
		tl := bundledTool(t, tt.cli, tt.tool)
		if tl.Arg(tt.name) != nil {
			t.Errorf("%s has an argument %s", tt.tool, tt.name)
			continue
		}
		if got := executor.SuggestArgFor(tl, tt.name, tt.value); got != tt.want {
			t.Errorf("%s %s=%v: suggests %q, want %q", tt.tool, tt.name, tt.value, got, tt.want)
		}
		// A call names no other arg either, of any type.
		if got, _ := executor.UnknownArgs(tl, map[string]any{tt.name: tt.value}); len(got) != 1 || got[0].DidYouMean != tt.want || got[0].DidYouMeanType != "" {
			t.Errorf("%s %s=%v: ignored as %+v, want did_you_mean %q", tt.tool, tt.name, tt.value, got, tt.want)
		}
	}
}

// A name that is a whole word of one arg's name is named with the arg's
// type when the value is of another (docs/calls.md, Validation).
func TestBundledArgOfAnotherType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cli, tool, name string
		value           any
		want            string
		wantType        config.ArgType
	}{
		{"go", "go_test", "vet", "off", "skip_vet", config.TypeBoolean},
		{"go", "go_test", "vet", true, "skip_vet", ""},
		{"git", "git_log", "count", "all", "max_count", config.TypeInteger},
	}
	for _, tt := range tests {
		got, _ := executor.UnknownArgs(bundledTool(t, tt.cli, tt.tool), map[string]any{tt.name: tt.value})
		if len(got) != 1 || got[0].DidYouMean != tt.want || got[0].DidYouMeanType != tt.wantType {
			t.Errorf("%s %s=%v: %+v, want did_you_mean %q of type %q", tt.tool, tt.name, tt.value, got, tt.want, tt.wantType)
		}
	}
}
