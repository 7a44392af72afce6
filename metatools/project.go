package metatools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/climax-mcp/climax/index"
)

// A projectMarker is a file or directory whose presence says a project
// uses a program.
type projectMarker struct {
	program string
	names   []string
	// bound marks programs that only work on a project of their own kind
	// (go build needs a go.mod, npm test a package.json): when none of
	// their files is found, their tools rank after those of other
	// programs. docker, git and jj have tools that work anywhere (docker
	// ps, git clone), so a directory without their files says nothing
	// against them.
	bound bool
}

// projectMarkers are the files climax_search's cwd looks for
// (docs/search.md, Project hint).
var projectMarkers = []projectMarker{
	{"go", []string{"go.mod", "go.work"}, true},
	{"cargo", []string{"Cargo.toml"}, true},
	{"npm", []string{"package.json"}, true},
	{"make", []string{"Makefile", "makefile", "GNUmakefile"}, true},
	{"docker", []string{"Dockerfile", "compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}, false},
	{"git", []string{".git"}, false},
	{"jj", []string{".jj"}, false},
}

// maxProjectDepth bounds how many directories ProbeProject climbs, and
// maxProjectPath the length of the path it takes.
const (
	maxProjectDepth = 64
	maxProjectPath  = 4096
)

// ProbeProject looks at dir and the directories above it, up to the root
// of the repository holding it (the first one with .git or .jj) or the
// user's home directory, for the files of [projectMarkers], and returns
// the programs the project uses and the project-bound programs it does
// not use, as a search hint. It only checks whether those names exist:
// it reads no file. "~" at the start of dir is the user's home directory;
// a relative dir is relative to the server's working directory. dir must
// be an existing directory.
func ProbeProject(dir string) (*index.Project, error) {
	if len(dir) > maxProjectPath {
		return nil, fmt.Errorf("a path of %d bytes is too long (limit %d)", len(dir), maxProjectPath)
	}
	shown := displayName(dir)
	dir, err := expandHome(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	info, err := os.Stat(abs)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s does not exist", shown)
	case errors.As(err, &pe):
		return nil, fmt.Errorf("%s: %w", shown, pe.Err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", shown, err)
	case !info.IsDir():
		return nil, fmt.Errorf("%s is not a directory", shown)
	}
	home, _ := os.UserHomeDir()
	found := map[string]bool{}
	for d, i := abs, 0; i < maxProjectDepth; i++ {
		root := false
		for _, m := range projectMarkers {
			for _, name := range m.names {
				if _, err := os.Lstat(filepath.Join(d, name)); err == nil {
					found[m.program] = true
					root = root || name == ".git" || name == ".jj"
				}
			}
		}
		parent := filepath.Dir(d)
		if root || d == home || parent == d {
			break
		}
		d = parent
	}
	p := &index.Project{Uses: []string{}}
	for _, m := range projectMarkers {
		switch {
		case found[m.program]:
			p.Uses = append(p.Uses, m.program)
		case m.bound:
			p.Lacks = append(p.Lacks, m.program)
		}
	}
	return p, nil
}

// expandHome replaces a leading "~" (alone or followed by a separator)
// with the user's home directory.
func expandHome(dir string) (string, error) {
	if dir != "~" && !strings.HasPrefix(dir, "~/") && !strings.HasPrefix(dir, `~`+string(filepath.Separator)) {
		return dir, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand ~: %w", err)
	}
	return filepath.Join(home, dir[1:]), nil
}
