package engine

import (
	"fmt"

	"planner/diag"
	"planner/domain"
	"planner/units"
)

// labelKey is what planner compares of an offer label: planner finds
// offers by label (deployments, goals, the JSON), so two that differ only
// in case or spacing would be one offer to every reader.
func labelKey(label string) string { return domain.GPUKey(label) }

// checkOffers refuses two Cloud rows with the same provider and offer
// name: every result planner gives per offer is found by that label, and
// the second row would be shown the first one's numbers. Each repeat is
// told against the first row of its label.
func (p *Plan) checkOffers() diag.Diagnostics {
	var problems diag.Diagnostics
	firsts := map[string]int{}
	for i, o := range p.model.Offers {
		key := labelKey(o.Label())
		j, seen := firsts[key]
		if !seen {
			firsts[key] = i
			continue
		}
		first := p.model.Offers[j]
		problems = append(problems, &diag.Diagnostic{Origin: o.Origin, Name: o.Label(), Msg: fmt.Sprintf(
			"the offer is listed twice: also at %s (at %s a GPU-hour, here at %s); give each row its own offer name, such as the region or the term, or delete one",
			first.Origin.Where(), p.model.Currency.Format(first.Price, "$/GPU-h"), p.model.Currency.Format(o.Price, "$/GPU-h"))})
	}
	return problems
}

// offerWarnings point at offers whose GPU the catalog does not know: they
// are listed, never compared, which a typo ("H100" for "H100 SXM") would
// otherwise hide.
func (p *Plan) offerWarnings() diag.Diagnostics {
	out := p.renewalWarnings()
	if len(p.model.GPUs) == 0 {
		return out
	}
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

// renewalWarnings point at the terms whose renewals miss the yearly steps
// of rent_price_change_per_year (neither whole years nor a divisor of 12
// months) when the rent may change: planner renews them every
// domain.RenewalMonths at the price changed by (1 + change) to the power
// of those months' years, which the steps at months 13, 25, … would not
// give.
func (p *Plan) renewalWarnings() diag.Diagnostics {
	if !p.mayChange(domain.RentChange) {
		return nil
	}
	var out diag.Diagnostics
	for _, o := range p.model.Offers {
		if f, ok := p.model.FallbackOf(o); ok && o.KindOrDefault() == domain.Spot && domain.RenewalMonths(f) != 12 {
			at := o.FallbackAt
			if at.Sheet == "" {
				at = o.Origin
			}
			out = append(out, &diag.Diagnostic{Origin: at, Name: o.Label(), Severity: diag.Warning, Msg: fmt.Sprintf(
				"the fallback %s is a term of %s months, but along %s planner reprices the spot offer, its fallback's share too, at each 12th month (months 13, 25, …); for the term's own renewals, compare the term itself",
				f.Label(), units.Plain(f.TermMonths), domain.RentChange)})
		}
		if !domain.RenewalUnsupported(o) {
			continue
		}
		at := o.TermAt
		if at.Sheet == "" {
			at = o.Origin
		}
		every := domain.RenewalMonths(o)
		out = append(out, &diag.Diagnostic{Origin: at, Name: o.Label(), Severity: diag.Warning, Msg: fmt.Sprintf(
			"a term of %s months renews off the yearly steps of %s (months 13, 25, …): planner renews it every %s months at the price changed by (1 + change) to the power %s, those months' years; make the term whole years, or a divisor of 12 months, to follow the steps",
			units.Plain(o.TermMonths), domain.RentChange, units.Plain(every), units.Plain(every/12))})
	}
	return out
}

// mayChange reports whether input name is other than 0 in the base, a
// scenario or its range.
func (p *Plan) mayChange(name string) bool {
	in, ok := p.model.Input(name)
	if !ok {
		return false
	}
	if in.Value.Num != 0 || in.HasRange && (in.Low != 0 || in.High != 0) {
		return true
	}
	for _, sc := range p.model.Scenarios {
		if v, ok := sc.Set[name]; ok && v.Num != 0 {
			return true
		}
	}
	return false
}
