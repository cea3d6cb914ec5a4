package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the heap planner asks Go's collector to keep under. Left
// alone, the collector lets the heap grow to twice what is live before it
// collects, and the largest workbook planner accepts (a 256 MB file whose
// shared strings hold four million strings) would take 1.1 GB; under this
// limit it takes about 650 MB, inside the 1 GB docs/security.md promises.
// It is a soft limit: the collector works harder near it, and never fails
// for it. GOMEMLIMIT, when set, wins.
const memoryLimit = 600 << 20

func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
