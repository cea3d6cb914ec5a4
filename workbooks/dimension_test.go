package workbooks

import (
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
)

var (
	dimensionRef = regexp.MustCompile(`<dimension ref="([^"]*)"`)
	cellRef      = regexp.MustCompile(`<c r="([A-Z]+[0-9]+)"`)
	mergeRef     = regexp.MustCompile(`<mergeCell ref="[A-Z]+[0-9]+:([A-Z]+[0-9]+)"`)
)

// usedRange is the range from A1 to the furthest row and column any cell
// or merged area of a sheet part reaches, worked out from its XML.
func usedRange(t *testing.T, part string) string {
	t.Helper()
	rows, cols := 0, 0
	for _, re := range []*regexp.Regexp{cellRef, mergeRef} {
		for _, m := range re.FindAllStringSubmatch(part, -1) {
			col, row, err := excelize.CellNameToCoordinates(m[1])
			if err != nil {
				t.Fatal(err)
			}
			rows, cols = max(rows, row), max(cols, col)
		}
	}
	end, _ := excelize.CoordinatesToCellName(cols, rows)
	return "A1:" + end
}

// Every sheet planner writes says in its <dimension> how far its cells
// reach, which readers that stream a sheet (openpyxl's read-only mode, for
// one) trust: with the A1 excelize's stream writer leaves, they read one
// cell of each sheet. An owned sheet whose old <dimension> another program
// left (smaller than what eval writes now) is put right too.
func TestSheetsSayHowFarTheirCellsReach(t *testing.T) {
	b, err := Read(newPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	_, out := evaluateBook(t, b)
	checkDimensions(t, "init and eval", out, func(string) bool { return true })

	stale := rezip(t, out, func(ps map[string][]byte) {
		for name, part := range ps {
			if strings.HasPrefix(name, "xl/worksheets/sheet") {
				ps[name] = dimensionRef.ReplaceAll(part, []byte(`<dimension ref="A1:B2"`))
			}
		}
	})
	again, err := ReadBytes("stale.xlsx", stale)
	if err != nil {
		t.Fatal(err)
	}
	_, out = evaluateBook(t, again)
	owned := map[string]bool{}
	for _, s := range OwnedSheets() {
		owned[s] = true
	}
	// eval rewrites only planner's own sheets; the input sheets are the
	// user's, stale dimension and all.
	checkDimensions(t, "eval over stale dimensions", out, func(sheet string) bool { return owned[sheet] })
}

func checkDimensions(t *testing.T, run string, data []byte, check func(sheet string) bool) {
	t.Helper()
	ps := zipParts(t, data)
	checked := 0
	for sheet, part := range ooxml.SheetParts(func(p string) []byte { return ps[p] }) {
		if !check(sheet) {
			continue
		}
		checked++
		got := dimensionRef.FindSubmatch(ps[part])
		if want := usedRange(t, string(ps[part])); got == nil || string(got[1]) != want {
			t.Errorf("%s: %s says <dimension ref=%q>, its cells reach %s", run, sheet, got, want)
		}
	}
	if checked < len(OwnedSheets()) {
		t.Errorf("%s: checked %d sheets, fewer than planner's %d", run, checked, len(OwnedSheets()))
	}
}
