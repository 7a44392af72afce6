package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// Garbage collection of a small server. Each MCP message go-sdk decodes
// takes a fresh buffer, so a server of a few megabytes of live heap
// collects every few calls: at Go's default (GOGC=100) the collector is
// about a third of the CPU a call over HTTP costs climax. Doubling the
// heap target while the heap is small costs a few megabytes and brings the
// throughput to that of a minimal go-sdk server (README, Benchmarks).
const (
	smallHeapGCPercent = 200      // the target while the heap is small
	smallHeap          = 32 << 20 // what small means: the heap after loading
)

// tuneGC raises the collector's target to smallHeapGCPercent when the
// heap is under smallHeap once the configs are loaded, so that the extra
// memory is at most smallHeap. A GOGC the operator set is left alone, and
// the commands climax runs inherit no setting from it.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() < smallHeap {
		debug.SetGCPercent(smallHeapGCPercent)
	}
}
