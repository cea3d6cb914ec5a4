package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// memoryLimit is the heap planner asks Go's collector to keep under. Left
// alone, the collector lets the heap grow to twice what is live before it
// collects, and the largest workbook planner accepts (a 256 MB file whose
// shared strings hold four million strings) would take 1.1 GB; under this
// limit it takes about 650 MB, inside the 1 GB docs/security.md promises.
// It is a soft limit: the collector works harder near it, and never fails
// for it. GOMEMLIMIT, when set, wins.
const memoryLimit = 600 << 20

// heapFloor is the heap the collector lets planner's allocations reach
// before it collects while what is live is small. At Go's usual pace
// (GOGC=100) it collects whenever the heap doubles what was live, from
// 4 MB on: a thousand scenarios, 20 to 45 MB of them live while a few
// hundred MB come and go, were collected 37 times, each time scanning
// what was live. Paced so that the heap first grows to this floor, the
// default eval is not collected at all (it was twice, at GOGC=400) and
// a thousand scenarios 18 times, for 10 to 25 per cent less CPU and 10
// to 50 MB more resident. A heap with more than half the floor live is
// collected at Go's usual pace, so that a large workbook's peak (3,000
// offers, 270 MB) is what it was. GOGC, when set, wins.
const heapFloor = 96 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		collectFrom(heapFloor)
	}
}

// collectFrom paces the collector after every cycle so that the next
// comes when the heap reaches floor bytes, or twice what is live (Go's
// usual pace), whichever is more.
func collectFrom(floor uint64) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// Before its first cycle the collector scales a 4 MB heap by the pace.
	debug.SetGCPercent(int(floor * 100 / (4 << 20)))
	// A finalizer runs after the cycle that found its object unreachable:
	// a new one each cycle watches every cycle.
	var watch func(*sentinel)
	watch = func(*sentinel) {
		metrics.Read(live)
		if live[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(paceFor(floor, live[0].Value.Uint64()))
		}
		runtime.SetFinalizer(new(sentinel), watch)
	}
	runtime.SetFinalizer(new(sentinel), watch)
}

// paceFor is the GOGC that lets a heap of live bytes live grow to floor
// bytes before the next cycle, and never less than Go's usual 100.
func paceFor(floor, live uint64) int {
	live = max(live, 1<<20) // a Go heap holds a megabyte at least
	if live >= floor/2 {
		return 100
	}
	return int((floor - live) * 100 / live)
}

// sentinel is what collectFrom's finalizers watch: large enough that Go
// does not batch it with other small objects, whose finalizers may not run.
type sentinel [32]byte
