package review

import (
	"math"
	"sort"

	"planner/facts"
)

// Side is one workbook as the comparison sees it.
type Side struct {
	Name    string         // the file, or REV:PATH
	Facts   []facts.Fact   // what it says
	Results []facts.Result // what it computes; none when Broken
	Broken  string         // why its formulas do not build, if they do not
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
	Rel            float64  // (new − old) / |old|; ±Inf from zero
	Only           string   // "old" or "new" when the result is on one side only
	numbers        bool     // both sides are numbers
}

// Diff is everything that differs between two sides.
type Diff struct {
	Old, New  string
	Facts     []FactChange
	Results   []ResultChange
	Broken    [2]string // per side: why it computed nothing
	Unrelated bool      // the sides share no assumption: probably two different plans
}

// Same reports whether nothing differs.
func (d Diff) Same() bool {
	return len(d.Facts) == 0 && len(d.Results) == 0 && d.Broken == [2]string{}
}

// Compare lists what differs from old to new.
func Compare(old, new Side, tol Tolerance) Diff {
	d := Diff{Old: old.Name, New: new.Name, Broken: [2]string{old.Broken, new.Broken}}
	d.Facts, d.Unrelated = compareFacts(old.Facts, new.Facts)
	if old.Broken == "" && new.Broken == "" {
		// A side that computes nothing would list every result as gone:
		// its reason says more.
		d.Results = compareResults(old.Results, new.Results, tol)
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
	sort.SliceStable(out, func(i, j int) bool { return impactLess(out[i], out[j]) })
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
	case old.Value != 0:
		c.Rel = c.Abs / math.Abs(old.Value)
	case c.Abs != 0:
		c.Rel = math.Copysign(math.Inf(1), c.Abs)
	}
	return c, math.Abs(c.Abs) > tol.Abs+tol.Rel*math.Abs(old.Value)
}

// impactLess orders the largest change first: a result that appears,
// disappears or fails before any number, then by relative change, then by
// absolute change, then by name.
func impactLess(a, b ResultChange) bool {
	if a.numbers != b.numbers {
		return !a.numbers
	}
	if ra, rb := math.Abs(a.Rel), math.Abs(b.Rel); ra != rb {
		return ra > rb
	}
	if aa, ab := math.Abs(a.Abs), math.Abs(b.Abs); aa != ab {
		return aa > ab
	}
	return a.Key() < b.Key()
}
