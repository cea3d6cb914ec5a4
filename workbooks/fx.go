package workbooks

import (
	"strings"

	"planner/domain"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// fxRates reads the FX sheet: one currency's rate to US dollars per row.
func (r *reader) fxRates() []domain.FXRate {
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
		if code == units.Dollars {
			r.fail(at, code, "is planner's own currency, which needs no rate; clear the row")
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
// row is in US dollars, else its code and its FX rate. An unknown code,
// or one the FX sheet gives no rate for, is an error at the cell (ok
// false).
func (r *reader) listedIn(t *table, row int, m *domain.Model, label string) (code string, fx domain.FXRate, ok bool) {
	raw, at := t.get(row, "currency")
	if strings.TrimSpace(raw) == "" {
		return "", fx, true
	}
	code, known := units.CurrencyCode(raw)
	if !known {
		r.fail(at, label, "%q is not a currency planner knows; write its ISO 4217 code, such as EUR, or leave the cell empty for US dollars", raw)
		return "", fx, false
	}
	if code == units.Dollars {
		return "", fx, true
	}
	fx, found := m.Rate(code)
	if !found {
		r.fail(at, label, "is listed in %s, and sheet %s gives no rate for it; add a row to %s: currency %s, rate (US dollars per 1 %s), as of, source",
			code, schema.FX.Name, schema.FX.Name, code, code)
		return "", fx, false
	}
	return code, fx, true
}

// convertOffer puts an offer listed in another currency into dollars:
// Price becomes the listed price times the FX rate.
func (r *reader) convertOffer(t *table, row int, m *domain.Model, o *domain.Offer) bool {
	code, fx, ok := r.listedIn(t, row, m, o.Label())
	if !ok || code == "" {
		return ok
	}
	o.Currency, o.Listed, o.RateAt = code, o.Price, fx.RateAt
	o.Price *= fx.Rate
	return true
}

// convertAPI puts an API's prices listed in another currency into dollars.
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
