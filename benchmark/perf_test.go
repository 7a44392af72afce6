package main

import (
	"slices"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 5}, 5},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2, truncated
		{[]time.Duration{10, 40, 20, 30}, 25},
	} {
		in := append([]time.Duration(nil), tt.in...)
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", in, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.in[i] {
				t.Errorf("median reordered its argument")
			}
		}
	}
}

func TestPercentile(t *testing.T) {
	var s []time.Duration
	for i := 1; i <= 1000; i++ {
		s = append(s, time.Duration(i))
	}
	for p, want := range map[int]time.Duration{50: 500, 99: 990, 100: 1000, 1: 10} {
		if got := percentile(s, p); got != want {
			t.Errorf("p%d of 1..1000 = %v, want %v", p, got, want)
		}
	}
	if got := percentile([]time.Duration{7}, 99); got != 7 {
		t.Errorf("p99 of one sample = %v", got)
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of none = %v", got)
	}
}

func TestVMRSS(t *testing.T) {
	status := "Name:\tclimax\nVmPeak:\t 1000 kB\nVmRSS:\t   18228 kB\nThreads:\t5\n"
	got, err := vmRSS([]byte(status))
	if err != nil || got != 18228*1024 {
		t.Errorf("vmRSS = %d, %v", got, err)
	}
	if _, err := vmRSS([]byte("Name:\tx\n")); err == nil {
		t.Error("no VmRSS line: no error")
	}
}

func TestInterleave(t *testing.T) {
	var order []int
	measure := func(i int) func() (time.Duration, error) {
		return func() (time.Duration, error) { order = append(order, i); return time.Duration(10*i + len(order)), nil }
	}
	m, err := interleave(3, 1, measure(0), measure(1))
	if err != nil {
		t.Fatal(err)
	}
	// One warm-up round, then rounds starting with 0, 1, 0.
	want := []int{0, 1, 0, 1, 1, 0, 0, 1}
	if !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	// Samples of 0: 3, 6, 7; of 1: 14, 15, 18.
	if m[0] != 6 || m[1] != 15 {
		t.Errorf("medians %v, want [6 15]", m)
	}
}

func TestPlural(t *testing.T) {
	if got := plural(1, "tool"); got != "1 tool" {
		t.Errorf("plural(1) = %q", got)
	}
	if got := plural(1000, "tool"); got != "1,000 tools" {
		t.Errorf("plural(1000) = %q", got)
	}
}

func TestStatCPU(t *testing.T) {
	// Field 2 may hold spaces and parentheses; utime and stime are fields
	// 14 and 15, in clock ticks of 1/100 s.
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 150 25 0 0 20 0 7 0 123 456 789\n"
	if got := statCPU(stat); got != 1750*time.Millisecond {
		t.Errorf("statCPU = %v, want 1.75s", got)
	}
	if got := statCPU("garbage"); got != 0 {
		t.Errorf("statCPU(garbage) = %v", got)
	}
}
