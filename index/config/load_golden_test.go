package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the want section of testdata/errors/*.txtar from the problems Parse reports")

// TestParseErrorGoldens parses the t.yaml of each testdata/errors/*.txtar
// and compares the problems Parse reports, one "file:line:col: message"
// line each in the order it reports them, with the file's want section:
// every problem of every invalid config there, exactly. The archive's
// comment says what the case is about. go test -run ParseErrorGoldens
// -update ./index/config/ rewrites the want sections.
func TestParseErrorGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/errors/*.txtar: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(data)
			src, ok := a.file("t.yaml")
			if !ok {
				t.Fatalf("%s: no t.yaml section", file)
			}
			c, err := Parse(src, "t.yaml")
			if err == nil {
				t.Fatalf("%s: Parse succeeded with %+v; want problems", file, c)
			}
			if c != nil {
				t.Errorf("Parse returned a config with an error")
			}
			got := strings.Join(problemLines(t, err), "\n") + "\n"
			if *update {
				a.set("want", []byte(got))
				if err := os.WriteFile(file, a.format(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want, _ := a.file("want"); got != string(want) {
				t.Errorf("%s: problems\n%s\nwant (go test -run ParseErrorGoldens -update ./index/config/ to accept)\n%s", file, got, want)
			}
		})
	}
}

// An archive is a txtar archive (the format of golang.org/x/tools/txtar,
// which this module does not depend on): a comment, then files, each
// introduced by a "-- NAME --" line.
type archive struct {
	comment []byte
	files   []archiveFile
}

type archiveFile struct {
	name string
	data []byte
}

// parseArchive parses data; it never fails (text before the first marker
// is the comment).
func parseArchive(data []byte) *archive {
	a := &archive{}
	cur := &a.comment
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		if name, ok := fileMarker(line); ok {
			a.files = append(a.files, archiveFile{name: name})
			cur = &a.files[len(a.files)-1].data
		} else {
			*cur = append(*cur, line...)
			*cur = append(*cur, '\n')
		}
		data = rest
	}
	return a
}

// fileMarker returns the name of a "-- NAME --" line.
func fileMarker(line []byte) (string, bool) {
	s := string(line)
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	return strings.TrimSpace(s[3 : len(s)-3]), true
}

func (a *archive) file(name string) ([]byte, bool) {
	for _, f := range a.files {
		if f.name == name {
			return f.data, true
		}
	}
	return nil, false
}

func (a *archive) set(name string, data []byte) {
	for i := range a.files {
		if a.files[i].name == name {
			a.files[i].data = data
			return
		}
	}
	a.files = append(a.files, archiveFile{name, data})
}

func (a *archive) format() []byte {
	var b bytes.Buffer
	b.Write(a.comment)
	for _, f := range a.files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
	}
	return b.Bytes()
}
