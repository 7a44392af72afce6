//go:build linux

package executor

import "testing"

func TestParseStat(t *testing.T) {
	// The command name may hold spaces and parentheses.
	line := "4242 (a b) (c)) S 17 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615\n"
	got, ok := parseStat(line)
	if want := (procStat{state: 'S', ppid: 17, pgid: 4242, start: 987654}); !ok || got != want {
		t.Fatalf("parseStat = %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := parseStat("4242 (short) S 1 2"); ok {
		t.Fatal("a truncated line parsed")
	}
}
