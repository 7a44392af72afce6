package main

import (
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
