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
// before today, or carries no date, and the FX rates likewise. today comes
// from the caller (a flag or the workbook's own date), never from the
// clock: the same workbook gives the same warnings on any day.
func StalePrices(m domain.Model, today time.Time, maxAge int, from string) diag.Diagnostics {
	var out diag.Diagnostics
	warn := func(at diag.Origin, name, msg string) {
		if msg != "" {
			out = append(out, &diag.Diagnostic{Severity: diag.Warning, Origin: at, Name: name, Msg: msg})
		}
	}
	age := ageCheck{today: today, maxAge: maxAge, from: from}
	for _, o := range m.Offers {
		at := o.AsOfAt
		if at.Sheet == "" {
			at = o.Origin
		}
		warn(at, o.Label(), age.stale(o.AsOf, "price", "the day it was listed"))
	}
	for _, r := range m.FX {
		at := r.AsOfAt
		if at.Sheet == "" {
			at = r.Origin
		}
		warn(at, r.Currency, age.stale(r.AsOf, "rate", "the day it was taken"))
	}
	return out
}

// ageCheck measures a date's age from today.
type ageCheck struct {
	today  time.Time
	maxAge int
	from   string
}

// stale says what is wrong with the as-of date of a price or a rate
// (what), or "": none, or more than maxAge days before today.
func (a ageCheck) stale(asOf, what, day string) string {
	if asOf == "" {
		return fmt.Sprintf("the %s has no as-of date; add %s", what, day)
	}
	d, err := time.Parse("2006-01-02", asOf)
	if err != nil {
		return ""
	}
	if age := int(a.today.Sub(d).Hours() / 24); age > a.maxAge {
		return fmt.Sprintf("the %s is %d days old on %s (%s), more than %d; check it and update the %s and its as-of date",
			what, age, a.today.Format("2006-01-02"), a.from, a.maxAge, what)
	}
	return ""
}
