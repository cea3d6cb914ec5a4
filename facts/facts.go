package facts

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/sizing"
	"planner/units"
)

// Kinds of Fact, in the order show prints them.
const (
	KindAssumption  = "assumption"
	KindFormula     = "formula"
	KindOffer       = "offer"
	KindAPI         = "api"
	KindFX          = "fx"
	KindScenario    = "scenario"
	KindGPU         = "gpu"
	KindModel       = "model"
	KindDeployment  = "deployment"
	KindBenchmark   = "benchmark"
	KindCorrelation = "correlation"
	KindTarget      = "target"
	KindTable       = "table"
	KindGoal        = "goal"
	KindSource      = "source" // where a figure comes from: read by people, never by formulas
)

var kindOrder = []string{KindProblem, KindAssumption, KindFormula, KindOffer, KindAPI, KindFX, KindScenario, KindGPU, KindModel, KindDeployment,
	KindBenchmark, KindCorrelation, KindTarget, KindTable, KindGoal, KindSource}

// Fact is one thing a workbook says, for show and diff: its kind, what it
// is about (unique within the kind), and what it says.
type Fact struct {
	Kind  string
	Key   string
	Value string
}

// String is the fact on one line: "assumption capex = 285000 $ [250000..320000]",
// a problem as its place and message: "problem Assumptions!B11: electricity_price: ...".
func (f Fact) String() string {
	if f.Kind == KindProblem {
		return f.Kind + " " + f.Key + ": " + f.Value
	}
	return f.Kind + " " + f.Key + " = " + f.Value
}

// Of describes the model one fact per line, sorted by kind and key, so
// that moving a row in a sheet changes nothing and every edit of a value
// changes exactly one fact.
func Of(m domain.Model) []Fact { return of(m, false) }

// of describes the model; canonical keeps every catalog field, blank ones
// as zeros, in fixed words, so that an unedited workbook keeps its
// fingerprint when show's wording changes between versions.
func of(m domain.Model, canonical bool) []Fact {
	var out []Fact
	add := func(kind, key, value string) {
		out = append(out, Fact{Kind: kind, Key: key, Value: value})
	}
	note := func(what, text string) {
		if text = strings.TrimSpace(text); text != "" {
			add(KindSource, what, oneLine(text))
		}
	}
	for _, in := range m.Inputs {
		if in.Defaulted {
			continue // no row of the workbook's: nothing anyone wrote or changed
		}
		add(KindAssumption, in.Name, inputFact(in, m.Currency))
		note(KindAssumption+" "+in.Name, in.Notes)
	}
	for _, f := range m.Formulas {
		add(KindFormula, f.Name, fmt.Sprintf("%s [%s]", oneLine(f.Source), m.Currency.Unit(f.Unit)))
	}
	for _, o := range m.Offers {
		add(KindOffer, quote(o.Label()), fmt.Sprintf("%s, gpu %s, as of %s", offerPrice(o, m.Currency), quote(o.GPU), orNone(o.AsOf))+billingFact(o.Billing))
		note(KindOffer+" "+quote(o.Label()), joinNotes(o.Source, o.Notes))
	}
	for _, a := range m.APIs {
		add(KindAPI, quote(a.Label()), apiFact(a, m.Currency))
		note(KindAPI+" "+quote(a.Label()), a.Source)
	}
	for _, r := range m.FX {
		add(KindFX, r.Currency, fmt.Sprintf("%s %s per %s, as of %s", num(r.Rate), m.Currency.Code(), r.Currency, orNone(r.AsOf)))
		note(KindFX+" "+r.Currency, r.Source)
	}
	scenarioFacts(m, add)
	catalogFacts(m, add, note, canonical)
	whatIfFacts(m, add)
	slices.SortStableFunc(out, func(a, b Fact) int {
		if c := cmp.Compare(KindRank(a.Kind), KindRank(b.Kind)); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
	return out
}

func inputFact(in domain.Input, cur units.Currency) string {
	s := in.Value.String()
	switch {
	case (in.Unit == units.Share || in.Unit == units.Change) && !in.Value.IsText:
		s += " (" + units.Format(in.Value.Num, in.Unit) + ")" // 0.4 is 40 %, not 0.4 %
	case in.Unit != "":
		s += " " + cur.Unit(in.Unit)
	}
	if in.HasRange {
		s += fmt.Sprintf(" [%s..%s]", num(in.Low), num(in.High))
	}
	switch {
	case in.Outside(in.Value.Num):
		s += " held: the value lies outside its range"
	case in.OutsideDistribution(in.Value.Num):
		s += " " + in.Dist.String() + " held: the value lies outside it"
	case in.Dist != nil:
		s += " " + in.Dist.String()
	}
	return s
}

// scenarioFacts gives one fact per input a scenario sets.
func scenarioFacts(m domain.Model, add func(kind, key, value string)) {
	for _, sc := range m.Scenarios {
		names := make([]string, 0, len(sc.Set))
		for name := range sc.Set {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			// A value taken from another cell is that cell: its own fact
			// changes when it does, and only it.
			v := sc.Set[name].String()
			if link, ok := sc.Links[name]; ok {
				v = link
			}
			add(KindScenario, quote(sc.Name)+" "+name, v)
		}
		if len(names) == 0 {
			add(KindScenario, quote(sc.Name), "(sets nothing)")
		}
	}
}

func catalogFacts(m domain.Model, add func(kind, key, value string), note func(what, text string), canonical bool) {
	for _, g := range m.GPUs {
		add(KindGPU, quote(g.Name), gpuFact(g, canonical))
		note(KindGPU+" "+quote(g.Name), joinNotes(g.Source, g.AsOf))
	}
	for _, s := range m.Catalog {
		add(KindModel, quote(s.Name), modelFact(s, canonical))
		note(KindModel+" "+quote(s.Name), s.Source)
	}
	for _, d := range m.Deployments {
		add(KindDeployment, quote(d.Name), deploymentFact(d, canonical))
	}
	for _, b := range m.Benchmarks {
		add(KindBenchmark, benchmarkKey(b), benchmarkFact(b))
		note(KindBenchmark+" "+benchmarkKey(b), joinNotes(b.Source, b.Date))
	}
	for _, c := range m.Correlations {
		add(KindCorrelation, c.A+" ~ "+c.B, num(c.Rho))
	}
}

// gpuFact is a GPUs row: "80 GB, 700 W, SXM (NVLink)"; an interconnect
// left blank is left out.
func gpuFact(g sizing.GPUSpec, canonical bool) string {
	watts := "no board watts given"
	if g.Watts > 0 {
		watts = num(g.Watts) + " W"
	}
	if g.IdleWatts > 0 {
		watts += " (" + num(g.IdleWatts) + " W idle)"
	}
	parts := []string{num(g.MemoryGB) + " GB", watts}
	if g.BandwidthTBs > 0 {
		parts[0] += " at " + num(g.BandwidthTBs) + " TB/s"
	}
	if canonical || g.Interconnect != "" {
		parts = append(parts, orNone(g.Interconnect))
	}
	return strings.Join(parts, ", ")
}

// modelFact is a Models row: "671B params (37B active), FP8"; active
// parameters, bytes per parameter and a precision left blank are left out,
// not shown as zeros.
func modelFact(s sizing.ModelSpec, canonical bool) string {
	v := num(s.TotalParamsB) + "B params"
	if canonical || s.ActiveParamsB > 0 {
		v += " (" + num(s.ActiveParamsB) + "B active)"
	}
	if canonical || s.Precision != "" {
		v += ", " + orNone(s.Precision)
	}
	if canonical || s.BytesPerParam > 0 {
		v += ", " + num(s.BytesPerParam) + " bytes per param"
	}
	if a := s.Arch; a != nil {
		v += fmt.Sprintf("; %s layers, %s kv heads, head dim %s, context %s, %s sequences, kv %s bytes",
			num(a.Layers), num(a.KVHeads), num(a.HeadDim), num(a.Context), num(a.Sequences), num(a.KVBytes))
		v += attentionFact(*a)
	}
	return v
}

// attentionFact is a model's attention layout and the figures it reads, ""
// for the plain formula.
func attentionFact(a sizing.Architecture) string {
	switch a.Attention {
	case sizing.LatentMLA:
		return fmt.Sprintf("; %s attention, latent dim %s, rope dim %s", a.Attention, num(a.LatentDim), num(a.RopeDim))
	case sizing.SlidingWindow:
		windowed := "every layer"
		if a.WindowedLayers > 0 {
			windowed = num(a.WindowedLayers) + " layers"
		}
		return fmt.Sprintf("; %s attention, window %s on %s", a.Attention, num(a.Window), windowed)
	case "":
		return ""
	}
	return "; " + a.Attention + " attention"
}

// deploymentFact is a Deployments row; a precision (the model's own), an
// offer (the GPU's cheapest to rent) and a scenario (chosen by the GPU) left
// blank are left out.
func deploymentFact(d domain.Deployment, canonical bool) string {
	cards := "sized"
	if d.Cards > 0 {
		cards = strconv.Itoa(d.Cards)
	}
	if canonical {
		// The tokens only when given, so that a workbook without them
		// keeps its fingerprint across versions.
		return fmt.Sprintf("model %s, precision %s, gpu %s, cards per replica %s, replicas %d, %s h a month, offer %s, scenario %s",
			quote(d.Model), orNone(d.Precision), quote(d.GPU), cards, d.Replicas, num(d.HoursPerMonth), quote(d.Offer), quote(d.Scenario)) + tokensFact(d)
	}
	parts := []string{"model " + quote(d.Model)}
	if d.Precision != "" {
		parts = append(parts, "precision "+d.Precision)
	}
	parts = append(parts, "gpu "+quote(d.GPU), "cards per replica "+cards, fmt.Sprintf("replicas %d", d.Replicas),
		num(d.HoursPerMonth)+" h a month")
	if d.Offer != "" {
		parts = append(parts, "offer "+quote(d.Offer))
	}
	if d.Scenario != "" {
		parts = append(parts, "scenario "+quote(d.Scenario))
	}
	return strings.Join(parts, ", ") + tokensFact(d)
}

// tokensFact is a deployment's throughput, peak, mix and API, and its busy
// hours profile, those given.
func tokensFact(d domain.Deployment) string {
	var s string
	if d.TokensPerReplica > 0 {
		s += ", " + num(d.TokensPerReplica) + " tokens/s per replica"
	}
	if d.PeakTokens > 0 {
		s += ", peak " + num(d.PeakTokens) + " tokens/s"
	}
	if d.Mix != "" {
		s += ", mix " + d.Mix
	}
	if d.API != "" {
		s += ", api " + quote(d.API)
	}
	if d.Targets.Given() {
		s += ", latency targets " + d.Targets.Words()
	}
	if d.Profile != nil {
		var shares []string
		for _, v := range d.Profile {
			shares = append(shares, num(v))
		}
		s += ", busy hours profile " + strings.Join(shares, " ")
	}
	return s
}

// apiFact is an APIs row: "$0.6 input, $0.8 output per million tokens, as of 2026-10-10".
// offerPrice is an offer's price as the workbook lists it: in its
// currency (c), or in the currency the offer names.
func offerPrice(o domain.Offer, c units.Currency) string {
	if o.Currency != "" {
		return num(o.Listed) + " " + o.Currency + "/GPU-h"
	}
	return num(o.Price) + " " + c.Unit("$/GPU-h")
}

func apiFact(a domain.API, c units.Currency) string {
	in, cached, out, cur := a.Input, a.Cached, a.Output, c.Prefix()
	if a.Currency != "" {
		in, out, cached, cur = a.Listed[0], a.Listed[1], a.Listed[2], a.Currency+" "
	}
	s := cur + num(in) + " input"
	if cached > 0 {
		s += ", " + cur + num(cached) + " cached input"
	}
	return s + ", " + cur + num(out) + " output per million tokens, as of " + orNone(a.AsOf)
}

func whatIfFacts(m domain.Model, add func(kind, key, value string)) {
	for _, t := range m.Targets {
		add(KindTarget, t.Name, "tornado")
	}
	for _, t := range m.Tables {
		v := t.Output + " by " + axisFact(t.Row)
		if t.Col != nil {
			v += " × " + axisFact(*t.Col)
		}
		add(KindTable, quote(t.Name), v)
	}
	for _, g := range m.Goals {
		v := fmt.Sprintf("solve %s for %s = %s", g.For, g.Target, num(g.Value))
		if g.Offer != "" {
			v += " against " + quote(g.Offer)
		}
		var with []string
		for name, x := range g.With {
			with = append(with, name+"="+x.String())
		}
		sort.Strings(with)
		if len(with) > 0 {
			v += " with " + diag.List(with)
		}
		if g.HasRange {
			v += fmt.Sprintf(" between %s and %s", num(g.Low), num(g.High))
		}
		add(KindGoal, quote(g.Name), v)
	}
}

func axisFact(a domain.Axis) string {
	if a.Offers {
		return "offer"
	}
	return fmt.Sprintf("%s %s..%s in %d", a.Input, num(a.From), num(a.To), a.Steps)
}

// KindRank is the place of a kind of fact in show's order.
func KindRank(kind string) int {
	for i, k := range kindOrder {
		if k == kind {
			return i
		}
	}
	return len(kindOrder)
}

// quote writes a name that may hold spaces so that a line stays readable.
func quote(s string) string { return strconv.Quote(s) }

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func joinNotes(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "; ")
}

// oneLine folds line breaks, so that one fact stays one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Result is one computed value: a formula in a scenario, against an offer
// for a per-offer formula, or a deployment's cost. Err holds the reason
// when there is no number.
type Result struct {
	Scenario   string
	Offer      string // "" for a node-level formula
	Deployment string // the deployment a cost is of; Scenario and Offer are then ""
	Fleet      string // the fleet's GPU a figure is of (FleetAll: the whole fleet); the others are then ""
	Name       string
	Unit       string         // planner's unit: money spelled "$"
	Currency   units.Currency // the currency of a money unit
	Value      float64
	Err        string
}

// Key names the result for show and diff: `"base" cost_per_gpu_hour`,
// `"base" "RunPod H100 SXM, Community" breakeven_utilization` or
// `deployment "one H100, workdays" rent_per_month`.
func (r Result) Key() string {
	if r.Fleet != "" {
		return KindFleet + " " + quote(r.Fleet) + " " + r.Name
	}
	return where(r.Scenario, r.Offer, r.Deployment) + " " + r.Name
}

// where names a scenario (against an offer) or a deployment, for keys.
func where(scenario, offer, deployment string) string {
	if deployment != "" {
		return KindDeployment + " " + quote(deployment)
	}
	k := quote(scenario)
	if offer != "" {
		k += " " + quote(offer)
	}
	return k
}

// Text is the value as show prints it, to 12 significant digits and as a
// person reads it, or the reason it has none; never NaN or +Inf.
func (r Result) Text() string {
	if r.Err != "" {
		return r.Err
	}
	if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
		return units.NoNumber
	}
	v := strconv.FormatFloat(r.Value, 'g', 12, 64)
	if r.Unit == units.Share {
		return fmt.Sprintf("%s (%s)", v, units.Format(r.Value, r.Unit)) // 0.61 is 61 %, not 0.61 %
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s (%s)", v, r.Currency.Unit(r.Unit), r.Currency.Format(r.Value, r.Unit)))
}

// Results lists every result of every scenario, node-level formulas
// first, then each compared offer's, each group in formula order.
func Results(p *engine.Plan, results []*engine.Result) []Result {
	var out []Result
	defer func() {
		for i := range out {
			out[i].Currency = p.Currency()
		}
	}()
	for _, r := range results {
		for _, c := range p.Checked() {
			if !p.PerOffer(c.Name) {
				out = append(out, resultFact(r.Scenario, "", c.Name, c.Unit, r.Values, r.Errors))
			}
		}
		for _, o := range r.Offers {
			if !o.Compared {
				continue
			}
			for _, c := range p.Checked() {
				if p.PerOffer(c.Name) {
					out = append(out, resultFact(r.Scenario, o.Offer.Label(), c.Name, c.Unit, o.Values, o.Errors))
				}
			}
		}
	}
	return out
}

func resultFact(scenario, offer, name, unit string, values map[string]float64, errs map[string]*engine.EvalError) Result {
	f := Result{Scenario: scenario, Offer: offer, Name: name, Unit: unit}
	if v, ok := values[name]; ok {
		f.Value = v
	} else if e, ok := errs[name]; ok {
		f.Err = e.Short()
	} else {
		f.Err = "#N/A"
	}
	return f
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// billingFact is how an offer bills, when it bills other than by its used
// hours alone; "" for an offer as planner always read one.
func billingFact(b domain.Billing) string {
	if b.IsDefault() && b.TermMonths == 0 && b.Upfront == 0 && b.Interruption == 0 && b.Fallback == "" {
		return ""
	}
	return fmt.Sprintf(", billing %s, term %s months, upfront %s, interruption %s, fallback %s, extras %s a GPU-month",
		b.KindOrDefault(), num(b.TermMonths), num(b.Upfront), num(b.Interruption), orNone(b.Fallback), num(b.Extras))
}

// benchmarkKey names a Benchmarks row by what it measured: `"H100 SXM"
// "Llama 3.1 70B" FP8 ×2 concurrency 16`.
func benchmarkKey(b domain.Benchmark) string {
	load, at := domain.LoadConcurrency, b.Concurrency
	if at == 0 {
		load, at = domain.LoadRequestRate, b.RequestRate
	}
	return fmt.Sprintf("%s %s %s ×%d %s %s", quote(b.GPU), quote(b.Model), b.Precision, b.Cards, load, num(at))
}

// benchmarkFact is a Benchmarks row's figures: "1100 output tokens/s,
// ttft 105/-/210 ms, tpot 7.75/-/15.5 ms" (p50/p90/p99, - where none).
func benchmarkFact(b domain.Benchmark) string {
	s := num(b.OutputTokens) + " output tokens/s"
	if b.TotalTokens > 0 {
		s += ", " + num(b.TotalTokens) + " total"
	}
	if b.Concurrency > 0 && b.RequestRate > 0 {
		s += ", " + num(b.RequestRate) + " requests/s"
	}
	for _, l := range []struct {
		name string
		v    domain.Latencies
	}{{"ttft", b.TTFT}, {"tpot", b.TPOT}, {"itl", b.ITL}} {
		if l.v == (domain.Latencies{}) {
			continue
		}
		var at []string
		for _, v := range l.v {
			if v > 0 {
				at = append(at, num(v))
			} else {
				at = append(at, "-")
			}
		}
		s += ", " + l.name + " " + strings.Join(at, "/") + " ms"
	}
	return s
}
