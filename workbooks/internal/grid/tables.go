package grid

import (
	"slices"

	"planner/workbooks/internal/pagesetup"
)

// A sheet of several tables cannot name one header row to print atop
// every page (print titles are the sheet's): the header of one table would
// label the next. A grid that repeats its tables' headers instead breaks
// the page itself where a table runs past one, and starts the next page
// with a copy of that table's header rows.

// table is the table being written: its first row (its title) and its
// header rows.
type table struct{ title, from, to int }

// RepeatTableHeaders makes the grid print each table (see Table) with its
// own header at the top of every page it continues on, instead of a header
// row repeated on every page. The grid's column widths must be final.
func (g *Grid) RepeatTableHeaders() {
	g.repeat, g.printRow = true, 0
}

// Table starts a table at row title (its section title, or its header's
// first row), its header in rows from to to; the records that follow are
// placed with Fit.
func (g *Grid) Table(title, from, to int) {
	if g.repeat {
		g.table = &table{title: title, from: from, to: to}
	}
}

// Fit places the record just written, rows first to the last row written,
// on the page: when it runs past the page it moves below a page break and
// a copy of its table's header (it returns how many rows it moved down),
// and when it is the table's first record the table starts on the next
// page instead, its title never alone at a page's foot. Everything that
// refers to the record's rows is to be written after Fit.
func (g *Grid) Fit(first int) int {
	t := g.table
	if t == nil || first <= t.to {
		return 0
	}
	room := pagesetup.Room(g.extent())
	top := g.pageTop(first-1, room)     // the page the record would join
	if t.title < top && top <= t.to+1 { // a page would start inside the table's head
		g.breaks = slices.DeleteFunc(g.breaks, func(r int) bool { return r == top })
		g.addBreak(t.title)
		g.recount(top)
		top = t.title
	}
	used := 0.0
	for r := top; r <= g.LastRow(); r++ {
		used += g.heightAt(r)
	}
	switch {
	case used <= room:
		return 0
	case first == t.to+1:
		if t.title > top {
			g.addBreak(t.title)
		}
		return 0
	case first == top:
		return 0 // a record taller than a page
	}
	k := t.to - t.from + 1
	g.shift(first, k)
	for i := 0; i < k; i++ {
		g.copyRow(t.from+i, first+i)
	}
	g.addBreak(first)
	return k
}

// addBreak starts a page at row, the pages counted again from there.
func (g *Grid) addBreak(row int) {
	g.breaks = append(g.breaks, row)
	g.recount(row)
}

// recount makes pageTop count the pages again from above row.
func (g *Grid) recount(row int) {
	if m := g.measure; m != nil && (m.changed == 0 || row < m.changed) {
		m.changed = row
	}
}

// pageTop is the first row of the page row prints on: after the grid's
// own page breaks, and where the rows above it fill a page. A page the
// rows fill becomes a break of the grid's too: a spreadsheet measures a
// page a little differently, and must not break it elsewhere.
func (g *Grid) pageTop(row int, room float64) int {
	m := g.measured()
	p := m.page
	switch {
	case p.row == 0 || p.room != room:
		p, m.tops = pageCount{top: 1, room: room}, nil
	case m.changed > 0 && m.changed <= p.row || p.row > row:
		p = m.resume(min(row+1, max(1, m.changed)))
	}
	m.changed = 0
	// The breaks among the rows counted now: a few rows a record, of
	// breaks that grow with the sheet.
	var breaks []int
	for _, b := range g.breaks {
		if p.row < b && b <= row {
			breaks = append(breaks, b)
		}
	}
	for r := p.row + 1; r <= row; r++ {
		h := g.heightAt(r)
		broken := slices.Contains(breaks, r)
		if r > p.top && !broken && p.used+h > room {
			g.breaks = append(g.breaks, r)
			broken = true
		}
		if r > p.top && broken {
			p.top, p.used = r, 0
			m.tops = append(m.tops, pageCount{row: r - 1, top: r, room: room})
		}
		p.used += h
	}
	p.row = max(p.row, row)
	m.page = p
	return p.top
}

// shift moves rows from first on down by k rows, with their heights,
// sentences and names, leaving k empty rows.
func (g *Grid) shift(first, k int) {
	defer g.shiftMeasure(first, k)
	moved := slices.Clone(g.rows[first-1:])
	g.rows = append(append(g.rows[:first-1], make([][]Cell, k)...), moved...)
	if first <= len(g.heights) {
		g.heights = slices.Insert(g.heights, first-1, make([]float64, k)...)
	}
	for i := range g.sentences {
		if g.sentences[i].row >= first {
			g.sentences[i].row += k
		}
	}
	for i := range g.names {
		if g.names[i].row >= first {
			g.names[i].row += k
		}
	}
	for i := range g.breaks {
		if g.breaks[i] >= first {
			g.breaks[i] += k
		}
	}
}

// copyRow writes a copy of row from's cells, without their formulas, and
// its height into row to.
func (g *Grid) copyRow(from, to int) {
	for col, c := range g.rows[from-1] {
		c.formula = ""
		g.Set(col+1, to, c)
	}
	if from <= len(g.heights) && g.heights[from-1] > 0 {
		g.setHeight(to, g.heights[from-1])
	}
	for _, sp := range g.sentences {
		if sp.row == from {
			g.addSentence(textSpan{col: sp.col, row: to, last: sp.last})
		}
	}
}
