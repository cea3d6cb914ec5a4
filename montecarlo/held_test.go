package montecarlo_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/montecarlo"
	"planner/units"
	"planner/whatif"
	"planner/wording"
)

// quoteModel is the ranged spec model after the user typed their own quote:
// capex 412,000 against the price guide's range 250,000..320,000, every
// ranged input triangular, electricity correlated with the price.
func quoteModel(t *testing.T) domain.Model {
	t.Helper()
	m := enginetest.RangedSpecModel()
	m.Where = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions"}
	for i := range m.Inputs {
		in := &m.Inputs[i]
		in.Origin = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: i + 2, Col: 2}
		in.LowAt, in.HighAt = diag.Origin{Sheet: "Assumptions", Row: i + 2, Col: 4}, diag.Origin{Sheet: "Assumptions", Row: i + 2, Col: 5}
		if in.Name == "capex" {
			in.Value = domain.Num(412000)
		}
		if in.HasRange {
			d, err := montecarlo.ParseDistribution("", *in)
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			in.Dist = d
		}
	}
	m.Correlations = []domain.Correlation{{A: "capex", B: "electricity_price", Rho: 0.5,
		Origin: diag.Origin{File: "plan.xlsx", Sheet: "Correlations", Row: 2, Col: 3}}}
	return m
}

// A value typed outside its range evaluates; Monte Carlo and the tornado
// hold it, and one warning at the value cell says how to let it vary.
func TestValueOutsideItsRangeIsHeld(t *testing.T) {
	p, err := engine.Build(quoteModel(t), montecarlo.Check)
	if err != nil {
		t.Fatal(err)
	}
	base := domain.Scenario{Name: domain.Base}
	r, err := p.Eval(base)
	if err != nil {
		t.Fatal(err)
	}
	// The deterministic results use the quote: 412,000 / 8 / 26,280 h.
	if got, want := r.Values["capital_per_gpu_hour"], 412000.0/8/26280; !near(got, want) {
		t.Errorf("capital %v, want %v", got, want)
	}
	var sampled []string
	for _, in := range montecarlo.SampledInputs(p, base) {
		sampled = append(sampled, in.Name)
	}
	if got := strings.Join(sampled, " "); got != "residual electricity_price utilization" {
		t.Errorf("sampled %s", got)
	}
	mc, err := montecarlo.Run(context.Background(), p, base, montecarlo.Options{Samples: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(mc.Held) != 1 || mc.Held[0].Input.Name != "capex" || mc.Held[0].Value != 412000 || mc.Held[0].Set {
		t.Errorf("Monte Carlo held %+v", mc.Held)
	}
	for _, o := range mc.Outputs {
		if o.Name == "per_gpu_capex" && (o.Min != 51500 || o.Max != 51500) {
			t.Errorf("per_gpu_capex varied from %v to %v", o.Min, o.Max)
		}
	}
	tors := tornadoes(t, p, base)
	for _, b := range tors[0].Bars {
		if b.Input.Name == "capex" {
			t.Errorf("capex swung from %v to %v", b.AtLow, b.AtHigh)
		}
	}
	if len(tors[0].Held) != 1 || tors[0].Held[0].Why() != "capex held at 412000: outside its range 250000..320000" {
		t.Errorf("tornado held %+v", tors[0].Held)
	}
	want := "plan.xlsx: Assumptions!B2: capex: the value 412000 lies outside the range 250000..320000, so Monte Carlo and the tornado hold it at 412000; " +
		"to let it vary, widen low and high in Assumptions (D2, E2) to include 412000"
	if got := montecarlo.HeldWarnings(p, nil).Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	want = "plan.xlsx: Correlations!C2: the correlation of capex with electricity_price is skipped: capex is held at 412000, outside its range 250000..320000; " +
		"widen the range in Assumptions to include 412000 to correlate it"
	if got := p.Warnings().Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
}

// A --set outside the range is held by the tornado as by Monte Carlo; one
// inside it is still swung, as every value the range contains.
func TestSetOutsideItsRangeIsHeld(t *testing.T) {
	p, err := engine.Build(enginetest.RangedSpecModel(), montecarlo.Check)
	if err != nil {
		t.Fatal(err)
	}
	outside := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"capex": domain.Num(515000)}}
	tors := tornadoes(t, p, outside)
	for _, b := range tors[0].Bars {
		if b.Input.Name == "capex" {
			t.Errorf("capex=515000 swung over its range: %v..%v", b.AtLow, b.AtHigh)
		}
	}
	if len(tors[0].Held) != 1 || !tors[0].Held[0].Set {
		t.Errorf("held %+v", tors[0].Held)
	}
	if got, want := montecarlo.HeldWarnings(p, outside.Set).Error(), "--set capex=515000 lies outside capex's range 250000..320000, so Monte Carlo and the tornado hold capex at 515000; "+
		"to let it vary, widen low and high in Assumptions (the low and high columns) to include 515000"; got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	inside := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"capex": domain.Num(300000)}}
	swung := false
	for _, b := range tornadoes(t, p, inside)[0].Bars {
		swung = swung || b.Input.Name == "capex"
	}
	if !swung || len(montecarlo.HeldWarnings(p, inside.Set)) != 0 {
		t.Errorf("capex=300000 is inside its range and must be swung, without a warning")
	}
}

// tornadoes are the tornado's view of the same inputs: it holds what left
// its range, as Monte Carlo does.
func tornadoes(t *testing.T, p *engine.Plan, sc domain.Scenario) []whatif.Tornado {
	t.Helper()
	targets, err := whatif.Targets(p, sc, []string{"cost_per_gpu_hour"})
	if err != nil {
		t.Fatal(err)
	}
	tors, err := whatif.Tornadoes(p, sc, targets)
	if err != nil {
		t.Fatal(err)
	}
	return tors
}

// Every distribution message speaks of its own input, and the examples it
// gives parse as they stand, for that input.
func TestDistributionAdviceIsTheInputsOwn(t *testing.T) {
	rack := domain.Input{Name: "rack_per_month", Unit: "$/month", Value: domain.Num(1000)}
	share := domain.Input{Name: "residual", Unit: "%", Value: domain.Num(0)}
	count := domain.Input{Name: "gpus", Unit: "GPUs", Value: domain.Num(8)}
	ranged := domain.Input{Name: "rack_per_month", Unit: "$/month", Value: domain.Num(1000), Low: 750, High: 1500, HasRange: true}
	cases := []struct {
		in   domain.Input
		text string
		want string
	}{
		{rack, "triangular", "triangular needs a range: fill low and high (such as 900 and 1100), give its parameters, such as triangular(900, 1000, 1100), or write fixed to hold rack_per_month at 1000"},
		{share, "uniform", "uniform needs a range: fill low and high (such as 0 and 0.1), give its parameters, such as uniform(0, 0.1), or write fixed to hold residual at 0"},
		{count, "pert", "pert needs a range: fill low and high (such as 7 and 9), give its parameters, such as pert(7, 8, 9), or write fixed to hold gpus at 8"},
		{rack, "weibull", `"weibull" is not a distribution planner knows; write triangular(900, 1000, 1100); uniform(900, 1100); pert(900, 1000, 1100); normal(1000, 60.8); lognormal(6.91, 0.1); or fixed to hold rack_per_month at 1000`},
		{ranged, "weibull", `"weibull" is not a distribution planner knows; write triangular, uniform, pert, normal, lognormal or fixed to hold rack_per_month at 1000`},
		{ranged, "normal(1000)", `"normal(1000)": it takes 2 numbers, not 1; write it like normal(1000, 228)`},
		{ranged, "triangular(1500, 1000, 750)", "triangular(1500, 1000, 750): needs low < high with the most likely value between them; write it like triangular(750, 1000, 1500), or fixed to hold rack_per_month at 1000"},
	}
	for _, c := range cases {
		_, err := montecarlo.ParseDistribution(c.text, c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %q:\n got %v\nwant %s", c.in.Name, c.text, err, c.want)
			continue
		}
		// Each example the message gives, typed as it stands, is valid.
		for _, example := range examplesIn(err.Error()) {
			if example == c.text {
				continue // the message quotes what was typed
			}
			try := c.in
			if d, err := montecarlo.ParseDistribution(example, try); err != nil || d == nil {
				t.Errorf("%s: the advice %s gives %v", c.in.Name, example, err)
			}
		}
	}
	// The advice "fill low and high (such as 900 and 1100)" works too.
	rack.Low, rack.High, rack.HasRange = 900, 1100, true
	if d, err := montecarlo.ParseDistribution("triangular", rack); err != nil || d.String() != "triangular(900, 1000, 1100)" {
		t.Errorf("with the advised range: %v, %v", d, err)
	}
}

// examplesIn finds the name(numbers) examples in a message.
func examplesIn(msg string) []string {
	var out []string
	for _, kind := range []string{"triangular(", "uniform(", "pert(", "normal(", "lognormal("} {
		for rest := msg; ; {
			i := strings.Index(rest, kind)
			if i < 0 {
				break
			}
			if i > 0 && rest[i-1] == 'g' { // lognormal( also contains normal(
				rest = rest[i+len(kind):]
				continue
			}
			j := strings.Index(rest[i:], ")")
			out = append(out, rest[i:i+j+1])
			rest = rest[i+j+1:]
		}
	}
	return out
}

// An input held because its value left the range has no distribution
// (show says it is held).
func TestHeldInputHasNoDistribution(t *testing.T) {
	in := domain.Input{Name: "capex", Unit: "$", Value: domain.Num(412000), Low: 250000, High: 320000, HasRange: true}
	if d, err := montecarlo.ParseDistribution("", in); d != nil || err != nil {
		t.Errorf("distribution %v, %v; want none, held", d, err)
	}
}

// A verdict the Monte Carlo run sees going the other way in more than one
// sample of twenty is a close call, with the month's money at stake; one
// the samples agree with is not, unless its break-even is within five
// points of the utilisation.
func TestCloseCalls(t *testing.T) {
	p, err := engine.Build(quoteModel(t), montecarlo.Check)
	if err != nil {
		t.Fatal(err)
	}
	sc := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"capex": domain.Num(285000)}}
	r, _ := p.Eval(sc)
	mc, err := montecarlo.Run(context.Background(), p, sc, montecarlo.Options{Samples: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	wins := map[string]float64{}
	for _, oc := range mc.OwnCheaper {
		wins[oc.Offer.Label()] = oc.Probability
	}
	calls := closeCalls(t, r, mc)
	community, aws := enginetest.Offer(t, r, "RunPod", "H100 SXM, Community"), enginetest.Offer(t, r, "AWS", "p5.48xlarge Capacity Block")
	c := calls[community.Offer.Label()]
	// Renting wins at base; owning wins in this share of the samples.
	if !c.Close || c.OwnWins != wins[community.Offer.Label()] || !(c.OwnWins > 0.05) {
		t.Fatalf("Community: %+v", c)
	}
	// What owning saves a month: the used hours rented, less the node.
	cost := 285000.0/8/26280 + 700*8*1.3/1000*0.12/8 + 1000.0/8/730
	saving := 2.69*8*730*0.5 - cost*8*730
	if !near(c.AtStake, saving) || c.Why != "close call: flips in "+percent(c.OwnWins)+" of Monte Carlo samples; "+dollars(-saving)+" a month at stake" {
		t.Errorf("Community: %v at stake (want %v): %s", c.AtStake, saving, c.Why)
	}
	if c := calls[aws.Offer.Label()]; c.Close || wins[aws.Offer.Label()] < 0.95 {
		t.Errorf("AWS, owning wins in %v of samples: %+v", wins[aws.Offer.Label()], c)
	}
	// Without a run, no offer has a share of samples.
	for label, c := range closeCalls(t, r, nil) {
		if !math.IsNaN(c.OwnWins) {
			t.Errorf("%s without a run: owning wins in %v", label, c.OwnWins)
		}
	}
	// Without a run, a break-even within five points is still a close call.
	tight := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"capex": domain.Num(285000), "utilization": domain.Num(0.64)}}
	r, _ = p.Eval(tight)
	calls = closeCalls(t, r, nil)
	if c := calls[community.Offer.Label()]; !c.Close || !strings.HasPrefix(c.Why, "close call: break-even within 5 points of utilisation; $") {
		t.Errorf("within five points: %+v", c)
	}
	if c := calls[aws.Offer.Label()]; c.Close {
		t.Errorf("AWS without a run: %+v", c)
	}
}

// closeCalls is CloseCalls of r's offers by label, checking there is one
// for each offer.
func closeCalls(t *testing.T, r *engine.Result, mc *montecarlo.Result) map[string]montecarlo.CloseCall {
	t.Helper()
	calls := montecarlo.CloseCalls(r, mc, units.USD)
	if len(calls) != len(r.Offers) {
		t.Fatalf("%d close calls of %d offers", len(calls), len(r.Offers))
	}
	out := map[string]montecarlo.CloseCall{}
	for i, o := range r.Offers {
		out[o.Offer.Label()] = calls[i]
	}
	return out
}

// A value inside its range but outside the distribution given with its
// own parameters is held by Monte Carlo, with a warning at the
// distribution cell; the tornado swings it over the range, which holds it.
func TestValueOutsideItsDistributionIsHeld(t *testing.T) {
	m := quoteModel(t)
	for i := range m.Inputs {
		if in := &m.Inputs[i]; in.Name == "capex" {
			in.High = 450000
			in.DistText, in.DistAt = "triangular(250000, 285000, 320000)", diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: i + 2, Col: 6}
			in.Dist = &domain.Distribution{Kind: "triangular", Params: []float64{250000, 285000, 320000}, Text: in.DistText}
		}
	}
	m.Correlations = nil
	p, err := engine.Build(m, montecarlo.Check)
	if err != nil {
		t.Fatal(err)
	}
	base := domain.Scenario{Name: domain.Base}
	for _, in := range montecarlo.SampledInputs(p, base) {
		if in.Name == "capex" {
			t.Error("capex is drawn from a distribution that does not hold its value")
		}
	}
	want := "plan.xlsx: Assumptions!F2: capex: the value 412000 lies outside triangular(250000, 285000, 320000), so Monte Carlo holds it at 412000; " +
		"to let it vary, write a distribution around it, such as triangular(250000, 412000, 450000), or clear the cell to draw it over low, value and high (250000, 412000, 450000)"
	if got := montecarlo.HeldWarnings(p, nil).Error(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
	swung := false
	for _, b := range tornadoes(t, p, base)[0].Bars {
		swung = swung || b.Input.Name == "capex"
	}
	if !swung {
		t.Error("the tornado holds capex, though its range holds its value")
	}
	// Followed literally, the advice lets it vary.
	for i := range m.Inputs {
		if in := &m.Inputs[i]; in.Name == "capex" {
			in.Dist, _ = montecarlo.ParseDistribution("triangular(250000, 412000, 450000)", *in)
		}
	}
	p, _ = engine.Build(m, montecarlo.Check)
	if len(montecarlo.HeldWarnings(p, nil)) != 0 || len(montecarlo.SampledInputs(p, base)) != 4 {
		t.Errorf("after the advice: %v, sampled %d", montecarlo.HeldWarnings(p, nil), len(montecarlo.SampledInputs(p, base)))
	}
}

// Messages write numbers as people type them.
func TestMessagesWritePlainNumbers(t *testing.T) {
	m := quoteModel(t)
	for i := range m.Inputs {
		if m.Inputs[i].Name == "capex" {
			m.Inputs[i].Value = domain.Num(1e6)
		}
	}
	p, _ := engine.Build(m, montecarlo.Check)
	if got := montecarlo.HeldWarnings(p, nil).Error(); !strings.Contains(got, "the value 1000000 lies outside the range 250000..320000") || strings.Contains(got, "e+") {
		t.Errorf("got %s", got)
	}
	if got := (&domain.Distribution{Kind: "uniform", Params: []float64{900000, 1100000}}).String(); got != "uniform(900000, 1100000)" {
		t.Errorf("got %s", got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// percent and dollars write a share and money as a verdict's words do.
func percent(x float64) string { return wording.Word{Value: x, Format: wording.AsPercent}.String() }

func dollars(v float64) string { return wording.Word{Value: v, Format: wording.AsDollars}.String() }

// A verdict most samples go against is no close call: the words say which
// way Monte Carlo leans. At a capex of $251,000, near the low end of its
// $250,000–$320,000 range, owning beats Community's $2.69 at 56 % busy
// (break-even 54.8 %), while the samples' capex averages $273,667 and
// owning loses in most of them (the residual held at none).
func TestCloseCallLeans(t *testing.T) {
	m := enginetest.RangedSpecModel()
	for i := range m.Inputs {
		in := &m.Inputs[i]
		if in.Name == "capex" {
			in.Value = domain.Num(251000)
		}
		if in.HasRange {
			d, err := montecarlo.ParseDistribution("", *in)
			if err != nil {
				t.Fatalf("%s: %v", in.Name, err)
			}
			in.Dist = d
		}
	}
	p, err := engine.Build(m, montecarlo.Check)
	if err != nil {
		t.Fatal(err)
	}
	sc := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"utilization": domain.Num(0.56), "residual": domain.Num(0)}}
	r, _ := p.Eval(sc)
	mc, err := montecarlo.Run(context.Background(), p, sc, montecarlo.Options{Samples: 4000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	community := enginetest.Offer(t, r, "RunPod", "H100 SXM, Community")
	c := closeCalls(t, r, mc)[community.Offer.Label()]
	cost := 251000.0/8/26280 + 700*8*1.3/1000*0.12/8 + 1000.0/8/730
	saving := 2.69*8*730*0.56 - cost*8*730
	if community.Verdict != wording.Buy || !(saving > 0) || !(c.OwnWins < 0.5) {
		t.Fatalf("Community: %s at base, owning saves %v, wins in %v of samples", community.Verdict, saving, c.OwnWins)
	}
	want := "Monte Carlo favours rent in " + percent(1-c.OwnWins) + " of samples; " + dollars(saving) + " a month at stake"
	if !c.Close || c.Favours != wording.Rent || c.Why != want {
		t.Errorf("Community: %+v\nwant %q", c, want)
	}
	// The reverse: a rent verdict that owning wins in most samples.
	r.Offers[0].Verdict = wording.Rent
	for i := range mc.OwnCheaper {
		mc.OwnCheaper[i].Probability = 1 - mc.OwnCheaper[i].Probability
	}
	c = montecarlo.CloseCalls(r, mc, units.USD)[0]
	if c.Favours != wording.Buy || !strings.HasPrefix(c.Why, "Monte Carlo favours buy in ") {
		t.Errorf("reversed: %+v", c)
	}
}
