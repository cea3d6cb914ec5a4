package evaluate

import (
	"fmt"
	"time"

	"planner/diag"
	"planner/facts"
	"planner/workbooks"
)

// PriceAge is how the cloud prices' age is measured: from Today when it is
// given, else from the workbook's own date; never from the clock, so that
// output is reproducible.
type PriceAge struct {
	Today  string // YYYY-MM-DD, or ""
	MaxAge int    // days; older prices are warned about
}

// Check refuses a date or an age planner cannot use.
func (a PriceAge) Check() error {
	if a.Today != "" {
		if _, err := time.Parse("2006-01-02", a.Today); err != nil {
			return fmt.Errorf("--today %s: write the date as YYYY-MM-DD, such as 2026-11-30", a.Today)
		}
	}
	if a.MaxAge < 0 {
		return fmt.Errorf("--max-price-age %d: use a number of days, 0 or more", a.MaxAge)
	}
	return nil
}

// Warnings are the stale prices of book, measured as a says.
func (a PriceAge) Warnings(book *workbooks.Book) diag.Diagnostics {
	if a.Today != "" {
		today, _ := time.Parse("2006-01-02", a.Today)
		return facts.StalePrices(book.Model, today, a.MaxAge, "--today")
	}
	if book.Date.IsZero() {
		return nil // a workbook that does not say when it was saved: nothing to measure from
	}
	return facts.StalePrices(book.Model, book.Date, a.MaxAge, "the workbook's date")
}
