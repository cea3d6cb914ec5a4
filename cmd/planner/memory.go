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

// paces are the collector's paces (GOGC) by what its cycles find live:
// each step's pace holds until a cycle finds more than its bytes live, and
// Go's usual 100 holds past the last. At Go's usual pace the collector
// first runs at 4 MB and then whenever the heap doubles: an eval of the
// default workbook allocates about 40 MB, a few of them live at once, and
// collected twelve times. At 400 the first cycle comes at about 20 MB and
// there are two (the default eval takes 50 MB resident instead of 32 MB,
// and a sixth less CPU). Up to 64 MB live, at 130, an eval of a thousand
// scenarios collects a fifth less often and takes about 7 % less CPU for
// 10 MB more resident; past it, the usual pace keeps the largest
// workbooks' peaks where they were (3,000 offers under 300 MB). GOGC,
// when set, wins.
var paces = []paceStep{{pace: 400, until: 16 << 20}, {pace: 130, until: 64 << 20}}

// paceStep is a pace and the live bytes it holds until.
type paceStep struct {
	pace  int
	until uint64
}

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		collectLater(paces)
	}
}

// collectLater sets the collector's pace to the first step's, then to each
// next step's once a cycle finds more live than the step before holds
// until, and to Go's usual 100 past the last.
func collectLater(steps []paceStep) {
	at := 0
	debug.SetGCPercent(steps[at].pace)
	held := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// A finalizer runs after the cycle that found its object unreachable:
	// a new one each cycle watches every cycle, as long as it is needed.
	var watch func(*sentinel)
	watch = func(*sentinel) {
		metrics.Read(held)
		if held[0].Value.Kind() == metrics.KindUint64 {
			was := at
			for at < len(steps) && held[0].Value.Uint64() > steps[at].until {
				at++
			}
			if at == len(steps) {
				debug.SetGCPercent(100)
				return
			}
			if at != was {
				debug.SetGCPercent(steps[at].pace)
			}
		}
		runtime.SetFinalizer(new(sentinel), watch)
	}
	runtime.SetFinalizer(new(sentinel), watch)
}

// sentinel is what collectLater's finalizers watch: large enough that Go
// does not batch it with other small objects, whose finalizers may not run.
type sentinel [32]byte
