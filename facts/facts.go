package facts

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"planner/diag"
	"planner/engine"
	"planner/units"
)

// Kinds of Fact, in the order show prints them.
const (
	KindAssumption  = "assumption"
	KindFormula     = "formula"
	KindOffer       = "offer"
	KindScenario    = "scenario"
	KindGPU         = "gpu"
	KindModel       = "model"
	KindDeployment  = "deployment"
	KindCorrelation = "correlation"
	KindTarget      = "target"
	KindTable       = "table"
	KindGoal        = "goal"
	KindSource      = "source" // where a figure comes from: read by people, never by formulas
)

var kindOrder = []string{KindAssumption, KindFormula, KindOffer, KindScenario, KindGPU, KindModel, KindDeployment,
	KindCorrelation, KindTarget, KindTable, KindGoal, KindSource}

// Fact is one thing a workbook says, for show and diff: its kind, what it
// is about (unique within the kind), and what it says.
type Fact struct {
	Kind  string
	Key   string
	Value string
}

// String is the fact on one line: "assumption capex = 285000 $ [250000..320000]".
func (f Fact) String() string { return f.Kind + " " + f.Key + " = " + f.Value }

// Of describes the model one fact per line, sorted by kind and key, so
// that moving a row in a sheet changes nothing and every edit of a value
// changes exactly one fact.
func Of(m engine.Model) []Fact {
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
		add(KindAssumption, in.Name, inputFact(in))
		note(KindAssumption+" "+in.Name, in.Notes)
	}
	for _, f := range m.Formulas {
		add(KindFormula, f.Name, fmt.Sprintf("%s [%s]", oneLine(f.Source), f.Unit))
	}
	for _, o := range m.Offers {
		add(KindOffer, quote(o.Label()), fmt.Sprintf("%s $/GPU-h, gpu %s, as of %s", num(o.Price), quote(o.GPU), orNone(o.AsOf)))
		note(KindOffer+" "+quote(o.Label()), joinNotes(o.Source, o.Notes))
	}
	scenarioFacts(m, add)
	catalogFacts(m, add, note)
	whatIfFacts(m, add)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := KindRank(out[i].Kind), KindRank(out[j].Kind)
		if a != b {
			return a < b
		}
		return out[i].Key < out[j].Key
	})
	return out
}

func inputFact(in engine.Input) string {
	s := in.Value.String()
	switch {
	case in.Unit == units.Share && !in.Value.IsText:
		s += " (" + units.Format(in.Value.Num, units.Share) + ")" // 0.4 is 40 %, not 0.4 %
	case in.Unit != "":
		s += " " + in.Unit
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
func scenarioFacts(m engine.Model, add func(kind, key, value string)) {
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

func catalogFacts(m engine.Model, add func(kind, key, value string), note func(what, text string)) {
	for _, g := range m.GPUs {
		watts := "no board watts given"
		if g.Watts > 0 {
			watts = num(g.Watts) + " W"
		}
		add(KindGPU, quote(g.Name), fmt.Sprintf("%s GB, %s, %s", num(g.MemoryGB), watts, orNone(g.Interconnect)))
		note(KindGPU+" "+quote(g.Name), g.Source)
	}
	for _, s := range m.Catalog {
		v := fmt.Sprintf("%sB params (%sB active), %s, %s bytes per param", num(s.TotalParamsB), num(s.ActiveParamsB),
			orNone(s.Precision), num(s.BytesPerParam))
		if a := s.Arch; a != nil {
			v += fmt.Sprintf("; %s layers, %s kv heads, head dim %s, context %s, %s sequences, kv %s bytes",
				num(a.Layers), num(a.KVHeads), num(a.HeadDim), num(a.Context), num(a.Sequences), num(a.KVBytes))
		}
		add(KindModel, quote(s.Name), v)
		note(KindModel+" "+quote(s.Name), s.Source)
	}
	for _, d := range m.Deployments {
		cards := "sized"
		if d.Cards > 0 {
			cards = strconv.Itoa(d.Cards)
		}
		add(KindDeployment, quote(d.Name), fmt.Sprintf("model %s, precision %s, gpu %s, cards per replica %s, replicas %d, %s h a month, offer %s, scenario %s",
			quote(d.Model), orNone(d.Precision), quote(d.GPU), cards, d.Replicas, num(d.HoursPerMonth), quote(d.Offer), quote(d.Scenario)))
	}
	for _, c := range m.Correlations {
		add(KindCorrelation, c.A+" ~ "+c.B, num(c.Rho))
	}
}

func whatIfFacts(m engine.Model, add func(kind, key, value string)) {
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

func axisFact(a engine.Axis) string {
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
// for a per-offer formula. Err holds the reason when there is no number.
type Result struct {
	Scenario string
	Offer    string // "" for a node-level formula
	Name     string
	Unit     string
	Value    float64
	Err      string
}

// Key names the result for show and diff: `base cost_per_gpu_hour` or
// `base "RunPod H100 SXM, Community" breakeven_utilization`.
func (r Result) Key() string {
	k := quote(r.Scenario)
	if r.Offer != "" {
		k += " " + quote(r.Offer)
	}
	return k + " " + r.Name
}

// Text is the value as show prints it, to 12 significant digits and as a
// person reads it, or the reason it has none.
func (r Result) Text() string {
	if r.Err != "" {
		return r.Err
	}
	v := strconv.FormatFloat(r.Value, 'g', 12, 64)
	if r.Unit == units.Share {
		return fmt.Sprintf("%s (%s)", v, units.Format(r.Value, r.Unit)) // 0.61 is 61 %, not 0.61 %
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s (%s)", v, r.Unit, units.Format(r.Value, r.Unit)))
}

// Results lists every result of every scenario, node-level formulas
// first, then each compared offer's, each group in formula order.
func Results(p *engine.Plan, results []*engine.Result) []Result {
	var out []Result
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
