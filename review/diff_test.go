package review

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/facts"
	"planner/montecarlo"
	"planner/units"
	"planner/whatif"
	"planner/workbooks"
)

// side computes a model as diff does.
func side(t *testing.T, name string, m domain.Model) Side {
	t.Helper()
	p, err := engine.Build(m, deploy.Check, montecarlo.Check, whatif.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	costs := deploy.Cost(p, results)
	return Side{Name: name, Facts: facts.Of(m), Results: append(facts.Results(p, results), facts.Deployments(costs)...),
		Verdicts: facts.Verdicts(p, results, costs)}
}

// Editing one input shows up as exactly that input, plus results of
// formulas that depend on it by the dependency graph, and nothing else;
// every result that really moved is listed.
func TestOneEditShowsItselfAndItsDependents(t *testing.T) {
	old := side(t, "old", workbooks.DefaultModel())
	p, _ := engine.Build(workbooks.DefaultModel(), deploy.Check, montecarlo.Check, whatif.Check)
	rng := rand.New(rand.NewPCG(2026, 11))
	for trial := 0; trial < 200; trial++ {
		m := workbooks.DefaultModel()
		i := rng.IntN(len(m.Inputs))
		in := &m.Inputs[i]
		if in.Value.IsText {
			continue
		}
		v := perturb(rng, *in)
		if v == in.Value.Num {
			continue // drew the value it had: nothing was edited
		}
		in.Value = domain.Num(v)
		newSide := side(t, "new", m)
		d := Compare(old, newSide, Tolerance{})

		if len(d.Facts) != 1 || d.Facts[0].Kind != facts.KindAssumption || d.Facts[0].Key != in.Name {
			t.Fatalf("trial %d: editing %s changed facts %+v", trial, in.Name, d.Facts)
		}
		deps := p.DependsOn(in.Name)
		listed := map[string]bool{}
		for _, r := range d.Results {
			if r.Deployment == "" && !slices.Contains(deps, r.Name) {
				t.Errorf("trial %d: %s changed, which does not depend on %s", trial, r.Key(), in.Name)
			}
			listed[r.Key()] = true
		}
		// Every result that differs, compared here value by value, is listed.
		before := map[string]facts.Result{}
		for _, r := range old.Results {
			before[r.Key()] = r
		}
		for _, r := range newSide.Results {
			was := before[r.Key()]
			moved := was.Err != r.Err || (r.Err == "" && was.Value != r.Value && !(math.IsNaN(was.Value) && math.IsNaN(r.Value)))
			if moved != listed[r.Key()] {
				t.Errorf("trial %d: %s moved=%v (%v -> %v) but listed=%v", trial, r.Key(), moved, was.Value, r.Value, listed[r.Key()])
			}
		}
	}
}

// perturb moves an input's value within its range, or within what its
// unit allows.
func perturb(rng *rand.Rand, in domain.Input) float64 {
	switch {
	case in.HasRange:
		return in.Low + rng.Float64()*(in.High-in.Low)
	case in.Unit == "GPUs" || in.Unit == "months":
		return float64(1 + rng.IntN(16))
	}
	return in.Value.Num * (0.5 + rng.Float64())
}

func TestTolerance(t *testing.T) {
	a := workbooks.DefaultModel()
	b := workbooks.DefaultModel()
	set(&b, "electricity_price", 0.13) // 0.12 -> 0.13: power moves 8.3 %, the total less
	d := Compare(side(t, "a", a), side(t, "b", b), Tolerance{})
	if len(d.Results) == 0 || d.Same() {
		t.Fatal("no change found")
	}
	power := find(t, d, `"base" power_per_month`)
	if want := 0.13/0.12 - 1; math.Abs(power.Rel-want) > 1e-12 || math.Abs(power.Abs-7.28*730*0.01) > 1e-9 {
		t.Errorf("power: %v (%v relative), want %v (%v)", power.Abs, power.Rel, 7.28*730*0.01, want)
	}
	// A 10 % relative tolerance hides the 8.3 % power change, and keeps the
	// savings that swing by more.
	loose := Compare(side(t, "a", a), side(t, "b", b), Tolerance{Rel: 0.1})
	for _, r := range loose.Results {
		if math.Abs(r.Rel) <= 0.1 {
			t.Errorf("within 10 %%, yet listed: %s (%v)", r.Key(), r.Rel)
		}
	}
	if len(loose.Results) == 0 || len(loose.Results) >= len(d.Results) {
		t.Errorf("%d results within tolerance, %d without", len(loose.Results), len(d.Results))
	}
	// An absolute tolerance of $100 hides the $73 a month.
	for _, r := range Compare(side(t, "a", a), side(t, "b", b), Tolerance{Abs: 100}).Results {
		if strings.HasSuffix(r.Key(), " power_per_month") {
			t.Errorf("listed within $100: %s", r.Key())
		}
	}
}

func set(m *domain.Model, name string, v float64) {
	for i := range m.Inputs {
		if m.Inputs[i].Name == name {
			m.Inputs[i].Value = domain.Num(v)
			return
		}
	}
	panic("no input " + name)
}

func find(t *testing.T, d Diff, key string) ResultChange {
	t.Helper()
	for _, r := range d.Results {
		if r.Key() == key {
			return r
		}
	}
	t.Fatalf("%s is not in the diff", key)
	return ResultChange{}
}

// A change wider than the largest float64 (a saving from -1e308 to
// 1e308) has no number, nor a share of one: the report says so, not
// "from zero", and not "+NaN %".
func TestChangeBeyondTheLargestNumber(t *testing.T) {
	old := facts.Result{Scenario: "base", Name: "npv_saving", Unit: "$", Value: -1e308}
	new := old
	new.Value = 1e308
	c, changed := change(old, new, Tolerance{})
	if !changed || !math.IsInf(c.Abs, 1) || !math.IsNaN(c.Rel) {
		t.Fatalf("change %v, relative %v", c.Abs, c.Rel)
	}
	cells := ResultCells(c)
	if cells[3] != "no number" || cells[4] != "no number" {
		t.Errorf("cells %q", cells)
	}
}

// A share changes in percentage points, beside its relative change: a
// break-even from 41.0 % to 42.6 % moves 1.6 points, 3.9 % of 41.0 %.
func TestShareChangesInPoints(t *testing.T) {
	old := facts.Result{Scenario: "base", Offer: "Lambda H100, 8-GPU plan", Name: domain.Breakeven, Unit: "%", Value: 0.410}
	new := old
	new.Value = 0.426
	c, changed := change(old, new, Tolerance{})
	if !changed {
		t.Fatal("no change")
	}
	want := []string{"base · breakeven_utilization vs Lambda H100, 8-GPU plan", "41.0 %", "42.6 %", "+1.6 pp", "+3.9 %"}
	if got := ResultCells(c); !slices.Equal(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
	new.Value = 0.395
	c, _ = change(old, new, Tolerance{})
	if got := ResultCells(c)[3:]; !slices.Equal(got, []string{"-1.5 pp", "-3.7 %"}) {
		t.Errorf("down: %q", got)
	}
}

// Money changes in money; a value that crosses zero has no relative
// change (-557.2 % of a loss that became a saving means nothing), one
// that reaches zero has its -100 %.
func TestRelativeOnlyWhereItMeansSomething(t *testing.T) {
	old := facts.Result{Scenario: "base", Offer: "RunPod H100 SXM, Secure", Name: "own_saving_per_month", Unit: "$/month", Value: 52.41}
	for _, tc := range []struct {
		new  float64
		want []string
	}{
		{-748.53, []string{"$52.41", "-$748.53", "-$800.94", ""}},
		{0, []string{"$52.41", "$0.00", "-$52.41", "-100.0 %"}},
		{104.82, []string{"$52.41", "$104.82", "+$52.41", "+100.0 %"}},
	} {
		new := old
		new.Value = tc.new
		c, _ := change(old, new, Tolerance{})
		if got := ResultCells(c)[1:]; !slices.Equal(got, tc.want) {
			t.Errorf("%v → %v: %q, want %q", old.Value, tc.new, got, tc.want)
		}
		if crosses := tc.new < 0; crosses != math.IsNaN(c.Rel) || crosses != c.CrossesZero() {
			t.Errorf("%v → %v: relative %v, crosses %v", old.Value, tc.new, c.Rel, c.CrossesZero())
		}
	}
}

// Capex at $300,000 and utilisation at 48 % turn owning against RunPod
// Secure from a saving into a loss: the diff gives the change in money and
// no relative change, and the break-evens' changes in points, each the
// difference of the two sides' own values.
func TestDiffOfTheReadmeEditInItsUnits(t *testing.T) {
	a, b := workbooks.DefaultModel(), workbooks.DefaultModel()
	set(&b, "capex", 300000)
	set(&b, "utilization", 0.48)
	d := Compare(side(t, "a", a), side(t, "b", b), Tolerance{})
	saving := find(t, d, `"base" "RunPod H100 SXM, Secure" own_saving_per_month`)
	if *saving.Old <= 0 || *saving.New >= 0 {
		t.Fatalf("own_saving_per_month %v → %v does not cross zero", *saving.Old, *saving.New)
	}
	if cells := ResultCells(saving); cells[4] != "" || cells[3] != "-$"+strings.TrimPrefix(units.Format(*saving.Old-*saving.New, "$/month"), "$") {
		t.Errorf("crossing saving: %q", cells)
	}
	be := find(t, d, `"base" "Lambda H100, 8-GPU plan" breakeven_utilization`)
	// break-even = cost per GPU-hour / price, cost per GPU-hour moving by
	// capex's share of it: 15000 / 36 / 730 / 8 $ more an hour.
	if want := 15000.0 / 36 / 730 / 8 / 3.99; math.Abs(*be.New-*be.Old-want) > 1e-12 {
		t.Errorf("break-even moved %v, want %v", *be.New-*be.Old, want)
	}
	if cells := ResultCells(be); cells[3] != "+1.8 pp" || cells[4] != "+4.4 %" {
		t.Errorf("break-even: %q", cells)
	}
}
