// Command funclen lists the functions longer than 80 lines outside tests
// and generated code, and fails when there is one. Run from the
// repository root:
//
//	GOWORK=off go run .ci/funclen.go
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLines is the longest a function may be, from its func line to its
// closing brace.
const maxLines = 80

func main() {
	long, err := longFunctions(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "funclen:", err)
		os.Exit(2)
	}
	for _, f := range long {
		fmt.Printf("%s: %s is %d lines; split it into named steps of at most %d lines\n", f.where, f.name, f.lines, maxLines)
	}
	if len(long) > 0 {
		os.Exit(1)
	}
}

type longFunc struct {
	where, name string
	lines       int
}

// longFunctions returns the functions over maxLines in the Go files under
// root, leaving out tests, testdata, hidden folders and generated files.
func longFunctions(root string) ([]longFunc, error) {
	fset := token.NewFileSet()
	var long []longFunc
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			if n := end.Line - start.Line + 1; n > maxLines {
				where := fmt.Sprintf("%s:%d", filepath.ToSlash(path), start.Line)
				long = append(long, longFunc{where: where, name: fd.Name.Name, lines: n})
			}
		}
		return nil
	})
	return long, err
}
