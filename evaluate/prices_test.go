package evaluate

import (
	"testing"
	"time"

	"planner/workbooks"
)

// Without --today the prices age by the clock, not by the workbook's own
// date (init's, the prices' day): the default prices of 2026-10-10 are 52
// days old on 2026-12-01, 21 days of October and 30 of November later.
// With --today the clock is not asked.
func TestPricesAgeByTheClock(t *testing.T) {
	book, err := workbooks.Read(newWorkbook(t))
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return time.Date(2026, 12, 1, 23, 59, 0, 0, time.FixedZone("", -5*3600)) }
	ws := PriceAge{MaxAge: 51, Clock: clock}.Warnings(book)
	if len(ws) != len(book.Model.Offers) || len(ws) == 0 {
		t.Fatalf("%d warnings for %d offers: %v", len(ws), len(book.Model.Offers), ws)
	}
	// 23:59 five hours west of Greenwich is already 2 December.
	want := "RunPod H100 SXM, Community: the price is 53 days old on 2026-12-02 (today), more than 51; check it and update the price and its as-of date"
	if got := ws[0].Error(); got != book.Path+": Cloud!E2: "+want {
		t.Errorf("got %s\nwant %s: Cloud!E2: %s", got, book.Path, want)
	}
	if ws := (PriceAge{MaxAge: 53, Clock: clock}).Warnings(book); len(ws) != 0 {
		t.Errorf("53 days are not more than 53: %v", ws)
	}
	asked := false
	ws = PriceAge{Today: "2026-12-01", MaxAge: 51, Clock: func() time.Time { asked = true; return clock() }}.Warnings(book)
	if asked || len(ws) == 0 || ws[0].Error() != book.Path+": Cloud!E2: RunPod H100 SXM, Community: the price is 52 days old on 2026-12-01 (--today), more than 51; check it and update the price and its as-of date" {
		t.Errorf("--today 2026-12-01 (clock asked: %v): %v", asked, ws)
	}
}
