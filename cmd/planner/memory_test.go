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

// The pace lets a small heap grow to the floor, and is Go's usual 100 once
// half the floor is live.
func TestThePaceLetsTheHeapGrowToTheFloor(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 9500}, {1 * mb, 9500}, {8 * mb, 1100}, {32 * mb, 200}, {47 * mb, 104}, {48 * mb, 100}, {500 * mb, 100}} {
		if got := paceFor(96*mb, c.live); got != c.want {
			t.Errorf("%d MB live: pace %d, want %d", c.live/mb, got, c.want)
		}
	}
}

// collectFrom paces every cycle: slow while the heap is small, Go's usual
// pace after a cycle finds half the floor live.
func TestTheCollectorIsPacedAfterEveryCycle(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	collectFrom(1 << 40) // no test binary holds half a terabyte live
	for range 3 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond) // the finalizers run on a goroutine of their own
	if got := pace(); got < 10000 {
		t.Fatalf("with a small heap, GOGC is %d, want one that lets it grow to a terabyte", got)
	}

	collectFrom(16 << 20)
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
