package sheets

import (
	"planner/engine"
	"planner/formulas"
	"planner/whatif"
)

// inUnit is "label (unit)", or the label alone for a result without one.
func inUnit(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}

// resultLabel is what a reader calls a result: its formula's label, or the
// name made readable.
func resultLabel(p *engine.Plan, name string) string {
	for _, f := range p.Formulas() {
		if f.Name == name {
			return formulas.LabelOf(f)
		}
	}
	return formulas.Readable(name)
}

// targetLabel is a tornado's target in words, with its unit: "Break-even
// utilisation (%) against RunPod H100 SXM, Community".
func targetLabel(p *engine.Plan, t whatif.Target, unit string) string {
	label := inUnit(resultLabel(p, t.Name), p.Currency().Unit(unit))
	if t.Offer != nil {
		label += " against " + t.Offer.Label()
	}
	return label
}
