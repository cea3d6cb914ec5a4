package grid

import "planner/workbooks/internal/pagesetup"

// measure is what Fit knows of the rows written so far, kept between
// calls so that writing a table record by record costs in proportion to
// its rows, not their square: each row's settled height, measured again
// only once a cell, height or sentence of it changes (every row once the
// columns, charts or rows themselves move), and how far the pages are
// counted down. The heights are settled's, row for row.
type measure struct {
	heights   map[int]float64 // measured row -> its height; absent from settled's map when 0
	sentences map[int][]textSpan
	firstPage int // the columns the sheet's first page holds, which sentences span
	changed   int // the first row changed since the pages were counted; 0 for none
	page      pageCount
	tops      []pageCount // the count as each page started, to resume from
}

// resume is the count as it stood when the last page starting before row
// began: what the rows above a change make of the pages stays as it was.
func (m *measure) resume(row int) pageCount {
	for len(m.tops) > 0 && m.tops[len(m.tops)-1].top >= row {
		m.tops = m.tops[:len(m.tops)-1]
	}
	if len(m.tops) == 0 {
		return pageCount{top: 1, room: m.page.room}
	}
	return m.tops[len(m.tops)-1]
}

// pageCount is how far pageTop has counted the pages down: through row,
// the page starting at top, used points of it filled.
type pageCount struct {
	row, top   int
	used, room float64
}

// touch says that row changed: its height is measured again, and the
// pages counted from above it.
func (g *Grid) touch(row int) {
	m := g.measure
	if m == nil {
		return
	}
	delete(m.heights, row)
	if m.changed == 0 || row < m.changed {
		m.changed = row
	}
}

// touchAll forgets every measure: the rows, columns or charts moved.
func (g *Grid) touchAll() { g.measure = nil }

// measured is the grid's measure, made afresh after touchAll: the
// columns and charts, which decide the sheet's first page, change only
// through Width and AddChart, which touch all.
func (g *Grid) measured() *measure {
	if g.measure != nil {
		return g.measure
	}
	m := &measure{heights: map[int]float64{}, sentences: map[int][]textSpan{}, firstPage: pagesetup.FirstPage(g.extent())}
	for _, sp := range g.sentences {
		m.sentences[sp.row] = append(m.sentences[sp.row], sp)
	}
	g.measure = m
	return m
}

// heightAt is row r's height in points, as settled gives it (lineHeight
// where it gives none).
func (g *Grid) heightAt(r int) float64 {
	m := g.measured()
	h, ok := m.heights[r]
	if !ok {
		h = g.settleRow(r, m)
		m.heights[r] = h
	}
	if h == 0 {
		return lineHeight
	}
	return h
}

// settleRow is row r's height as settled works it out (0 for none): the
// height asked for it, its cells' wrapped text, and its sentences across
// their columns, each sentence cut to what the row shows.
func (g *Grid) settleRow(r int, m *measure) float64 {
	h := g.heights[r]
	spans := map[int]bool{}
	for _, sp := range m.sentences[r] {
		spans[sp.col] = true
	}
	if r <= len(g.rows) {
		for j, c := range g.rows[r-1] {
			s, ok := c.value.(string)
			if !ok || !wraps(c.style) || spans[j+1] {
				continue
			}
			width := defaultWidth
			if j < len(g.widths) {
				width = g.widths[j]
			}
			if lines := wrappedLines(s, width); lines > 1 {
				h = max(h, heightOf(lines))
			}
		}
	}
	for _, sp := range m.sentences[r] {
		last := sp.last
		if last == 0 {
			last = max(sp.col, m.firstPage)
		}
		width := g.spanWidth(sp.col, last)
		c := g.at(sp.col, sp.row)
		if c == nil {
			continue
		}
		if s, ok := c.value.(string); ok {
			if c.formula == "" {
				s = Fitted(s, width)
				c.value = s
			}
			if lines := wrappedLines(s, width); lines > 1 {
				h = max(h, heightOf(lines))
			}
		}
	}
	return h
}

// shiftMeasure moves what is measured of rows first on down by k rows, as
// shift moves the rows: a table's header repeated atop each page must not
// make every row be measured again.
func (g *Grid) shiftMeasure(first, k int) {
	m := g.measure
	if m == nil {
		return
	}
	heights := map[int]float64{}
	for r, h := range m.heights {
		if r >= first {
			r += k
		}
		heights[r] = h
	}
	m.heights = heights
	for len(m.tops) > 0 && m.tops[len(m.tops)-1].top >= first {
		m.tops = m.tops[:len(m.tops)-1]
	}
	if m.changed == 0 || first < m.changed {
		m.changed = first
	}
	g.reindexSentences()
}

// reindexSentences makes the measure's sentences by row the grid's again.
func (g *Grid) reindexSentences() {
	m := g.measure
	if m == nil {
		return
	}
	m.sentences = map[int][]textSpan{}
	for _, sp := range g.sentences {
		m.sentences[sp.row] = append(m.sentences[sp.row], sp)
	}
}
