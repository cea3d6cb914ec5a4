package sheets

import (
	"fmt"
	"strings"
	"testing"

	"planner/workbooks/internal/grid"
)

// A row of more comparisons than one formula holds is split over rows,
// each within AND's 255 arguments and Excel's 8,192 characters, none
// lost: 100 comparisons of 300 characters take 26 characters short of
// 8,000 per cell, so 26 a cell, and four cells.
func TestChecksSplitWithinExcelsLimits(t *testing.T) {
	var checks []string
	for i := range 100 {
		checks = append(checks, fmt.Sprintf("A%d=%s", i+1, excelString(strings.Repeat("x", 296-len(fmt.Sprint(i+1))))))
	}
	g := grid.NewOwned(Fleet, HeaderRow, 1, 10, 10)
	rng := writeChecks(g, "checks", 2, 10, []checkRow{{"many", checks}})
	if rng != "B11:B14" {
		t.Fatalf("the checks are at %q, want B11:B14", rng)
	}
	total := 0
	for row := 11; row <= 14; row++ {
		f := g.At(2, row).Formula()
		n := strings.Count(f, "=") // one a comparison
		if len(f) > 8192 || n > 40 {
			t.Errorf("B%d: %d characters, %d comparisons", row, len(f), n)
		}
		total += n
	}
	if total != 100 {
		t.Errorf("%d comparisons written, want 100", total)
	}
}
