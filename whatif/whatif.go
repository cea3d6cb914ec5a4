package whatif

import (
	"fmt"
	"math"
	"sort"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/montecarlo"
	"planner/units"
	"planner/wording"
)

// Target is an output a what-if follows: a node-level formula, or a
// per-offer formula against one offer.
type Target struct {
	Name  string
	Offer *domain.Offer // nil for a node-level formula
}

// Label names the target for people: "breakeven_utilization vs RunPod H100 SXM, Community".
func (t Target) Label() string {
	if t.Offer == nil {
		return t.Name
	}
	return t.Name + " vs " + t.Offer.Label()
}

// Targets expands formula names into targets for sc: a per-offer formula
// becomes one target per offer of the scenario's GPU.
func Targets(p *engine.Plan, sc domain.Scenario, names []string) ([]Target, error) {
	res, err := p.Eval(sc)
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, name := range names {
		if err := CheckTarget(p, name); err != nil {
			return nil, err
		}
		if !p.PerOffer(name) {
			out = append(out, Target{Name: name})
			continue
		}
		for _, o := range res.Offers {
			if o.Compared && (name != domain.Breakeven || o.Offer.HasBreakeven()) {
				out = append(out, Target{Name: name, Offer: o.Offer})
			}
		}
	}
	return out, nil
}

// CheckTarget says why name cannot be a target, or nil.
func CheckTarget(p *engine.Plan, name string) error {
	if _, ok := p.Formula(name); !ok {
		return fmt.Errorf("%s is not a formula%s", name, p.DidYouMeanFormula(name))
	}
	return nil
}

// value reads a target from a result; ok is false when it has no number.
func (t Target) value(r *engine.Result) (float64, bool) {
	if t.Offer == nil {
		v, ok := r.Values[t.Name]
		return v, ok
	}
	for _, o := range r.Offers {
		if o.Offer.Label() == t.Offer.Label() {
			v, ok := o.Values[t.Name]
			return v, ok
		}
	}
	return 0, false
}

// TornadoBar is one input moved from low to high, the others at base.
type TornadoBar struct {
	Input         *domain.Input // the model's own: thousands of targets share one
	AtLow, AtHigh float64       // the target with the input at its low and its high
	Swing         float64       // |AtHigh − AtLow|
	// Why says, when the bar has no swing to show, why: the target has no
	// number at an end (AtLow and AtHigh are then NaN), or the ends are
	// further apart than the largest float64 (the swing is +Inf).
	Why string
}

// Tornado is the sensitivity of one target to every input with a range,
// largest swing first.
type Tornado struct {
	Target Target
	Unit   string
	Base   float64
	Bars   []TornadoBar
	Held   []montecarlo.Held // inputs with a range that holds not their value: not swung
}

// Tornadoes moves every input with a range to its low and its high, one at
// a time, and reads each target: one tornado per target. An input whose
// value in sc lies outside its range is held: swinging it over a range
// that no longer contains it would show a sensitivity to values nobody
// assumes.
func Tornadoes(p *engine.Plan, sc domain.Scenario, targets []Target) ([]Tornado, error) {
	base, err := p.Eval(sc)
	if err != nil {
		return nil, err
	}
	var held []montecarlo.Held // the tornado holds what left its range, as Monte Carlo does; it swings the rest over it
	isHeld := map[string]bool{}
	for _, h := range montecarlo.HeldInputs(p, sc) {
		if !h.ByDistribution {
			held = append(held, h)
			isHeld[h.Input.Name] = true
		}
	}
	out := make([]Tornado, len(targets))
	baseAt := offersByLabel(base) // a target per offer finds its offer at once
	for i, t := range targets {
		v, _ := t.valueIn(base, baseAt)
		out[i] = Tornado{Target: t, Unit: p.Unit(t.Name), Base: v, Held: held}
	}
	inputs := p.Model().Inputs
	for k := range inputs {
		in := &inputs[k]
		if !in.HasRange || in.Value.IsText || isHeld[in.Name] {
			continue
		}
		low, high := with(p, sc, in.Name, in.Low), with(p, sc, in.Name, in.High)
		lowAt, highAt := offersByLabel(low), offersByLabel(high)
		for i, t := range targets {
			bar := TornadoBar{Input: in}
			var okLow, okHigh bool
			bar.AtLow, okLow = t.valueIn(low, lowAt)
			bar.AtHigh, okHigh = t.valueIn(high, highAt)
			switch {
			case okLow && okHigh:
				bar.Swing = math.Abs(bar.AtHigh - bar.AtLow)
				if base := out[i].Base; !finite(bar.Swing) || !finite(bar.AtLow-base) || !finite(bar.AtHigh-base) {
					// Each end is a number; the distance between them is not.
					bar.Why = fmt.Sprintf("%s moves from %s to %s against %s at base, further than the largest number planner computes with (%s)",
						t.Label(), units.Plain(bar.AtLow), units.Plain(bar.AtHigh), units.Plain(base), units.Plain(math.MaxFloat64))
				}
			default:
				bar.Why = fmt.Sprintf("%s has no number with %s at its range's end", t.Label(), in.Name)
				bar.AtLow, bar.AtHigh = math.NaN(), math.NaN()
			}
			out[i].Bars = append(out[i].Bars, bar)
		}
	}
	for i := range out {
		bars := out[i].Bars
		sort.SliceStable(bars, func(a, b int) bool {
			if bars[a].Swing != bars[b].Swing {
				return bars[a].Swing > bars[b].Swing
			}
			return bars[a].Input.Name < bars[b].Input.Name
		})
	}
	return out, nil
}

// with evaluates sc with one input set; nil when the scenario is wrong.
func with(p *engine.Plan, sc domain.Scenario, name string, v float64) *engine.Result {
	set := map[string]domain.Value{}
	for k, x := range sc.Set {
		set[k] = x
	}
	set[name] = domain.Num(v)
	r, err := p.Eval(domain.Scenario{Name: sc.Name, Set: set})
	if err != nil {
		return nil
	}
	return r
}

// valueIn reads the target from r, which may be nil, its offers found by
// label in at (offersByLabel(r)), so that many targets cost no scan each.
func (t Target) valueIn(r *engine.Result, at map[string]int) (float64, bool) {
	if r == nil {
		return math.NaN(), false
	}
	if t.Offer == nil {
		return t.value(r)
	}
	i, ok := at[t.Offer.Label()]
	if !ok {
		return 0, false
	}
	v, ok := r.Offers[i].Values[t.Name]
	return v, ok
}

// offersByLabel is where each label's first offer is in r's offers, as
// value finds it; nil for a nil r.
func offersByLabel(r *engine.Result) map[string]int {
	if r == nil {
		return nil
	}
	at := make(map[string]int, len(r.Offers))
	for i := len(r.Offers) - 1; i >= 0; i-- {
		at[r.Offers[i].Offer.Label()] = i
	}
	return at
}

// MaxSteps bounds a data table's axis.
const MaxSteps = 1000

// values are the axis's input values, From to To inclusive, evenly spaced.
func values(a domain.Axis) []float64 {
	if a.Steps == 1 {
		return []float64{a.From}
	}
	out := make([]float64, a.Steps)
	wide := !finite(a.To - a.From) // ends further apart than the largest float64
	for i := range out {
		if f := float64(i) / float64(a.Steps-1); wide {
			out[i] = a.From*(1-f) + a.To*f
		} else {
			out[i] = a.From + (a.To-a.From)*float64(i)/float64(a.Steps-1)
		}
	}
	return out
}

// Table is a data table computed: Cells[row][col], NaN where the output
// has no number, and Why says why for the first such cell.
type Table struct {
	Spec      domain.TableSpec
	Unit      string
	RowValues []float64
	ColValues []float64 // empty for a one-way table or a table over offers
	ColLabels []string  // the offers, for a table over offers
	Cells     [][]float64
	Why       string
}

// checkTables refuses tables over names the model lacks, with impossible
// axes, or with an offer axis for a node-level output.
func checkTables(p *engine.Plan, specs []domain.TableSpec) diag.Diagnostics {
	m := p.Model()
	var problems diag.Diagnostics
	for _, t := range specs {
		at := func(col string) diag.Origin {
			if o, ok := t.Where[col]; ok {
				return o
			}
			return t.Origin
		}
		fail := func(col, format string, args ...any) {
			problems = append(problems, &diag.Diagnostic{Origin: at(col), Name: t.Name, Msg: fmt.Sprintf(format, args...)})
		}
		_, ok := p.Formula(t.Output)
		if !ok {
			fail("output", "%s is not a formula%s", t.Output, p.DidYouMeanFormula(t.Output))
		}
		for key, a := range map[string]*domain.Axis{"row": &t.Row, "col": t.Col} {
			if a == nil || a.Offers {
				continue
			}
			if in, found := m.Input(a.Input); !found {
				fail(key+"input", "%s is not an input%s", a.Input, p.DidYouMean(a.Input))
			} else if in.Value.IsText {
				fail(key+"input", "%s is text; a table steps through numbers", a.Input)
			}
			if a.Steps < 1 || a.Steps > MaxSteps {
				fail(key+"steps", "%d steps: use between 1 and %d", a.Steps, MaxSteps)
			}
			if !(a.From <= a.To) {
				fail(key+"from", "runs from %g to %g; the start must not be above the end", a.From, a.To)
			}
		}
		if t.Row.Offers {
			fail("rowinput", "offers go across, as the column axis")
		}
		if t.Col != nil && !t.Col.Offers && !t.Row.Offers && t.Col.Input == t.Row.Input {
			fail("colinput", "steps %s down the side and across the top; a two-way table needs two different inputs", t.Row.Input)
		}
		if ok && p.PerOffer(t.Output) && (t.Col == nil || !t.Col.Offers) {
			fail("colinput", "%s is evaluated per offer; put offer as the column input", t.Output)
		}
		if t.Col != nil && t.Col.Offers && ok && !p.PerOffer(t.Output) {
			fail("colinput", "a table across offers needs an output evaluated per offer (one that uses offer_price); %s is not", t.Output)
		}
	}
	return problems
}

// DataTable evaluates spec in scenario sc, cell by cell, through the
// compiled program: only the instructions that depend on the axes' inputs
// run for each cell.
func DataTable(p *engine.Plan, sc domain.Scenario, spec domain.TableSpec) (*Table, error) {
	t := &Table{Spec: spec, Unit: p.Unit(spec.Output), RowValues: values(spec.Row)}
	vary := []string{spec.Row.Input}
	offers := []*domain.Offer{nil} // one column, no offer
	switch {
	case spec.Col == nil:
	case spec.Col.Offers:
		base, err := p.Eval(sc)
		if err != nil {
			return nil, err
		}
		offers = nil
		for _, o := range base.Offers {
			if o.Compared {
				offers = append(offers, o.Offer)
				t.ColLabels = append(t.ColLabels, o.Offer.Label())
			}
		}
	default:
		t.ColValues = values(*spec.Col)
		vary = append(vary, spec.Col.Input)
	}
	ev, err := p.NewEvaluator(sc, vary...)
	if err != nil {
		return nil, err
	}
	row, out := slot(p, spec.Row.Input), slot(p, spec.Output)
	perOffer := p.PerOffer(spec.Output)
	read := func(o *domain.Offer) float64 {
		if perOffer && o != nil && spec.Output == domain.Breakeven && !o.HasBreakeven() {
			return math.NaN()
		}
		if perOffer && o != nil {
			ev.RunOfferOf(*o)
		} else if perOffer {
			ev.RunOffer(math.NaN())
		}
		return finiteOrNaN(ev.Get(out))
	}
	for _, rv := range t.RowValues {
		ev.Set(row, rv)
		var cells []float64
		if len(t.ColValues) > 0 {
			col := slot(p, spec.Col.Input)
			for _, cv := range t.ColValues {
				ev.Set(col, cv)
				ev.Run()
				cells = append(cells, read(nil))
			}
		} else {
			ev.Run()
			for _, o := range offers {
				cells = append(cells, read(o))
			}
		}
		t.Cells = append(t.Cells, cells)
	}
	t.Why = firstNoNumber(p, sc, t)
	return t, nil
}

// firstNoNumber says why the table's first cell without a number has
// none, as evaluating that cell alone explains it; "" when every cell has
// one.
func firstNoNumber(p *engine.Plan, sc domain.Scenario, t *Table) string {
	for i, row := range t.Cells {
		for j, v := range row {
			if !math.IsNaN(v) {
				continue
			}
			set := map[string]domain.Value{}
			for k, x := range sc.Set {
				set[k] = x
			}
			set[t.Spec.Row.Input] = domain.Num(t.RowValues[i])
			at := fmt.Sprintf("%s = %s", t.Spec.Row.Input, units.Plain(t.RowValues[i]))
			offer := ""
			switch {
			case len(t.ColValues) > 0:
				set[t.Spec.Col.Input] = domain.Num(t.ColValues[j])
				at += fmt.Sprintf(", %s = %s", t.Spec.Col.Input, units.Plain(t.ColValues[j]))
			case len(t.ColLabels) > 0:
				offer = t.ColLabels[j]
				at += " against " + offer
			}
			return fmt.Sprintf("no number at %s: %s", at, cellError(p, domain.Scenario{Name: sc.Name, Set: set}, t.Spec.Output, offer))
		}
	}
	return ""
}

// cellError is why output has no number in sc (against the offer so
// labelled, for a per-offer output): the evaluator's own words.
func cellError(p *engine.Plan, sc domain.Scenario, output, offer string) string {
	r, err := p.Eval(sc)
	if err != nil {
		return err.Error()
	}
	errs := r.Errors
	for _, o := range r.Offers {
		if offer != "" && o.Offer.Label() == offer {
			errs = o.Errors
		}
	}
	if e, ok := errs[output]; ok {
		return output + ": " + e.Msg
	}
	return output + " is not a finite number"
}

// slot is the slot of an input or formula that Check or the evaluator has
// already found.
func slot(p *engine.Plan, name string) engine.Slot {
	s, _ := p.Slot(name)
	return s
}

func finiteOrNaN(v float64) float64 {
	if finite(v) {
		return v
	}
	return math.NaN()
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Crossing is where a scenario's cost per used hour meets an offer's price.
type Crossing struct {
	Scenario    string
	Offer       *domain.Offer // the model's own
	Utilization float64       // NaN when the curve does not meet the price between 1 % and 100 %
	// Term is what the offer's price per used hour is multiplied by where
	// the curve meets it: 1, or along a path its rent over the term per
	// month of the annuity (rent_path_factor ÷ annuity_factor), the price
	// over the term in today's money.
	Term float64
	// Why says, when it does not, where it would: wording.AboveAll (dearer
	// than the price even with the cards always busy: owning never pays),
	// BelowAll, or why the curve has no number to meet the price with.
	Why string
}

// BelowAll is where a curve cheaper than an offer's price even with the
// cards idle 99 % of the time crosses it.
const BelowAll = "below 1 %"

// Curve is the cost per used hour over utilisation, for every scenario.
type Curve struct {
	Utilization []float64   // 1 % to 100 %
	Cost        [][]float64 // per scenario, per utilisation; NaN where it has no number
	Scenarios   []string
	// Term are the scenarios whose prices follow a path (a yearly change of
	// the rent or of electricity): their curve is owning's cost per used
	// hour over the term (see termCost), so that it crosses each offer's
	// price over the term where Results' NPV break-even is.
	Term      []string
	Crossings []Crossing
}

// BreakevenCurve traces cost_per_used_hour from 1 % to 100 % utilisation for
// every scenario and finds where it crosses each offer of the scenario's GPU.
// Along a path it traces the cost over the term instead (termCost), whose
// crossings with the offers' prices over the term are where owning's NPV is
// zero, as Results' break-even is.
func BreakevenCurve(p *engine.Plan, scenarios []domain.Scenario) (*Curve, error) {
	const output = domain.CostPerUsedHour
	if _, ok := p.Formula(output); !ok {
		return nil, fmt.Errorf("the break-even curve follows %s, which the model does not define", output)
	}
	c := &Curve{}
	for u := 1; u <= 100; u++ {
		c.Utilization = append(c.Utilization, float64(u)/100)
	}
	for _, sc := range scenarios {
		c.Scenarios = append(c.Scenarios, sc.Name)
		res, err := p.Eval(sc)
		if err != nil {
			return nil, err
		}
		at, err := curveOf(p, sc, onPath(res))
		if err != nil {
			return nil, err
		}
		if onPath(res) {
			c.Term = append(c.Term, sc.Name)
		}
		var line []float64
		for _, u := range c.Utilization {
			line = append(line, finiteOrNaN(at(u)))
		}
		c.Cost = append(c.Cost, line)
		crossings, err := crossings(p, sc, res, output, at)
		if err != nil {
			return nil, err
		}
		c.Crossings = append(c.Crossings, crossings...)
	}
	return c, nil
}

// onPath reports whether a scenario's prices change over the term, as the
// built-in break-even asks: a yearly change of the rent or of electricity.
func onPath(res *engine.Result) bool {
	return res.Values[domain.RentChange] != 0 || res.Values[domain.ElectricityChange] != 0
}

// curveOf is the scenario's curve as a function of the utilisation: its
// cost per used hour, or along a path its cost over the term (termCost).
func curveOf(p *engine.Plan, sc domain.Scenario, path bool) (func(u float64) float64, error) {
	ev, err := p.NewEvaluator(sc, domain.Utilization)
	if err != nil {
		return nil, err
	}
	util := slot(p, domain.Utilization)
	if !path {
		cost := slot(p, domain.CostPerUsedHour)
		return func(u float64) float64 {
			ev.Set(util, u)
			ev.Run()
			return ev.Get(cost)
		}, nil
	}
	var slots [6]engine.Slot
	for i, name := range []string{domain.NPVSaving, domain.RentPathFactor, domain.AnnuityFactor, domain.TaxRate, domain.GPUs, domain.HoursPerMonth} {
		s, err := p.Slot(name)
		if err != nil {
			return nil, fmt.Errorf("the break-even curve along a path reads %s: %w", name, err)
		}
		slots[i] = s
	}
	npv, rpf, af, tax, gpus, hours := slots[0], slots[1], slots[2], slots[3], slots[4], slots[5]
	return func(u float64) float64 {
		ev.Set(util, u)
		ev.Run()
		ev.RunOffer(1)
		return termCost(ev.Get(npv), ev.Get(rpf), ev.Get(af), ev.Get(tax), ev.Get(gpus)*ev.Get(hours)*u)
	}, nil
}

// termCost is owning's cost per used GPU-hour over the term in today's
// money, spread evenly over the annuity's months: the price per used hour
// a flat rent would need for owning's NPV to be zero. It is read off the
// NPV against a rent of 1 a used GPU-hour (npv1, with its rent_path_factor
// rpf), which is (1 − tax) × the used hours a month × rpf less what owning
// costs over the term, after tax: that cost, before tax, over the used
// hours of the annuity factor af. An offer's price p meets it where p ×
// rpf ÷ af does, which is where owning's NPV against it is zero. Before
// tax and without a change it is cost_per_used_hour.
func termCost(npv1, rpf, af, tax, usedHours float64) float64 {
	return (rpf - npv1/((1-tax)*usedHours)) / af
}

// crossings finds where the scenario's output, as the function at of the
// utilisation, meets each offer of its GPU. One evaluator serves every
// offer: the output does not depend on the offer's price, and building
// one per offer (which evaluates every offer) made the curve cost the
// square of the offers.
func crossings(p *engine.Plan, sc domain.Scenario, res *engine.Result, output string, at func(u float64) float64) ([]Crossing, error) {
	m := p.Model()
	in, _ := m.Input(domain.Utilization)
	var out []Crossing
	for _, o := range res.Offers {
		if !o.Compared || !o.Offer.HasBreakeven() {
			continue // a term's price meets no curve: it bills every hour, as owning does
		}
		price, ok := renting(m, *o.Offer, res)
		if !ok {
			continue
		}
		term := 1.0
		if onPath(res) {
			term = o.Values[domain.RentPathFactor] / res.Values[domain.AnnuityFactor]
		}
		g := domain.Goal{Name: "break-even", For: domain.Utilization, Target: output, Value: o.Offer.Price, Low: 0.01, High: 1, HasRange: true}
		gap := func(u float64) float64 { return at(u) - term*price(u) }
		sol := solveFor(p, in, g, gap)
		cr := Crossing{Scenario: sc.Name, Offer: o.Offer, Utilization: math.NaN(), Term: term}
		switch low, high := gap(g.Low), gap(g.High); {
		case sol.Found:
			cr.Utilization = sol.X
		case low > 0 && high > 0:
			cr.Why = wording.AboveAll
		case low < 0 && high < 0:
			cr.Why = BelowAll
		default:
			cr.Why = sol.Why
		}
		out = append(out, cr)
	}
	return out, nil
}

// renting is what a used hour of offer o costs in the scenario as a
// function of the utilisation, its effective price: its list price for an
// offer billed by its used hours alone, flat for spot without a fixed
// part, falling with utilisation where the offer has one. False when the
// scenario has no hours_per_month to spread a fixed part over.
func renting(m domain.Model, o domain.Offer, res *engine.Result) (func(u float64) float64, bool) {
	if o.IsDefault() {
		return func(float64) float64 { return o.Price }, true
	}
	t := m.Terms(o)
	h, ok := res.Values[domain.HoursPerMonth]
	if !ok && !FlatPrice(t) {
		return nil, false
	}
	return func(u float64) float64 { return t.Effective(u, h) }, true
}

// FlatPrice reports whether an offer's effective price is the same at
// every utilisation: it has no fixed part, so its dashed line on the
// Breakeven sheet is its price per used hour.
func FlatPrice(t domain.PriceTerms) bool { return t.PerCalendarHour == 0 && t.PerMonth == 0 }

// checkTargets refuses tornado targets that are not formulas.
func checkTargets(p *engine.Plan) diag.Diagnostics {
	var problems diag.Diagnostics
	for _, t := range p.Model().Targets {
		if _, ok := p.Formula(t.Name); !ok {
			problems = append(problems, &diag.Diagnostic{Origin: t.Origin, Name: t.Name,
				Msg: t.Name + " is not a formula" + p.DidYouMeanFormula(t.Name)})
		}
	}
	return problems
}
