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

// startingPace is the collector's pace (GOGC) until the heap holds
// lateLive bytes live. At Go's usual 100, the collector first runs at 4 MB
// and then whenever the heap doubles: an eval of the default workbook
// allocates about 40 MB, a few of them live at once, and collected twelve
// times. At this pace the first cycle comes at about 20 MB and there are
// two (the default eval takes 50 MB resident instead of 32 MB, and a
// sixth less CPU), and a heap grown large goes back to the usual pace, so
// that a large workbook's peak is what it was. GOGC, when set, wins.
const startingPace = 400

const lateLive = 16 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		collectLater(startingPace, lateLive)
	}
}

// collectLater sets the collector's pace to pace until a cycle finds more
// than live bytes live, and to Go's usual 100 from then on.
func collectLater(pace int, live uint64) {
	debug.SetGCPercent(pace)
	held := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// A finalizer runs after the cycle that found its object unreachable:
	// a new one each cycle watches every cycle, as long as it is needed.
	var watch func(*sentinel)
	watch = func(*sentinel) {
		metrics.Read(held)
		if held[0].Value.Kind() == metrics.KindUint64 && held[0].Value.Uint64() > live {
			debug.SetGCPercent(100)
			return
		}
		runtime.SetFinalizer(new(sentinel), watch)
	}
	runtime.SetFinalizer(new(sentinel), watch)
}

// sentinel is what collectLater's finalizers watch: large enough that Go
// does not batch it with other small objects, whose finalizers may not run.
type sentinel [32]byte
