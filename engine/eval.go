package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/formulas"
	"planner/sizing"
	"planner/wording"
)

// Result is everything one scenario evaluates to.
type Result struct {
	Scenario string
	Values   map[string]float64    // numeric inputs and node-level formulas that succeeded
	Text     map[string]string     // text inputs
	Errors   map[string]*EvalError // node-level formulas that failed or were skipped
	Offers   []OfferResult         // every offer of the model, in model order
	Sizing   *sizing.Result        // the scenario's model on its GPU, when the model sizes
	// CatalogWatts is the GPUs row gpu_watts came from, when it came from
	// the catalog; nil when the scenario or the Assumptions set it.
	CatalogWatts *sizing.GPUSpec
	// CatalogIdleWatts is the GPUs row gpu_idle_watts came from, when it
	// came from the catalog (setIdleWatts); nil otherwise.
	CatalogIdleWatts *sizing.GPUSpec
	// NoOffer says why nothing is compared, where the verdicts would be:
	// no Cloud offer is for the scenario's GPU. "" when one is.
	NoOffer string
}

// OfferResult is one cloud offer seen from one scenario.
type OfferResult struct {
	Offer    *domain.Offer         // the model's own: a scenario of thousands of offers copies none
	Compared bool                  // the offer is for the node's GPU
	Values   map[string]float64    // per-offer formulas that succeeded
	Errors   map[string]*EvalError // per-offer formulas that failed or were skipped
	Verdict  string                // "buy", "rent", or "" when not compared or not computable
	Words    string                // the verdict in a sentence a memo can quote
	Phrase   wording.Phrase        // the same, word by word
}

// EvalError is a formula that gave no finite number in one scenario (and for
// one offer), or that was skipped because a formula it needs failed.
type EvalError struct {
	Formula  formulas.Formula
	Scenario string
	Offer    string // the offer's label, for per-offer formulas
	Column   int
	Msg      string
	Snippet  string
	Skipped  bool
}

func (e *EvalError) Error() string {
	ctx := "scenario " + e.Scenario
	if e.Offer != "" {
		ctx += ", offer " + e.Offer
	}
	fe := diag.Diagnostic{Origin: e.Formula.Origin, Name: e.Formula.Name, Column: e.Column,
		Msg: e.Msg + " (" + ctx + ")", Snippet: e.Snippet}
	return fe.Error()
}

// Place puts the error at its formula, for sorting.
func (e *EvalError) Place() diag.Origin { return e.Formula.Origin }

// Short is the error as a cell or a JSON value shows it: "#DIV/0!: ..." style.
func (e *EvalError) Short() string {
	if e.Skipped {
		return "#N/A: " + e.Msg
	}
	if strings.HasPrefix(e.Msg, "division by zero") {
		return "#DIV/0!: " + e.Msg
	}
	return "#NUM!: " + e.Msg
}

// SizingRule is the rule sizing follows in the scenario: its KV headroom
// and node size; the zero rule without a result.
func (r *Result) SizingRule() sizing.Rule {
	if r == nil {
		return sizing.Rule{}
	}
	return sizing.Rule{KVHeadroom: r.Values[domain.KVHeadroom], NodeGPUs: int(r.Values[domain.GPUs])}
}

// state is one scenario's evaluation: its slots, and the names sizing could
// not give a value, with the reason.
type state struct {
	slots    []float64
	scenario string
	missing  map[string]string
}

// Eval evaluates every formula for one scenario. An error means the scenario
// itself is wrong (an unknown input, text where a number belongs, a GPU or
// model planner does not know); formulas that fail are reported in
// Result.Errors and their dependents skipped.
func (p *Plan) Eval(sc domain.Scenario) (*Result, error) {
	_, res, err := p.evalState(sc, true)
	return res, err
}

// evalState is Eval, also returning the slots (node-level values in place).
// Without offers it leaves the offers, their verdicts and words out: an
// evaluator reads the node-level slots and runs each offer it is asked
// for itself, and evaluating every offer for each one made what-ifs cost
// the square of the offers.
func (p *Plan) evalState(sc domain.Scenario, offers bool) (*state, *Result, error) {
	st := &state{slots: make([]float64, p.prog.slots), scenario: sc.Name, missing: map[string]string{}}
	copy(st.slots, p.prog.init)
	res := &Result{Scenario: sc.Name, Values: map[string]float64{}, Text: map[string]string{}, Errors: map[string]*EvalError{}}
	if err := p.setInputs(sc, st.slots, res); err != nil {
		return nil, nil, err
	}
	if err := p.setWatts(sc, st.slots, res); err != nil {
		return nil, nil, err
	}
	if err := p.sizeScenario(st, res); err != nil {
		return nil, nil, err
	}
	run(p.prog.node, st.slots)
	failed := map[int]string{}
	p.collect(st, false, "", failed, res.Values, res.Errors)
	if !offers {
		return st, res, nil
	}
	res.NoOffer = noOffer(res.Text[domain.GPU])
	if len(p.model.Offers) > 0 {
		res.Offers = make([]OfferResult, 0, len(p.model.Offers))
	}
	for k := range p.model.Offers {
		or := p.evalOffer(&p.model.Offers[k], st, failed, res)
		if or.Compared {
			res.NoOffer = ""
		}
		res.Offers = append(res.Offers, or)
	}
	if _, hasGPU := res.Text[domain.GPU]; !hasGPU {
		res.NoOffer = ""
	}
	return st, res, nil
}

// Scenarios lists the base scenario (the Assumptions with the overrides)
// and every named scenario on top of it, each with everything it sets. A
// scenario's own value wins over an override, but for one it takes by
// reference from the overridden input's own Assumptions cell (H100 mid's
// capex follows --set capex, as it follows the cell); and an overridden
// gpu_watts holds only for the scenarios on the base's GPU, since it is
// the watts of that GPU (OverrideWarnings says which keep their own).
func (p *Plan) Scenarios(overrides map[string]domain.Value) []domain.Scenario {
	all := append([]domain.Scenario{{Name: domain.Base}}, p.model.Scenarios...)
	out := make([]domain.Scenario, len(all))
	baseGPU := p.gpuOf(domain.Scenario{}, overrides)
	for i, sc := range all {
		set := map[string]domain.Value{}
		for k, v := range overrides {
			if k == domain.GPUWatts && !domain.SameGPU(p.gpuOf(sc, overrides), baseGPU) {
				continue
			}
			set[k] = v
		}
		for k, v := range sc.Set {
			if _, over := overrides[k]; over && p.followsOwnCell(sc, k) {
				continue
			}
			set[k] = v
		}
		out[i] = domain.Scenario{Name: sc.Name, Set: set, Notes: sc.Notes, Origin: sc.Origin, Where: sc.Where, Links: sc.Links}
	}
	return out
}

// gpuOf is the GPU a scenario runs on with the overrides: its own, else
// the overridden or Assumptions' one.
func (p *Plan) gpuOf(sc domain.Scenario, overrides map[string]domain.Value) string {
	if v, ok := sc.Set[domain.GPU]; ok {
		return v.Text
	}
	if v, ok := overrides[domain.GPU]; ok {
		return v.Text
	}
	in, _ := p.model.Input(domain.GPU)
	return in.Value.Text
}

// followsOwnCell reports whether scenario sc takes input name by reference
// from the input's own Assumptions cell, and so takes an override of it
// too.
func (p *Plan) followsOwnCell(sc domain.Scenario, name string) bool {
	link, ok := sc.Links[name]
	in, found := p.model.Input(name)
	return ok && found && in.Origin.Sheet != "" && strings.EqualFold(link, in.Origin.Where())
}

// FollowsOverride reports whether the named scenario's value of input
// comes from an override of it on the command line, by reference to the
// input's own cell.
func (p *Plan) FollowsOverride(scenario, input string, overrides map[string]domain.Value) bool {
	if _, over := overrides[input]; !over {
		return false // without looking the scenario up among thousands
	}
	sc, ok := p.model.Scenario(scenario)
	return ok && p.followsOwnCell(sc, input)
}

// EvalAll evaluates every scenario of Scenarios(overrides), base first.
// A scenario on a GPU whose watts the catalog lacks is reported at the
// cell (or --set) that names the GPU, every one at once.
func (p *Plan) EvalAll(overrides map[string]domain.Value) ([]*Result, error) {
	if err := p.checkWatts(overrides).Err(); err != nil {
		return nil, err
	}
	var out []*Result
	for _, sc := range p.Scenarios(overrides) {
		r, err := p.Eval(sc)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// setInputs fills the input slots with the model's values and the scenario's.
func (p *Plan) setInputs(sc domain.Scenario, slots []float64, res *Result) error {
	for name, v := range sc.Set {
		if _, ok := p.model.Input(name); ok {
			continue
		}
		if name != domain.GPUWatts || !p.model.WattsFromCatalog() {
			return fmt.Errorf("scenario %s sets %s, which is not an input%s", sc.Name, name, p.DidYouMean(name))
		}
		if v.IsText {
			return fmt.Errorf("scenario %s sets %s to %s, but %s is a number", sc.Name, name, describe(v), name)
		}
		slots[p.prog.inputSlot[domain.GPUWatts]] = v.Num
		res.Values[domain.GPUWatts] = v.Num
	}
	var unseen map[string]float64
	for _, in := range p.model.Inputs {
		v := in.Value
		if set, ok := sc.Set[in.Name]; ok {
			if set.IsText != v.IsText {
				return fmt.Errorf("scenario %s sets %s to %s, but %s is %s", sc.Name, in.Name, describe(set), in.Name, kindOf(v))
			}
			v = set
		}
		slot := p.prog.inputSlot[in.Name]
		if !v.IsText {
			slots[slot] = v.Num
			res.Values[in.Name] = v.Num
			continue
		}
		res.Text[in.Name] = v.Text
		id, ok := p.prog.text[v.Text]
		if !ok {
			// Text no formula mentions still needs an id of its own, equal for
			// equal texts; negative ids never meet the plan's own.
			if unseen == nil {
				unseen = map[string]float64{}
			}
			if id, ok = unseen[v.Text]; !ok {
				id = -float64(len(unseen) + 1)
				unseen[v.Text] = id
			}
		}
		slots[slot] = id
	}
	return nil
}

// DidYouMean suggests the input closest in spelling to name, for a
// message: " (did you mean capex?)", or "".
func (p *Plan) DidYouMean(name string) string {
	var names []string
	for _, in := range p.model.Inputs {
		names = append(names, in.Name)
	}
	return suggestion(name, names)
}

// DidYouMeanFormula suggests the formula closest in spelling to name, for
// a message, as DidYouMean does.
func (p *Plan) DidYouMeanFormula(name string) string {
	var names []string
	for _, c := range p.checked {
		names = append(names, c.Name)
	}
	return suggestion(name, names)
}

func suggestion(name string, names []string) string {
	if s := formulas.Suggest(name, names); s != "" && s != name {
		return " (did you mean " + s + "?)"
	}
	return ""
}

func describe(v domain.Value) string {
	if v.IsText {
		return fmt.Sprintf("the text %q", v.Text)
	}
	return fmt.Sprintf("the number %g", v.Num)
}

func kindOf(v domain.Value) string {
	if v.IsText {
		return "text"
	}
	return "a number"
}

// evalOffer runs the per-offer formulas for o when it is an offer of the
// scenario's GPU.
func (p *Plan) evalOffer(o *domain.Offer, st *state, nodeFailed map[int]string, res *Result) OfferResult {
	or := OfferResult{Offer: o, Compared: domain.SameGPU(o.GPU, res.Text[domain.GPU])}
	if !or.Compared {
		return or
	}
	or.Values, or.Errors = map[string]float64{}, map[string]*EvalError{}
	p.setOffer(st.slots, *o)
	run(p.prog.offer, st.slots)
	failed := make(map[int]string, len(nodeFailed))
	for k, v := range nodeFailed {
		failed[k] = v
	}
	p.collect(st, true, o.Label(), failed, or.Values, or.Errors)
	be, ok := or.Values[domain.Breakeven]
	u, hasU := res.Values[domain.Utilization]
	if ok && hasU {
		or.Verdict = wording.Rent
		if u >= be {
			or.Verdict = wording.Buy
		}
		or.Phrase = wording.OfferPhrase(or.Verdict, u, be, *o)
		if o.KindOrDefault() == domain.AllHours {
			or.Phrase = wording.TermPhrase(or.Verdict, *o)
		}
		or.Words = or.Phrase.String()
	}
	if !o.HasBreakeven() {
		// The verdict above still reads it: u ≥ break-even is the same
		// comparison of the prices per calendar hour at every utilisation.
		delete(or.Values, domain.Breakeven)
	}
	return or
}

// collect reads the value of every formula of one kind (per offer or not)
// in evaluation order. A formula that references a failed one is skipped; a
// formula whose own result is not finite is explained.
func (p *Plan) collect(st *state, perOffer bool, offer string, failed map[int]string,
	values map[string]float64, errs map[string]*EvalError) {
	for _, v := range p.order {
		if p.perOffer[v] != perOffer {
			continue
		}
		f := p.checked[v].Formula
		if cause := p.failedDep(v, failed); cause != "" {
			failed[v] = cause
			errs[f.Name] = &EvalError{Formula: f, Scenario: st.scenario, Offer: offer, Skipped: true,
				Msg: "not computed: it needs " + cause + ", which failed"}
			continue
		}
		x := st.slots[p.prog.formulaSlot[v]]
		if finite(x) && finiteAll(st.slots[p.prog.temps[v][0]:p.prog.temps[v][1]]) {
			values[f.Name] = x
			continue
		}
		// Either the result is not finite, or a step on the way was (1/(y/0)
		// gives 0): the walk decides, following only the branches taken.
		if e := p.explain(v, st, offer); e != nil {
			failed[v] = f.Name
			errs[f.Name] = e
			continue
		}
		values[f.Name] = x
	}
}

// failedDep names the first failed formula (by name) that formula v needs,
// or "".
func (p *Plan) failedDep(v int, failed map[int]string) string {
	var causes []string
	for _, d := range p.deps[v] {
		if _, ok := failed[d]; ok {
			causes = append(causes, p.checked[d].Name)
		}
	}
	if len(causes) == 0 {
		return ""
	}
	sort.Strings(causes)
	return causes[0]
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func finiteAll(xs []float64) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	return true
}
