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
// to its word: the slow pace while the heap is small, the next step's
// after the first cycle that finds more live than a step holds until, and
// Go's usual pace past the last.
func TestTheCollectorGoesBackToItsPaceOnceTheHeapIsLarge(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	collectLater([]paceStep{{400, 1 << 40}}) // no test binary holds a terabyte live
	for range 3 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond) // the finalizers run on a goroutine of their own
	if got := pace(); got != 400 {
		t.Fatalf("with a small heap, GOGC is %d, want 400 until it grows", got)
	}

	held := make([]byte, 32<<20)
	for i := range held {
		held[i] = byte(i)
	}
	for _, c := range []struct {
		steps []paceStep
		want  int
	}{
		{[]paceStep{{400, 8 << 20}, {130, 1 << 40}}, 130},
		{[]paceStep{{400, 8 << 20}}, 100},
	} {
		collectLater(c.steps)
		deadline := time.Now().Add(5 * time.Second)
		for pace() != c.want {
			if time.Now().After(deadline) {
				t.Fatalf("steps %v with %d MB live: GOGC is still %d, want %d", c.steps, len(held)>>20, pace(), c.want)
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
	runtime.KeepAlive(held)
}
