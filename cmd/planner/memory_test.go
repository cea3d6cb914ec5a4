package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// pace is the collector's GOGC, read by setting it to what it is.
func pace() int {
	p := debug.SetGCPercent(400)
	debug.SetGCPercent(p)
	return p
}

// TestTheCollectorGoesBackToItsPaceOnceTheHeapIsLarge holds collectLater
// to its word: the slow pace while the heap is small, Go's usual pace
// after the first cycle that finds more live than it was given.
func TestTheCollectorGoesBackToItsPaceOnceTheHeapIsLarge(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	collectLater(400, 1<<40) // no test binary holds a terabyte live
	for range 3 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond) // the finalizers run on a goroutine of their own
	if got := pace(); got != 400 {
		t.Fatalf("with a small heap, GOGC is %d, want 400 until it grows", got)
	}

	collectLater(400, 8<<20)
	held := make([]byte, 32<<20)
	for i := range held {
		held[i] = byte(i)
	}
	deadline := time.Now().Add(5 * time.Second)
	for pace() != 100 {
		if time.Now().After(deadline) {
			t.Fatalf("with %d MB live, GOGC is still %d, want Go's usual 100", len(held)>>20, pace())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(held)
}
