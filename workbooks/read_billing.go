package workbooks

import (
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/units"
)

// billing reads how the offer of a Cloud row bills: its kind, a term's
// months and upfront, a spot offer's interruption and fallback, and the
// extras every rented GPU pays a month. Each column that does not belong
// to the row's billing is an error at its cell, saying what to type.
func (r *reader) billing(t *table, row int, label string) domain.Billing {
	var b domain.Billing
	var kind string
	kind, b.KindAt = t.get(row, "billing")
	b.Kind = billingKind(kind)
	if b.Kind == "" && kind != "" {
		r.fail(b.KindAt, label, "%q is not a billing; type %s, or leave it empty for %s",
			kind, diag.ListOr(domain.Billings()), domain.UsedHours)
		return b // the other columns' fit waits for a billing planner knows
	}
	b.TermMonths, b.TermAt = r.billingNumber(t, row, "term", label)
	b.Upfront, b.UpfrontAt = r.billingNumber(t, row, "upfront", label)
	b.Interruption, b.InterruptionAt = r.billingNumber(t, row, "interruption", label)
	b.Extras, b.ExtrasAt = r.billingNumber(t, row, "extras", label)
	b.Fallback, b.FallbackAt = t.get(row, "fallback")
	r.checkBilling(b, label)
	return b
}

// billingKind is the kind a billing cell names, "" for an empty cell or
// one planner does not know.
func billingKind(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	for _, k := range domain.Billings() {
		if s == k {
			return k
		}
	}
	return ""
}

// billingNumber reads an optional number of the billing columns; 0 when
// the cell is empty or holds something else (reported).
func (r *reader) billingNumber(t *table, row int, key, label string) (float64, diag.Origin) {
	v, ok := t.number(row, key, label, false)
	_, at := t.get(row, key)
	if !ok {
		return 0, at
	}
	return v, at
}

// checkBilling reports each column that does not fit the offer's billing,
// or a value its billing cannot take, at its cell.
func (r *reader) checkBilling(b domain.Billing, label string) {
	kind := b.KindOrDefault()
	switch {
	case kind == domain.AllHours && b.TermMonths == 0:
		r.fail(b.TermAt, label, "an %s offer bills a term; type its months in term months, such as 12 or 36", domain.AllHours)
	case kind != domain.AllHours && b.TermMonths != 0:
		r.fail(b.TermAt, label, "term months is for an %s term; clear it, or type %s in billing", domain.AllHours, domain.AllHours)
	case b.TermMonths < 0 || b.TermMonths != float64(int(b.TermMonths)):
		r.fail(b.TermAt, label, "the term (%s months) is not a whole number of months; type one, such as 12 or 36", units.Plain(b.TermMonths))
	}
	switch {
	case kind != domain.AllHours && b.Upfront != 0:
		r.fail(b.UpfrontAt, label, "upfront is what an %s term asks at its start; clear it, or type %s in billing", domain.AllHours, domain.AllHours)
	case b.Upfront < 0:
		r.fail(b.UpfrontAt, label, "the upfront (%s) is below zero; type what the term asks per GPU, or 0", units.Plain(b.Upfront))
	}
	switch {
	case kind != domain.Spot && b.Interruption != 0:
		r.fail(b.InterruptionAt, label, "interruption is for a %s offer; clear it, or type %s in billing", domain.Spot, domain.Spot)
	case b.Interruption < 0 || b.Interruption > 1:
		r.fail(b.InterruptionAt, label, "the interruption (%s) is not a share between 0 %% and 100 %%; type the share of used hours lost, such as 10 %%",
			units.Format(b.Interruption, units.Share))
	}
	switch {
	case kind != domain.Spot && b.Fallback != "":
		r.fail(b.FallbackAt, label, "fallback is for a %s offer; clear it, or type %s in billing", domain.Spot, domain.Spot)
	case kind == domain.Spot && b.Fallback == "":
		r.fail(b.FallbackAt, label, "a %s offer needs a fallback for its interrupted hours; pick another offer of its GPU from the offer column", domain.Spot)
	}
	if b.Extras < 0 {
		r.fail(b.ExtrasAt, label, "the extras (%s) are below zero; type what storage, egress and support cost per GPU a month, or 0", units.Plain(b.Extras))
	}
}

// checkFallbacks reports a spot offer whose fallback is not another offer
// of its GPU, or is itself spot, at the fallback's cell.
func (r *reader) checkFallbacks(offers []domain.Offer) {
	m := domain.Model{Offers: offers}
	for _, o := range offers {
		if o.KindOrDefault() != domain.Spot || o.Fallback == "" {
			continue
		}
		f, ok := m.FallbackOf(o)
		switch {
		case !ok:
			r.fail(o.FallbackAt, o.Label(), "no offer of the %s is named %q; pick one from the Cloud sheet's offer column", o.GPU, o.Fallback)
		case f.KindOrDefault() == domain.Spot:
			r.fail(o.FallbackAt, o.Label(), "the fallback %q is itself %s; pick an offer billed by %s or %s", o.Fallback, domain.Spot, domain.UsedHours, domain.AllHours)
		}
	}
}
