package facts

import (
	"fmt"
	"time"

	"planner/diag"
	"planner/domain"
)

// DefaultMaxPriceAge is how many days a cloud price may age before planner
// says so: prices move monthly, and a quarter-old price misleads.
const DefaultMaxPriceAge = 90

// StalePrices lists the offers whose price was listed more than maxAge days
// before today, or carries no date. today comes from the caller (a flag or
// the workbook's own date), never from the clock: the same workbook gives
// the same warnings on any day.
func StalePrices(m domain.Model, today time.Time, maxAge int, from string) diag.Diagnostics {
	var out diag.Diagnostics
	for _, o := range m.Offers {
		at := o.AsOfAt
		if at.Sheet == "" {
			at = o.Origin
		}
		msg := ""
		if o.AsOf == "" {
			msg = "the price has no as-of date; add the day it was listed"
		} else if d, err := time.Parse("2006-01-02", o.AsOf); err == nil {
			if age := int(today.Sub(d).Hours() / 24); age > maxAge {
				msg = fmt.Sprintf("the price is %d days old on %s (%s), more than %d; check it and update the price and its as-of date",
					age, today.Format("2006-01-02"), from, maxAge)
			}
		}
		if msg != "" {
			out = append(out, &diag.Diagnostic{Severity: diag.Warning, Origin: at, Name: o.Label(), Msg: msg})
		}
	}
	return out
}
