package review

import (
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"planner/domain"
	"planner/facts"
)

// Side is one workbook as the comparison sees it.
type Side struct {
	Name     string          // the file, or REV:PATH
	Facts    []facts.Fact    // what it says
	Results  []facts.Result  // what it computes; none when Broken
	Verdicts []facts.Verdict // what it decides; none when Broken
	Broken   string          // why its formulas do not build, if they do not
	// Model is what it says, read for a policy's rules on prices; nil
	// when it could not be read.
	Model *domain.Model
	// Chances are Monte Carlo's chances that owning is cheaper, run only
	// when a policy asks.
	Chances []Chance
}

// Chance is Monte Carlo's chance that owning a scenario's node is cheaper
// than renting from an offer.
type Chance struct {
	Scenario, Offer string
	Probability     float64 // NaN when no sample could tell
}

// Tolerance says how far two numbers may differ and still be the same:
// |new − old| ≤ Abs + Rel × |old|, as numpy's isclose.
type Tolerance struct{ Abs, Rel float64 }

// FactChange is one fact that differs; Old or New is "" when the fact is
// on one side only.
type FactChange struct {
	Kind, Key string
	Old, New  string
}

// ResultChange is one result that differs.
type ResultChange struct {
	facts.Result            // the new side's, or the old's when the new lacks it
	Old, New       *float64 // nil: no number on that side
	OldErr, NewErr string   // why there is no number ("" when missing altogether)
	Abs            float64  // new − old, when both are numbers
	// Rel is (new − old) / |old|, where a relative change means something:
	// ±Inf from zero; NaN when the value crosses zero (from -$557 to $2,547
	// is no share of -$557) or new − old is beyond the largest float64 (Abs
	// is ±Inf).
	Rel  float64
	Only string // "old" or "new" when the result is on one side only
	// Headline is a cost per GPU-hour, per used hour or a break-even: the
	// figures a reviewer reads first after the decisions.
	Headline bool
	// Stake is the money a month at stake where the result sits: the
	// largest change of a $/month figure of its scenario and offer, or of
	// its deployment (a figure on one side only counts whole).
	Stake   float64
	numbers bool // both sides are numbers
}

// Diff is everything that differs between two sides, in the order a
// reviewer reads it: Decisions most money first; Results the headline
// figures first, then the rest by money at stake.
type Diff struct {
	Old, New  string
	Facts     []FactChange
	Decisions []Decision
	Verdicts  int // the new side's verdicts, buy or rent, compared
	Results   []ResultChange
	Broken    [2]string // per side: why it computed nothing
	Unrelated bool      // the sides share no assumption: probably two different plans
	Month     [2]*Month // per side: its cheapest month, nil when it computes none
}

// Same reports whether nothing differs.
func (d Diff) Same() bool {
	return len(d.Facts) == 0 && len(d.Decisions) == 0 && len(d.Results) == 0 && d.Broken == [2]string{}
}

// Compare lists what differs from old to new.
func Compare(old, new Side, tol Tolerance) Diff {
	d := Diff{Old: old.Name, New: new.Name, Broken: [2]string{old.Broken, new.Broken}}
	d.Facts, d.Unrelated = compareFacts(old.Facts, new.Facts)
	if old.Broken == "" && new.Broken == "" {
		// A side that computes nothing would list every result as gone:
		// its reason says more.
		d.Results = compareResults(old.Results, new.Results, tol)
		d.Decisions = compareVerdicts(old.Verdicts, new.Verdicts)
		d.Month = [2]*Month{cheapestMonth(old.Results), cheapestMonth(new.Results)}
		for _, v := range new.Verdicts {
			if v.Verdict != "" {
				d.Verdicts++
			}
		}
	}
	return d
}

func compareFacts(old, new []facts.Fact) ([]FactChange, bool) {
	key := func(f facts.Fact) string { return f.Kind + "\x00" + f.Key }
	before := map[string]facts.Fact{}
	for _, f := range old {
		before[key(f)] = f
	}
	var out []FactChange
	shared := false
	seen := map[string]bool{}
	for _, f := range new {
		k := key(f)
		seen[k] = true
		was, ok := before[k]
		if ok && f.Kind == facts.KindAssumption {
			shared = true
		}
		if !ok || was.Value != f.Value {
			out = append(out, FactChange{Kind: f.Kind, Key: f.Key, Old: was.Value, New: f.Value})
		}
	}
	for _, f := range old {
		if !seen[key(f)] {
			out = append(out, FactChange{Kind: f.Kind, Key: f.Key, Old: f.Value})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := facts.KindRank(out[i].Kind), facts.KindRank(out[j].Kind)
		if a != b {
			return a < b
		}
		return out[i].Key < out[j].Key
	})
	unrelated := !shared && len(old) > 0 && len(new) > 0
	return out, unrelated
}

func compareResults(old, new []facts.Result, tol Tolerance) []ResultChange {
	before := map[string]facts.Result{}
	for _, r := range old {
		before[r.Key()] = r
	}
	var out []ResultChange
	seen := map[string]bool{}
	for _, r := range new {
		seen[r.Key()] = true
		was, ok := before[r.Key()]
		if !ok {
			out = append(out, oneSided(r, "new"))
			continue
		}
		if c, changed := change(was, r, tol); changed {
			out = append(out, c)
		}
	}
	for _, r := range old {
		if !seen[r.Key()] {
			out = append(out, oneSided(r, "old"))
		}
	}
	order(out)
	return out
}

func oneSided(r facts.Result, side string) ResultChange {
	c := ResultChange{Result: r, Only: side}
	v := r.Value
	switch {
	case side == "new" && r.Err == "":
		c.New = &v
	case side == "new":
		c.NewErr = r.Err
	case r.Err == "":
		c.Old = &v
	default:
		c.OldErr = r.Err
	}
	return c
}

// change compares one result on both sides.
func change(old, new facts.Result, tol Tolerance) (ResultChange, bool) {
	c := ResultChange{Result: new, OldErr: old.Err, NewErr: new.Err}
	if old.Err == "" {
		v := old.Value
		c.Old = &v
	}
	if new.Err == "" {
		v := new.Value
		c.New = &v
	}
	if c.Old == nil || c.New == nil {
		return c, old.Err != new.Err
	}
	c.numbers = true
	c.Abs = new.Value - old.Value
	switch {
	case math.IsInf(c.Abs, 0):
		c.Rel = math.NaN() // a change beyond the largest float64: no number, nor a share of one
	case crossesZero(old.Value, new.Value):
		c.Rel = math.NaN()
	case old.Value != 0:
		c.Rel = c.Abs / math.Abs(old.Value)
	case c.Abs != 0:
		c.Rel = math.Copysign(math.Inf(1), c.Abs)
	}
	return c, math.Abs(c.Abs) > tol.Abs+tol.Rel*math.Abs(old.Value)
}

// crossesZero reports whether a value changed sign: its relative change
// then measures nothing (-557.2 % of a loss that became a saving).
func crossesZero(old, new float64) bool { return old < 0 && new > 0 || old > 0 && new < 0 }

// CrossesZero reports whether the result changed sign, so that its
// relative change means nothing.
func (c ResultChange) CrossesZero() bool {
	return c.numbers && !math.IsInf(c.Abs, 0) && crossesZero(*c.Old, *c.New)
}

// headline are the results a reviewer reads right after the decisions.
var headline = map[string]bool{domain.CostPerGPUHour: true, domain.CostPerUsedHour: true, domain.Breakeven: true}

// perMonth is the unit of the figures whose change is money a month.
const perMonth = "$/month"

// order puts the headline figures first, in the plan's order (base first,
// then the scenarios), then the rest by money at stake: the groups (a
// scenario, against an offer, or a deployment) by the largest change a
// month among their figures, and within a group the monthly figures by
// their change, then the others in the plan's order. Ties keep the plan's
// order, so that the same comparison prints the same way every time.
func order(out []ResultChange) {
	group := func(r ResultChange) string {
		return r.Scenario + "\x00" + r.Offer + "\x00" + r.Deployment + "\x00" + r.Fleet
	}
	stake := map[string]float64{}
	for i := range out {
		r := &out[i]
		r.Headline = headline[r.Name] && r.Deployment == "" && r.Fleet == ""
		if m := monthly(*r); m > stake[group(*r)] {
			stake[group(*r)] = m
		}
	}
	first := map[string]int{} // where a group first appears, for ties
	for i := range out {
		out[i].Stake = stake[group(out[i])]
		if _, ok := first[group(out[i])]; !ok {
			first[group(out[i])] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Headline != b.Headline:
			return a.Headline
		case a.Headline:
			return false
		case a.Stake != b.Stake:
			return a.Stake > b.Stake
		case group(a) != group(b):
			return first[group(a)] < first[group(b)]
		}
		return monthly(a) > monthly(b)
	})
}

// monthly is the money a month a result's change moves: its change when
// it is money a month (its whole value when on one side only), else 0.
func monthly(r ResultChange) float64 {
	switch {
	case r.Unit != perMonth:
		return 0
	case r.numbers:
		return math.Abs(r.Abs)
	case r.Old != nil:
		return math.Abs(*r.Old)
	case r.New != nil:
		return math.Abs(*r.New)
	}
	return 0
}

// Decision is a verdict that changed: buy or rent, of a scenario against an
// offer or of a deployment, on one side and the other.
type Decision struct {
	facts.Verdict          // the new side's, or the old's when the new lacks it
	Old, New      string   // the verdicts; "" where there is none
	OldSaving     *float64 // what owning saves over renting a month, per side; nil when not known
	NewSaving     *float64
	Only          string // "old" or "new" when the decision is on one side only
}

// Change is how far the edit moved what owning saves a month, when both
// sides say.
func (d Decision) Change() (float64, bool) {
	if d.OldSaving == nil || d.NewSaving == nil {
		return 0, false
	}
	return *d.NewSaving - *d.OldSaving, true
}

// stake is the money a month a decision moves: its change, or what owning
// saves on the one side that says.
func (d Decision) stake() float64 {
	if c, ok := d.Change(); ok {
		return math.Abs(c)
	}
	for _, s := range []*float64{d.NewSaving, d.OldSaving} {
		if s != nil {
			return math.Abs(*s)
		}
	}
	return 0
}

// compareVerdicts lists the decisions whose verdict differs, most money
// a month first, ties in the plan's order.
func compareVerdicts(old, new []facts.Verdict) []Decision {
	before := map[string]facts.Verdict{}
	for _, v := range old {
		before[v.Key()] = v
	}
	var out []Decision
	seen := map[string]bool{}
	for _, v := range new {
		seen[v.Key()] = true
		was, ok := before[v.Key()]
		d := Decision{Verdict: v, Old: was.Verdict, New: v.Verdict, OldSaving: was.Saving, NewSaving: v.Saving}
		if !ok {
			d.Only = "new"
		}
		if d.Old != d.New {
			out = append(out, d)
		}
	}
	for _, v := range old {
		if !seen[v.Key()] && v.Verdict != "" {
			out = append(out, Decision{Verdict: v, Old: v.Verdict, OldSaving: v.Saving, Only: "old"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].stake() > out[j].stake() })
	return out
}

// Words says the change in words; code marks up names and values (as
// code in markdown; nil leaves them as they are).
func (f FactChange) Words(code func(string) string) string {
	if code == nil {
		code = func(s string) string { return s }
	}
	what := f.Kind + " " + f.Key
	switch {
	case f.Old == "":
		return "added " + code(what) + ": " + code(f.New)
	case f.New == "":
		return "removed " + code(what) + " (was " + code(f.Old) + ")"
	}
	return code(what) + ": " + code(f.Old) + " → " + code(f.New)
}

// ParseTolerance reads a tolerance written ABS, REL% or ABS,REL%.
func ParseTolerance(s string) (Tolerance, error) {
	var tol Tolerance
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		rel, isRel := strings.CutSuffix(part, "%")
		v, err := strconv.ParseFloat(strings.TrimSpace(rel), 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return tol, errors.New("write an absolute amount (0.005), a relative one (0.1%), or both (0.005,0.1%)")
		}
		if isRel {
			tol.Rel = v / 100
		} else {
			tol.Abs = v
		}
	}
	return tol, nil
}
