package domain

import (
	"strings"

	"planner/diag"
)

// FXRate is a row of the FX sheet: what one unit of another currency is
// worth in the workbook's currency (Model.Currency, US dollars unless the
// input currency names another) on the day it was taken, so that an offer
// or an API listed in that currency is compared in the workbook's.
type FXRate struct {
	Currency string  // ISO 4217, upper case
	Rate     float64 // the workbook's currency per one unit of Currency
	AsOf     string  // YYYY-MM-DD, or ""
	Source   string
	Origin   diag.Origin // the row's currency cell
	RateAt   diag.Origin
	AsOfAt   diag.Origin
}

// Rate is the FX row of the currency code, and whether the workbook gives one.
func (m *Model) Rate(code string) (FXRate, bool) {
	for _, r := range m.FX {
		if strings.EqualFold(r.Currency, code) {
			return r, true
		}
	}
	return FXRate{}, false
}
