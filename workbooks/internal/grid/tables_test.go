package grid

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"planner/workbooks/internal/pagesetup"
)

// A table longer than a page continues on the next under a copy of its
// header, each record (and the name that points at it) moved below the
// copy; a table whose first record would not fit on the page starts on
// the next, its title with it.
func TestPageStarts(t *testing.T) {
	g := NewOwned("Tables", 0, 1, 20, 20, 20)
	g.RepeatTableHeaders()
	room := pagesetup.Room(g.extent())
	perPage := int(math.Floor(room / lineHeight)) // rows of 15 points a page holds

	g.Line(1, Text("The first table", StyleSection))
	g.Line(2, Headers("record", "value")...)
	g.Table(1, 2, 2)
	row := 2
	const records = 70
	for i := 1; i <= records; i++ {
		row++
		g.Line(row, Text(fmt.Sprintf("record %d", i), StyleLabel), Number(float64(i), StyleResult))
		row += g.Fit(row)
		g.Name(fmt.Sprintf("r%d", i), 2, row)
	}
	var want []int
	for b := perPage + 1; b <= row; b += perPage {
		want = append(want, b)
	}
	// The second table's title, header and first record come where the
	// page has room for two rows.
	last := want[len(want)-1]
	for row-last+1 < perPage-2 { // fill the last page up to two rows short of its end
		row++
		g.Line(row, Text("filler", StyleLabel))
	}
	title := row + 1
	g.Line(title, Text("The second table", StyleSection))
	g.Line(title+1, Headers("offer")...)
	g.Table(title, title+1, title+1)
	g.Line(title+2, Text("first offer", StyleLabel))
	g.Fit(title + 2)
	want = append(want, title)

	if !slices.Equal(g.breaks, want) {
		t.Errorf("pages start at rows %v, want %v (%d rows of 15 points a page)", g.breaks, want, perPage)
	}
	for _, b := range want[:len(want)-1] {
		if c := g.at(1, b); c == nil || c.value != "record" {
			t.Errorf("row %d starts a page with %v, want the header's copy", b, c)
		}
	}
	for _, n := range g.names {
		var i int
		fmt.Sscanf(n.name, "r%d", &i)
		if c := g.at(1, n.row); c == nil || c.value != fmt.Sprintf("record %d", i) {
			t.Errorf("%s points at row %d, which holds %v", n.name, n.row, c)
		}
	}
}
