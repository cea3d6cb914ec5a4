package domain

import (
	"fmt"
	"sort"
	"strings"

	"planner/diag"
)

// Percentiles are the latency percentiles a benchmark may give, in the
// order Latencies holds them.
var Percentiles = []string{"p50", "p90", "p99"}

// DefaultPercentile is the percentile a deployment's latency targets are
// read at when it names none.
const DefaultPercentile = "p99"

// PercentileAt is the index of the percentile called name ("p90", "90",
// "P99") in Percentiles, and whether there is one.
func PercentileAt(name string) (int, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if !strings.HasPrefix(n, "p") {
		n = "p" + n
	}
	for i, p := range Percentiles {
		if p == n {
			return i, true
		}
	}
	return 0, false
}

// Latencies are one latency in milliseconds at each of Percentiles; 0
// where the measurement does not give it.
type Latencies [3]float64

// Benchmark is one measured point of a model served on a GPU: its load
// (concurrency, or request rate where the measurement gives no
// concurrency), the tokens a second one replica served, and the latencies
// its requests saw.
type Benchmark struct {
	GPU, Model, Precision string
	Cards                 int     // cards per replica
	Concurrency           float64 // requests in flight; 0: not given
	RequestRate           float64 // requests a second offered; 0: not given
	OutputTokens          float64 // output tokens a second
	TotalTokens           float64 // input and output tokens a second; 0: not given
	TTFT, TPOT, ITL       Latencies
	Source, Date          string
	Origin                diag.Origin            // the row's first cell
	Where                 map[string]diag.Origin // the cell of each column, by key
}

// Load names the quantities a benchmark curve is measured along.
const (
	LoadConcurrency = "concurrency"
	LoadRequestRate = "request rate"
)

// LoadOf is the benchmark's measure of load called load.
func (b Benchmark) LoadOf(load string) float64 {
	if load == LoadRequestRate {
		return b.RequestRate
	}
	return b.Concurrency
}

// Key is what makes two benchmark rows the same measurement: every figure
// they hold, so that importing one file twice adds nothing.
func (b Benchmark) Key() string {
	return fmt.Sprintf("%s|%s|%s|%d|%g|%g|%g|%g|%v|%v|%v|%s|%s", strings.ToLower(b.GPU), strings.ToLower(b.Model),
		strings.ToLower(b.Precision), b.Cards, b.Concurrency, b.RequestRate, b.OutputTokens, b.TotalTokens,
		b.TTFT, b.TPOT, b.ITL, b.Source, b.Date)
}

// Targets are a deployment's latency limits: the time to the first token
// and the time per output token, in milliseconds at one percentile; a
// zero target is no limit.
type Targets struct {
	TTFT, TPOT float64
	Percentile string // one of Percentiles
}

// Given says the deployment gives a latency target.
func (t Targets) Given() bool { return t.TTFT > 0 || t.TPOT > 0 }

// OperatingPoint is where a replica runs under a deployment's latency
// targets on a measured curve: the highest load that meets both, linear
// between the last measured point that meets them and the next one.
type OperatingPoint struct {
	Targets
	Load       string  // LoadConcurrency or LoadRequestRate
	At         float64 // the load
	Tokens     float64 // output tokens a second one replica serves there
	TTFT, TPOT float64 // the latencies there, at the targets' percentile
	// TPOTFrom names the measured latency the TPOT target is held to:
	// "tpot", or "itl" where the curve gives inter-token latency only.
	TPOTFrom string
	// Binding is the latency that reaches its target between the two
	// points ("ttft" or "tpot"); "" at a measured point.
	Binding string
	// Used are the measured points read: two, or one when every measured
	// load meets the targets and the highest stands (Capped).
	Used   []Benchmark
	Capped bool
	// From and To are the lowest and highest loads measured.
	From, To float64
}

// Curve is the benchmark rows measured for one model on one GPU at one
// precision and cards per replica, in the order of their load.
type Curve struct {
	Points []Benchmark
	Load   string
}

// CurveOf is the curve of the points, ordered along concurrency where
// every point gives one, else along request rate; an error says why they
// are not one curve.
func CurveOf(points []Benchmark) (Curve, error) {
	load := LoadConcurrency
	for _, b := range points {
		if b.Concurrency <= 0 {
			load = LoadRequestRate
		}
	}
	c := Curve{Points: append([]Benchmark(nil), points...), Load: load}
	for _, b := range c.Points {
		if b.LoadOf(load) <= 0 {
			return Curve{}, fmt.Errorf("the Benchmarks row at %s gives neither a concurrency nor a request rate, and its curve's other rows do not all give a concurrency; give each row of the curve its concurrency", b.Origin.Where())
		}
	}
	sort.SliceStable(c.Points, func(i, j int) bool { return c.Points[i].LoadOf(load) < c.Points[j].LoadOf(load) })
	for i := 1; i < len(c.Points); i++ {
		if a, b := c.Points[i-1], c.Points[i]; a.LoadOf(load) == b.LoadOf(load) {
			return Curve{}, fmt.Errorf("the Benchmarks rows at %s and %s measure the same %s (%s); keep one of them", a.Origin.Where(), b.Origin.Where(), load, num(a.LoadOf(load)))
		}
	}
	return c, nil
}

// tpotOf is the latencies the TPOT target is held to on the curve: TPOT
// where every point gives it at percentile p, else inter-token latency.
func (c Curve) tpotOf(p int) (string, func(Benchmark) float64) {
	for _, b := range c.Points {
		if b.TPOT[p] <= 0 {
			return "itl", func(b Benchmark) float64 { return b.ITL[p] }
		}
	}
	return "tpot", func(b Benchmark) float64 { return b.TPOT[p] }
}

// At is the operating point of the curve under targets t (see
// OperatingPoint). It never extrapolates: when every measured load meets
// the targets, the highest stands, Capped; when none does, an error gives
// the range measured.
func (c Curve) At(t Targets) (OperatingPoint, error) {
	p, _ := PercentileAt(t.Percentile)
	pct := Percentiles[p]
	from, ttft := "ttft", func(b Benchmark) float64 { return b.TTFT[p] }
	tpotFrom, tpot := c.tpotOf(p)
	for _, b := range c.Points {
		if t.TTFT > 0 && ttft(b) <= 0 {
			return OperatingPoint{}, fmt.Errorf("the Benchmarks row at %s gives no %s %s; give it, or a percentile every row of the curve gives", b.Origin.Where(), from, pct)
		}
		if t.TPOT > 0 && tpot(b) <= 0 {
			return OperatingPoint{}, fmt.Errorf("the Benchmarks row at %s gives neither tpot nor itl %s; give it, or a percentile every row of the curve gives", b.Origin.Where(), pct)
		}
	}
	meets := func(b Benchmark) bool {
		return (t.TTFT <= 0 || ttft(b) <= t.TTFT) && (t.TPOT <= 0 || tpot(b) <= t.TPOT)
	}
	last := -1
	for i, b := range c.Points {
		if meets(b) {
			last = i
		}
	}
	first, end := c.Points[0].LoadOf(c.Load), c.Points[len(c.Points)-1].LoadOf(c.Load)
	op := OperatingPoint{Targets: t, Load: c.Load, TPOTFrom: tpotFrom, From: first, To: end}
	op.Percentile = pct
	if last < 0 {
		return OperatingPoint{}, fmt.Errorf("no measured %s from %s to %s meets the targets (%s): the lowest gives a ttft of %s ms and a %s of %s ms; relax the targets, or measure lower loads",
			c.Load, num(first), num(end), t.words(), num(ttft(c.Points[0])), tpotFrom, num(tpot(c.Points[0])))
	}
	lo := c.Points[last]
	if last == len(c.Points)-1 {
		op.At, op.Tokens, op.TTFT, op.TPOT = lo.LoadOf(c.Load), lo.OutputTokens, ttft(lo), tpot(lo)
		op.Used, op.Capped = []Benchmark{lo}, true
		return op, nil
	}
	hi := c.Points[last+1]
	share, binding := 1.0, ""
	for _, l := range []struct {
		name   string
		target float64
		of     func(Benchmark) float64
	}{{"ttft", t.TTFT, ttft}, {"tpot", t.TPOT, tpot}} {
		if l.target > 0 && l.of(hi) > l.target {
			if f := (l.target - l.of(lo)) / (l.of(hi) - l.of(lo)); f < share {
				share, binding = f, l.name
			}
		}
	}
	along := func(a, b float64) float64 { return a + share*(b-a) }
	op.At = along(lo.LoadOf(c.Load), hi.LoadOf(c.Load))
	op.Tokens = along(lo.OutputTokens, hi.OutputTokens)
	op.TTFT, op.TPOT = along(ttft(lo), ttft(hi)), along(tpot(lo), tpot(hi))
	op.Binding, op.Used = binding, []Benchmark{lo, hi}
	return op, nil
}

// words are the targets as a message gives them: "ttft ≤ 500 ms and tpot
// ≤ 50 ms at p99".
func (t Targets) words() string {
	var parts []string
	if t.TTFT > 0 {
		parts = append(parts, "ttft ≤ "+num(t.TTFT)+" ms")
	}
	if t.TPOT > 0 {
		parts = append(parts, "tpot ≤ "+num(t.TPOT)+" ms")
	}
	return strings.Join(parts, " and ") + " at " + t.Percentile
}

// Words are the targets as a message gives them.
func (t Targets) Words() string { return t.words() }

// Points names the measured points read, for people: "Benchmarks!A5
// (concurrency 16) and Benchmarks!A6 (concurrency 32)".
func (op OperatingPoint) Points() string {
	var out []string
	for _, b := range op.Used {
		out = append(out, fmt.Sprintf("%s (%s %s)", b.Origin.Where(), op.Load, num(b.LoadOf(op.Load))))
	}
	return diag.ListAnd(out)
}
