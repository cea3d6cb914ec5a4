package grid

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
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

// What Fit measures of the rows as they are written is what the grid
// settles when it is written out, row for row, whatever was changed
// between records: a cell typed into an earlier row, a sentence, a note,
// a wider column.
func TestFitMeasuresAsTheGridSettles(t *testing.T) {
	g := NewOwned("Tables", 0, 1, 20, 20, 20)
	g.RepeatTableHeaders()
	g.Line(1, Text("A table", StyleSection))
	g.Line(2, Headers("record", "value", "why")...)
	g.Table(1, 2, 2)
	row := 2
	for i := 1; i <= 200; i++ {
		row++
		g.Line(row, Text(fmt.Sprintf("record %d", i), StyleLabel), Number(float64(i), StyleResult))
		switch i % 7 {
		case 1:
			g.Note(3, row, strings.Repeat("a longer note of words ", i%5+1))
		case 3:
			g.Sentence(1, row, 0, strings.Repeat("a sentence across the page ", i%9+1), StyleNote)
		case 5:
			g.Note(3, row-3, strings.Repeat("an earlier row grows ", i%4+2))
		}
		if i == 120 {
			g.Width(3, 30)
		}
		row += g.Fit(row)
	}
	settled := settledAfresh(g)
	for r := 1; r <= g.LastRow(); r++ {
		want, ok := settled[r]
		if !ok {
			want = lineHeight
		}
		if got := g.heightAt(r); got != want {
			t.Errorf("row %d: Fit measured %v points, the grid settles %v", r, got, want)
		}
	}
	if _, got := g.settled(); !maps.Equal(got, settled) {
		t.Errorf("the grid writes the heights %v, its rows want %v", got, settled)
	}
}

// settledAfresh are the grid's row heights worked out from its cells,
// heights and sentences alone, none of what Fit measured: the heights each
// row's cells wrap to, each sentence cut to its row across its columns.
func settledAfresh(g *Grid) map[int]float64 {
	heights := map[int]float64{}
	for i, h := range g.heights {
		if h > 0 {
			heights[i+1] = h
		}
	}
	spans := map[[2]int]bool{}
	for _, sp := range g.sentences {
		spans[[2]int{sp.col, sp.row}] = true
	}
	for i, r := range g.rows {
		for j, c := range r {
			s, ok := c.value.(string)
			if !ok || !wraps(c.style) || spans[[2]int{j + 1, i + 1}] {
				continue
			}
			width := defaultWidth
			if j < len(g.widths) {
				width = g.widths[j]
			}
			if lines := wrappedLines(s, width); lines > 1 {
				heights[i+1] = max(heights[i+1], heightOf(lines))
			}
		}
	}
	for _, sp := range g.sentences {
		last := sp.last
		if last == 0 {
			last = max(sp.col, pagesetup.FirstPage(g.extent()))
		}
		width := g.spanWidth(sp.col, last)
		c := g.at(sp.col, sp.row)
		if s, ok := c.value.(string); ok {
			if c.formula == "" {
				s = Fitted(s, width)
				c.value = s
			}
			if lines := wrappedLines(s, width); lines > 1 {
				heights[sp.row] = max(heights[sp.row], heightOf(lines))
			}
		}
	}
	return heights
}
