package engine

import (
	"fmt"

	"planner/diag"
	"planner/domain"
	"planner/units"
)

// sameLabel reports whether two offer labels name the same offer: planner
// finds offers by label (deployments, goals, the JSON), so two that differ
// only in case or spacing would be one offer to every reader.
func sameLabel(a, b string) bool { return domain.SameGPU(a, b) }

// checkOffers refuses two Cloud rows with the same provider and offer
// name: every result planner gives per offer is found by that label, and
// the second row would be shown the first one's numbers.
func (p *Plan) checkOffers() diag.Diagnostics {
	var problems diag.Diagnostics
	for i, o := range p.model.Offers {
		for _, first := range p.model.Offers[:i] {
			if !sameLabel(first.Label(), o.Label()) {
				continue
			}
			problems = append(problems, &diag.Diagnostic{Origin: o.Origin, Name: o.Label(), Msg: fmt.Sprintf(
				"the offer is listed twice: also at %s (at %s a GPU-hour, here at %s); give each row its own offer name, such as the region or the term, or delete one",
				first.Origin.Where(), dollarsAndCents(first.Price), dollarsAndCents(o.Price))})
			break
		}
	}
	return problems
}

func dollarsAndCents(v float64) string { return units.Format(v, "$/GPU-h") }

// offerWarnings point at offers whose GPU the catalog does not know: they
// are listed, never compared, which a typo ("H100" for "H100 SXM") would
// otherwise hide.
func (p *Plan) offerWarnings() diag.Diagnostics {
	if len(p.model.GPUs) == 0 {
		return nil
	}
	var out diag.Diagnostics
	for _, o := range p.model.Offers {
		if _, ok := p.model.GPUSpec(o.GPU); ok {
			continue
		}
		at := o.GPUAt
		if at.Sheet == "" {
			at = o.Origin
		}
		out = append(out, &diag.Diagnostic{Origin: at, Name: o.Label(), Msg: fmt.Sprintf(
			"the GPU %q is not in the GPUs sheet%s, so this offer is listed but never compared; write a GPU of the GPUs sheet, or add %s to it",
			o.GPU, p.suggestGPU(o.GPU, o.Label()), o.GPU)})
	}
	return out
}

// suggestGPU is the model's suggestion for a GPU name it does not know.
func (p *Plan) suggestGPU(typed, label string) string { return p.model.SuggestGPU(typed, label) }

// noOffer says, for a scenario whose GPU no Cloud offer is for, that there
// is nothing to compare: where its verdict would be.
func noOffer(gpu string) string {
	return fmt.Sprintf("no %s offer in Cloud to compare with: add one", gpu)
}
