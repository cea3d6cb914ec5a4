package domain

import (
	"math"
	"strings"
	"testing"

	"planner/diag"
)

// point is a measured point at concurrency c, its TTFT and TPOT at p99.
func point(row int, c, tokens, ttft, tpot float64) Benchmark {
	return Benchmark{GPU: "H100 SXM", Model: "Llama 3.1 70B", Precision: "FP8", Cards: 2, Concurrency: c, OutputTokens: tokens,
		TTFT: Latencies{0, 0, ttft}, TPOT: Latencies{0, 0, tpot}, Origin: diag.Origin{Sheet: "Benchmarks", Row: row, Col: 1}}
}

// A sweep given out of order: 1, 16, 8, 32, 64 concurrent requests.
var sweep = []Benchmark{
	point(2, 1, 90, 45, 11),
	point(3, 16, 1100, 210, 15.5),
	point(4, 8, 640, 120, 13),
	point(5, 32, 1800, 480, 21),
	point(6, 64, 2400, 1300, 34),
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// The operating point is, by hand: the last load meeting both targets and
// the next, the load where the binding latency reaches its target linear
// between them, the tokens linear at that load.
func TestOperatingPointInterpolates(t *testing.T) {
	c, err := CurveOf(sweep)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		targets Targets
		lo, hi  Benchmark // the points, as read off the table above
		binding string
	}{
		// TTFT 300 ms binds between 16 (210 ms) and 32 (480 ms); TPOT 20 ms
		// would allow up to 16 + (20-15.5)/(21-15.5) × 16 = 29.1.
		{"ttft binds", Targets{TTFT: 300, TPOT: 20, Percentile: "p99"}, sweep[1], sweep[3], "ttft"},
		// TPOT 18 ms binds first: (18-15.5)/5.5 = 0.4545 against TTFT's
		// (400-210)/270 = 0.7037.
		{"tpot binds", Targets{TTFT: 400, TPOT: 18, Percentile: "p99"}, sweep[1], sweep[3], "tpot"},
		{"tpot alone", Targets{TPOT: 14, Percentile: "p99"}, sweep[2], sweep[1], "tpot"},
	}
	for _, tc := range cases {
		op, err := c.At(tc.targets)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var share float64
		if tc.binding == "ttft" {
			share = (tc.targets.TTFT - tc.lo.TTFT[2]) / (tc.hi.TTFT[2] - tc.lo.TTFT[2])
		} else {
			share = (tc.targets.TPOT - tc.lo.TPOT[2]) / (tc.hi.TPOT[2] - tc.lo.TPOT[2])
		}
		load := tc.lo.Concurrency + share*(tc.hi.Concurrency-tc.lo.Concurrency)
		tokens := tc.lo.OutputTokens + (load-tc.lo.Concurrency)/(tc.hi.Concurrency-tc.lo.Concurrency)*(tc.hi.OutputTokens-tc.lo.OutputTokens)
		if op.Binding != tc.binding || !near(op.At, load) || !near(op.Tokens, tokens) || op.Capped {
			t.Errorf("%s: %+v, want %s binding at %v with %v tokens/s", tc.name, op, tc.binding, load, tokens)
		}
		if len(op.Used) != 2 || op.Used[0].Origin != tc.lo.Origin || op.Used[1].Origin != tc.hi.Origin {
			t.Errorf("%s: read %s", tc.name, op.Points())
		}
		// The latency limit is met at the point: the binding one exactly.
		if tc.targets.TTFT > 0 && op.TTFT > tc.targets.TTFT+1e-9 || tc.targets.TPOT > 0 && op.TPOT > tc.targets.TPOT+1e-9 {
			t.Errorf("%s: the operating point's latencies %v ms and %v ms break the targets", tc.name, op.TTFT, op.TPOT)
		}
	}
}

// Beyond the measured range planner does not extrapolate: every load
// meeting the targets takes the highest measured; none meeting them is an
// error giving the range.
func TestOperatingPointOutsideTheRange(t *testing.T) {
	c, _ := CurveOf(sweep)
	op, err := c.At(Targets{TTFT: 5000, TPOT: 100, Percentile: "p99"})
	if err != nil || !op.Capped || op.At != 64 || op.Tokens != 2400 || op.From != 1 || op.To != 64 {
		t.Errorf("%+v, %v", op, err)
	}
	_, err = c.At(Targets{TTFT: 40, Percentile: "p99"})
	want := "no measured concurrency from 1 to 64 meets the targets (ttft ≤ 40 ms at p99): the lowest gives a ttft of 45 ms and a tpot of 11 ms; relax the targets, or measure lower loads"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	_, err = c.At(Targets{TTFT: 300, Percentile: "p90"})
	if err == nil || !strings.Contains(err.Error(), "Benchmarks!A2 gives no ttft p90") {
		t.Errorf("a percentile the sweep does not give: %v", err)
	}
}

// A curve along request rate where the points give no concurrency, and
// two points at one load are refused.
func TestCurveLoad(t *testing.T) {
	a, b := point(2, 0, 100, 50, 10), point(3, 0, 300, 150, 20)
	a.RequestRate, b.RequestRate = 1, 4
	c, err := CurveOf([]Benchmark{b, a})
	if err != nil || c.Load != LoadRequestRate || c.Points[0].RequestRate != 1 {
		t.Fatalf("%+v %v", c, err)
	}
	op, _ := c.At(Targets{TTFT: 100, Percentile: "p99"})
	if !near(op.At, 2.5) || !near(op.Tokens, 200) {
		t.Errorf("%+v", op)
	}
	_, err = CurveOf([]Benchmark{sweep[0], point(7, 1, 95, 44, 11)})
	if want := "the Benchmarks rows at Benchmarks!A2 and Benchmarks!A7 measure the same concurrency (1); keep one of them"; err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}
