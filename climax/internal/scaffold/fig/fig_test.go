package fig

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The embedded data must come from the version figconvert pins: bumping
// the pin without running go generate fails here (and so in CI).
func TestEmbeddedVersionIsPinned(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("figconvert", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const pinnedVersion = "([^"]+)"`).FindSubmatch(src)
	if m == nil {
		t.Fatal("figconvert/main.go declares no pinnedVersion")
	}
	if got := Version(); got != string(m[1]) {
		t.Errorf("the embedded specs are of version %q, figconvert pins %q: run go generate in climax/internal/scaffold/fig", got, m[1])
	}
	if got, want := Package(), "@withfig/autocomplete@"+string(m[1]); got != want {
		t.Errorf("Package() = %q, want %q", got, want)
	}
}

// The licence travels with the data, and the repository's NOTICE repeats
// it (the top-level NOTICE is outside the module: skipped where the
// module is used alone).
func TestLicenseKept(t *testing.T) {
	if !strings.HasPrefix(License, "MIT License") {
		t.Fatalf("LICENSE.withfig is not the MIT licence:\n%s", License)
	}
	notice, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "NOTICE"))
	if os.IsNotExist(err) {
		t.Skip("no NOTICE above the module")
	}
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(notice), "@withfig/autocomplete") || !strings.Contains(string(notice), strings.TrimSpace(License)) {
		t.Errorf("NOTICE lacks @withfig/autocomplete and its licence text as in LICENSE.withfig")
	}
}

// Every program's file decodes into a named tree whose names and options
// are usable.
func TestEveryProgramDecodes(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes every spec")
	}
	progs := Programs()
	if len(progs) < 500 {
		t.Fatalf("%d programs, want the package's whole list", len(progs))
	}
	d, _ := load()
	for _, name := range progs {
		if raceEnabled {
			if f, err := d.zip.Open(d.index.Specs[name]); err == nil {
				st, _ := f.Stat()
				f.Close()
				if st.Size() > 4<<20 {
					continue // decoded without -race
				}
			}
		}
		c, ok, err := Lookup(name)
		if err != nil || !ok {
			t.Fatalf("%s: ok %v err %v", name, ok, err)
		}
		var walk func(c *Command, path string)
		walk = func(c *Command, path string) {
			if c.Name() == "" {
				t.Errorf("%s: a command without a name", path)
			}
			for _, o := range c.Options {
				if len(o.Names) == 0 {
					t.Errorf("%s: an option without a name", path)
				}
			}
			for _, s := range c.Subcommands {
				walk(s, path+" "+s.Name())
			}
		}
		walk(c, name)
	}
}

func TestLookup(t *testing.T) {
	git, ok, err := Lookup("git")
	if err != nil || !ok {
		t.Fatalf("git: ok %v err %v", ok, err)
	}
	if git.Name() != "git" || git.Description == "" || len(git.Subcommands) < 20 {
		t.Errorf("git: name %q, description %q, %d subcommands", git.Name(), git.Description, len(git.Subcommands))
	}
	commit := git.Find("commit")
	if commit == nil {
		t.Fatal("git has no commit")
	}
	i := slices.IndexFunc(commit.Options, func(o *Option) bool { return slices.Contains(o.Names, "--message") })
	if i < 0 {
		t.Fatal("git commit has no --message")
	}
	if msg := commit.Options[i]; !slices.Contains(msg.Names, "-m") || len(msg.Args) != 1 {
		t.Errorf("git commit --message: %+v", msg)
	}
	// Every alias finds its command, and a path goes down the tree.
	for _, s := range git.Subcommands {
		for _, n := range s.Names {
			if git.Find(n) == nil {
				t.Errorf("git.Find(%q) = nil", n)
			}
		}
		for _, s2 := range s.Subcommands {
			if got := git.Find(s.Name(), s2.Name()); got == nil || got.Name() != s2.Name() {
				t.Errorf("git.Find(%q, %q) = %v", s.Name(), s2.Name(), got)
			}
		}
	}
	if git.Find("no-such-command") != nil {
		t.Error("Find of an unknown word found something")
	}
	// A fresh copy each time: changing one does not change the next.
	git.Subcommands = nil
	again, _, _ := Lookup("git.exe")
	if again == nil || len(again.Subcommands) == 0 {
		t.Error("a caller's change leaked into the next Lookup (or .exe was not trimmed)")
	}
	// Specs that the package loads from separate files (dotnet add, in
	// dotnet/dotnet-add.js) are part of their program's tree.
	dotnet, ok, _ := Lookup("dotnet")
	if !ok || dotnet.Find("add", "package") == nil {
		t.Error("dotnet add package is missing: loadSpec parts were not inlined")
	}
	if _, ok, err := Lookup("no-such-program-climax"); ok || err != nil {
		t.Errorf("an unknown program: ok %v err %v", ok, err)
	}
}

// Suggestions are fixed strings, and an arg whose spec computes values
// says so.
func TestSuggestions(t *testing.T) {
	git, _, _ := Lookup("git")
	var fixed, open int
	var walk func(c *Command)
	walk = func(c *Command) {
		for _, o := range c.Options {
			for _, a := range o.Args {
				if len(a.Suggestions) > 0 {
					fixed++
				}
				if a.Open {
					open++
				}
			}
		}
		for _, s := range c.Subcommands {
			walk(s)
		}
	}
	walk(git)
	if fixed == 0 || open == 0 {
		t.Errorf("git: %d option values with suggestions, %d open ones; want some of each", fixed, open)
	}
}
