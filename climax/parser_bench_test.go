package main

import (
	"io"
	"testing"
)

// BenchmarkNewParser measures building the command-line parser, a fixed
// cost of every start (README, Performance):
//
//	go test -run XXX -bench NewParser -benchmem ./climax/
func BenchmarkNewParser(b *testing.B) {
	for b.Loop() {
		var c cli
		if _, err := newParser(&c, &env{stdout: io.Discard, stderr: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseRun measures parsing a server's command line, `climax
// git` (with [runOnly]), against building the whole parser
// (BenchmarkNewParser):
//
//	go test -run XXX -bench 'NewParser|ParseRun' -benchmem ./climax/
func BenchmarkParseRun(b *testing.B) {
	for b.Loop() {
		if _, err := parse([]string{"git"}, &env{stdout: io.Discard, stderr: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
}
