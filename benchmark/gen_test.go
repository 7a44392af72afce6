package main

import (
	"bytes"
	"testing"

	"github.com/climax-mcp/climax/index"
)

func TestGenerateConfigs(t *testing.T) {
	const n = 1_050 // the last config holds 50 tools
	a, b := generateConfigs(n), generateConfigs(n)
	if len(a) != 11 {
		t.Fatalf("%d configs, want 11", len(a))
	}
	for i := range a {
		if !bytes.Equal(a[i].yaml, b[i].yaml) {
			t.Fatalf("config %s differs between two generations", a[i].name)
		}
	}
	cfgs, err := parseGenerated(a)
	if err != nil {
		t.Fatal(err)
	}
	ix, _, err := index.New(cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != n {
		t.Errorf("%d tools, want %d", ix.Len(), n)
	}
	hits := 0
	for _, q := range generateQueries(50, len(a)) {
		if len(ix.Search(q.query, "", q.cli, 10)) > 0 {
			hits++
		}
	}
	if hits < 40 {
		t.Errorf("only %d of 50 generated queries find anything", hits)
	}
}
