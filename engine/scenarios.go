package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/sizing"
)

// checkSizing makes sure a model that sizes has what sizing needs.
func (p *Plan) checkSizing() diag.Diagnostics {
	m := &p.model
	if !m.SizingEnabled() {
		return nil
	}
	var problems diag.Diagnostics
	need := func(ok bool, msg string) {
		if !ok {
			problems = append(problems, &diag.Diagnostic{Origin: m.Where, Msg: msg})
		}
	}
	need(len(m.GPUs) > 0, "the input model asks planner to size a model, but there is no GPUs sheet (or it is empty); planner init writes one")
	need(len(m.Catalog) > 0, "the input model asks planner to size a model, but there is no Models sheet (or it is empty); planner init writes one")
	for _, name := range []string{domain.KVHeadroom, domain.GPUs} {
		in, ok := m.Input(name)
		need(ok && !in.Value.IsText, fmt.Sprintf("sizing needs the number input %s; add it to Assumptions", name))
	}
	if in, ok := m.Input(domain.Precision); ok && !in.Value.IsText {
		problems = append(problems, &diag.Diagnostic{Origin: in.Origin, Name: domain.Precision, Msg: "must be text such as FP8; set its unit to text"})
	}
	return problems
}

// checkScenarios makes sure every scenario sets only inputs, each to a value
// of its kind, and names only GPUs, models and precisions planner knows;
// the Assumptions' own values are checked as the base scenario.
func (p *Plan) checkScenarios() diag.Diagnostics {
	var problems diag.Diagnostics
	base := domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{}, Where: map[string]diag.Origin{}}
	for _, in := range p.model.Inputs {
		base.Set[in.Name], base.Where[in.Name] = in.Value, in.Origin
	}
	problems = append(problems, p.checkSet(base)...)
	seen := map[string]diag.Origin{}
	for _, s := range p.model.Scenarios {
		first, dup := seen[s.Name]
		switch {
		case strings.EqualFold(s.Name, domain.Base):
			problems = append(problems, &diag.Diagnostic{Origin: s.Origin, Name: s.Name,
				Msg: "base names the Assumptions' own values; call this scenario something else"})
		case dup:
			problems = append(problems, &diag.Diagnostic{Origin: s.Origin, Name: s.Name,
				Msg: "the scenario name is used twice (also at " + first.Where() + "); give each scenario its own name"})
		}
		seen[s.Name] = s.Origin
		problems = append(problems, p.checkSet(s)...)
	}
	return problems
}

func (p *Plan) checkSet(s domain.Scenario) diag.Diagnostics {
	var problems diag.Diagnostics
	for _, name := range sortedKeys(s.Set) {
		v, at := s.Set[name], s.Where[name]
		if at.Sheet == "" {
			at = s.Origin
		}
		in, ok := p.Settable(name)
		switch {
		case !ok:
			problems = append(problems, &diag.Diagnostic{Origin: at, Name: name,
				Msg: "the scenario " + s.Name + " sets " + name + ", which is not an input" + p.DidYouMean(name)})
		case in.Value.IsText != v.IsText:
			problems = append(problems, &diag.Diagnostic{Origin: at, Name: name,
				Msg: fmt.Sprintf("the scenario %s sets %s to %s, but %s is %s", s.Name, name, describe(v), name, kindOf(in.Value))})
		default:
			if msg := p.unknownText(name, v); msg != "" {
				problems = append(problems, &diag.Diagnostic{Origin: at, Name: name, Msg: msg})
			}
		}
	}
	return problems
}

// Settable returns the input a scenario or --set may give a value to: an
// Assumptions input, or gpu_watts where planner takes it from the GPUs
// sheet (a scenario then overrides the catalog).
func (p *Plan) Settable(name string) (domain.Input, bool) {
	if in, ok := p.model.Input(name); ok {
		return in, true
	}
	if name == domain.GPUWatts && p.model.WattsFromCatalog() {
		return domain.Input{Name: domain.GPUWatts, Unit: "W", Value: domain.Num(0),
			Notes: "Board power per GPU, from the GPUs sheet for the scenario's GPU."}, true
	}
	return domain.Input{}, false
}

// CheckText says what is wrong with the text a GPU, model or precision
// input is set to, or "" when planner knows it.
func (p *Plan) CheckText(name string, v domain.Value) string { return p.unknownText(name, v) }

// unknownText says what is wrong with a GPU, model or precision name, or "".
func (p *Plan) unknownText(name string, v domain.Value) string {
	m := &p.model
	switch {
	case !v.IsText:
	case name == domain.GPU && len(m.GPUs) > 0:
		if _, ok := m.GPUSpec(v.Text); !ok {
			return fmt.Sprintf("the GPU %q is not in the GPUs sheet%s; known GPUs: %s", v.Text, m.SuggestGPU(v.Text, ""), m.GPUNames())
		}
	case name == domain.ModelName && m.SizingEnabled():
		if _, ok := m.ModelSpec(v.Text); !ok {
			return fmt.Sprintf("the model %q is not in the Models sheet%s; known models: %s", v.Text, m.SuggestModel(v.Text, ""), m.ModelNames())
		}
	case name == domain.Precision && v.Text != "":
		if _, ok := sizing.BytesPer(v.Text); !ok {
			return fmt.Sprintf("the precision %q is not known; use one of %s", v.Text, sizing.PrecisionNames())
		}
	}
	return ""
}

// sizeScenario sizes the scenario's model on its GPU. Names sizing cannot
// give a value get NaN, and why goes into missing.
func (p *Plan) sizeScenario(st *state, res *Result) error {
	if !p.model.SizingEnabled() {
		return nil
	}
	for _, name := range []string{domain.GPU, domain.ModelName, domain.Precision} {
		if msg := p.unknownText(name, domain.Text(res.Text[name])); msg != "" {
			return fmt.Errorf("scenario %s: %s", res.Scenario, msg)
		}
	}
	g, _ := p.model.GPUSpec(res.Text[domain.GPU])
	m, _ := p.model.ModelSpec(res.Text[domain.ModelName])
	if prec := res.Text[domain.Precision]; prec != "" {
		m.Precision, m.BytesPerParam = prec, 0
	}
	s, err := sizing.Size(m, g, res.SizingRule())
	if err != nil {
		return fmt.Errorf("scenario %s: %w", res.Scenario, err)
	}
	res.Sizing = &s
	values := map[string]float64{domain.WeightsGB: s.WeightsGB, domain.GPUMemoryGB: g.MemoryGB, domain.MinCardsName: float64(s.MinCardsTP),
		domain.UsualCardsName: float64(s.UsualCards), domain.KVGBPerReplica: s.KVGBPerReplica}
	for name, v := range values {
		if v == 0 && (name == domain.MinCardsName || name == domain.UsualCardsName || name == domain.KVGBPerReplica) {
			v = math.NaN()
			st.missing[name] = s.Note
		}
		st.slots[p.prog.inputSlot[name]] = v
		if finite(v) {
			res.Values[name] = v
		}
	}
	return nil
}

func sortedKeys(m map[string]domain.Value) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
