package evaluate

import (
	"fmt"
	"time"

	"planner/diag"
	"planner/facts"
	"planner/workbooks"
)

// PriceAge is how the cloud prices' age is measured: from Today when it is
// given, else from today by the clock. Not from the workbook's own date:
// init dates a new workbook as of its prices and eval keeps that date, so
// a price would never age. The day changes only warnings (stderr, the
// JSON), never what planner writes into a workbook: Results lists only
// the warnings that follow from the workbook's cells.
type PriceAge struct {
	Today  string // YYYY-MM-DD, or "": today
	MaxAge int    // days; older prices are warned about
	// Clock is today when Today is not given; nil is the system's clock.
	Clock func() time.Time
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
	today, from := a.Day()
	return facts.StalePrices(book.Model, today, a.MaxAge, from)
}

// Day is the day prices' age is measured on, and where it came from as a
// warning says it: "--today", or "today" by the clock.
func (a PriceAge) Day() (time.Time, string) {
	if a.Today != "" {
		today, _ := time.Parse("2006-01-02", a.Today)
		return today, "--today"
	}
	clock := a.Clock
	if clock == nil {
		clock = time.Now
	}
	now := clock().UTC()
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), "today"
}
