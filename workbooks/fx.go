package workbooks

import (
	"strings"

	"planner/domain"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// currency reads the input currency: the ISO 4217 code of the currency
// every amount of the workbook is in, US dollars when Assumptions has no
// such row (as no workbook before it had) or leaves it empty. A code that
// is not ISO 4217's is an error at its cell.
func (r *reader) currency(inputs []domain.Input) units.Currency {
	in, ok := (&domain.Model{Inputs: inputs}).Input(domain.Currency)
	if !ok {
		return units.USD
	}
	if !in.Value.IsText {
		r.fail(in.Origin, in.Name, "must be text, the ISO 4217 code of the workbook's currency such as USD or EUR; set its unit to text")
		return units.USD
	}
	raw := strings.TrimSpace(in.Value.Text)
	if raw == "" {
		return units.USD
	}
	c, known := units.CurrencyOf(raw)
	if !known {
		r.fail(in.Origin, in.Name, "%q is not a currency planner knows; write its ISO 4217 code, such as USD or EUR", raw)
	}
	r.cur = c
	return c
}

// defaultCurrency is the currency the defaults table's input currency
// names: US dollars, as the table gives it.
func defaultCurrency(inputs []domain.Input) units.Currency {
	in, _ := (&domain.Model{Inputs: inputs}).Input(domain.Currency)
	c, _ := units.CurrencyOf(in.Value.Text)
	return c
}

// fxRates reads the FX sheet: per row, what one unit of a currency is worth
// in the workbook's currency (cur).
func (r *reader) fxRates(cur units.Currency) []domain.FXRate {
	t := r.table(schema.FX)
	if t == nil {
		return nil
	}
	date1904 := r.date1904()
	var out []domain.FXRate
	t.each(func(row int) {
		raw, at := t.get(row, "currency")
		code, ok := units.CurrencyCode(raw)
		if !ok {
			r.fail(at, "", "%q is not a currency planner knows; write its ISO 4217 code, such as EUR", raw)
			return
		}
		if code == cur.Code() {
			r.fail(at, code, "is the workbook's own currency (the input %s), which needs no rate; clear the row", domain.Currency)
			return
		}
		if prev, ok := (&domain.Model{FX: out}).Rate(code); ok {
			r.fail(at, code, "has a rate already at %s; keep one row", prev.Origin.Where())
			return
		}
		rate, ok := r.positive(t, row, "rate", code, true)
		if !ok {
			return
		}
		fx := domain.FXRate{Currency: code, Rate: rate, Origin: at}
		fx.Source, _ = t.get(row, "source")
		_, fx.RateAt = t.get(row, "rate")
		fx.AsOf, _, _ = r.date(t, row, date1904)
		_, fx.AsOfAt = t.get(row, "asof")
		out = append(out, fx)
	})
	return out
}

// listedIn reads the currency cell of a row of Cloud or APIs: "" when the
// row is in the workbook's currency (the cell empty or naming it), else
// its code and its FX rate. An unknown code, or one the FX sheet gives no
// rate for, is an error at the cell (ok false).
func (r *reader) listedIn(t *table, row int, m *domain.Model, label string) (code string, fx domain.FXRate, ok bool) {
	raw, at := t.get(row, "currency")
	if strings.TrimSpace(raw) == "" {
		return "", fx, true
	}
	code, known := units.CurrencyCode(raw)
	if !known {
		r.fail(at, label, "%q is not a currency planner knows; write its ISO 4217 code, such as EUR, or leave the cell empty for %s", raw, currencyName(m.Currency))
		return "", fx, false
	}
	if code == m.Currency.Code() {
		return "", fx, true
	}
	fx, found := m.Rate(code)
	if !found {
		r.fail(at, label, "is listed in %s, and sheet %s gives no rate for it; add a row to %s: currency %s, rate (%s per 1 %s), as of, source",
			code, schema.FX.Name, schema.FX.Name, code, currencyName(m.Currency), code)
		return "", fx, false
	}
	return code, fx, true
}

// currencyName is how a message names the workbook's currency: "US
// dollars", as planner always has, or its code (EUR).
func currencyName(c units.Currency) string {
	if c.IsUSD() {
		return "US dollars"
	}
	return c.Code()
}

// convertOffer puts an offer listed in another currency into the
// workbook's: Price becomes the listed price times the FX rate.
func (r *reader) convertOffer(t *table, row int, m *domain.Model, o *domain.Offer) bool {
	code, fx, ok := r.listedIn(t, row, m, o.Label())
	if !ok || code == "" {
		return ok
	}
	o.Currency, o.Listed, o.RateAt = code, o.Price, fx.RateAt
	o.Price *= fx.Rate
	return true
}

// convertAPI puts an API's prices listed in another currency into the
// workbook's.
func (r *reader) convertAPI(t *table, row int, m *domain.Model, a *domain.API) bool {
	code, fx, ok := r.listedIn(t, row, m, a.Label())
	if !ok || code == "" {
		return ok
	}
	a.Currency, a.Listed, a.RateAt = code, [3]float64{a.Input, a.Output, a.Cached}, fx.RateAt
	a.Input *= fx.Rate
	a.Output *= fx.Rate
	a.Cached *= fx.Rate
	return true
}
