package grid

import (
	"slices"

	"planner/workbooks/internal/pagesetup"
)

// measure is what Fit knows of the rows written so far, kept between
// calls so that writing a table record by record costs in proportion to
// its rows, not their square: each row's settled height, measured again
// only once a cell, height or sentence of it changes (every row once the
// columns, charts or rows themselves move), and how far the pages are
// counted down. The heights are settled's, row for row. Both are kept by
// row, heights[r-1] and sentences[r-1], so that moving the rows below a
// page break moves only theirs.
type measure struct {
	heights   []float64    // row r's height at r-1, 0 for none; unmeasured (negative) past the end
	sentences [][]textSpan // row r's sentences at r-1, in the order they were written
	firstPage int          // the columns the sheet's first page holds, which sentences span
	changed   int          // the first row changed since the pages were counted; 0 for none
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
	if row <= len(m.heights) {
		m.heights[row-1] = unmeasured
	}
	if m.changed == 0 || row < m.changed {
		m.changed = row
	}
}

// unmeasured is the height of a row measure has not measured.
const unmeasured = -1

// touchAll forgets every measure: the rows, columns or charts moved.
func (g *Grid) touchAll() { g.measure = nil }

// measured is the grid's measure, made afresh after touchAll: the
// columns and charts, which decide the sheet's first page, change only
// through Width and AddChart, which touch all.
func (g *Grid) measured() *measure {
	if g.measure != nil {
		return g.measure
	}
	m := &measure{firstPage: pagesetup.FirstPage(g.extent())}
	for _, sp := range g.sentences {
		m.addSentence(sp)
	}
	g.measure = m
	return m
}

// addSentence files sp under its row.
func (m *measure) addSentence(sp textSpan) {
	for len(m.sentences) < sp.row {
		m.sentences = append(m.sentences, nil)
	}
	m.sentences[sp.row-1] = append(m.sentences[sp.row-1], sp)
}

// sentencesAt are row r's sentences.
func (m *measure) sentencesAt(r int) []textSpan {
	if r > len(m.sentences) {
		return nil
	}
	return m.sentences[r-1]
}

// heightAt is row r's height in points, as settled gives it (lineHeight
// where it gives none).
func (g *Grid) heightAt(r int) float64 {
	if h := g.settledAt(r); h > 0 {
		return h
	}
	return lineHeight
}

// settledAt is row r's height as settled gives it, 0 for none, measured
// once until the row changes.
func (g *Grid) settledAt(r int) float64 {
	m := g.measured()
	for len(m.heights) < r {
		m.heights = append(m.heights, unmeasured)
	}
	h := m.heights[r-1]
	if h < 0 {
		h = g.settleRow(r, m)
		m.heights[r-1] = h
	}
	return h
}

// settleRow is row r's height as settled works it out (0 for none): the
// height asked for it, its cells' wrapped text, and its sentences across
// their columns, each sentence cut to what the row shows.
func (g *Grid) settleRow(r int, m *measure) float64 {
	h := 0.0
	if r <= len(g.heights) {
		h = g.heights[r-1]
	}
	sentences := m.sentencesAt(r)
	if r <= len(g.rows) {
		for j, c := range g.rows[r-1] {
			s, ok := c.value.(string)
			if !ok || !wraps(c.style) || spanning(sentences, j+1) {
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
	for _, sp := range sentences {
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

// spanning says whether one of a row's sentences starts at column col.
func spanning(sentences []textSpan, col int) bool {
	for _, sp := range sentences {
		if sp.col == col {
			return true
		}
	}
	return false
}

// shiftMeasure moves what is measured of rows first on down by k rows, as
// shift moves the rows: a table's header repeated atop each page must not
// make every row be measured again.
func (g *Grid) shiftMeasure(first, k int) {
	m := g.measure
	if m == nil {
		return
	}
	if first <= len(m.heights) {
		m.heights = slices.Insert(m.heights, first-1, slices.Repeat([]float64{unmeasured}, k)...)
	}
	if first <= len(m.sentences) {
		m.sentences = slices.Insert(m.sentences, first-1, make([][]textSpan, k)...)
		for _, row := range m.sentences[first-1+k:] {
			for i := range row {
				row[i].row += k
			}
		}
	}
	for len(m.tops) > 0 && m.tops[len(m.tops)-1].top >= first {
		m.tops = m.tops[:len(m.tops)-1]
	}
	if m.changed == 0 || first < m.changed {
		m.changed = first
	}
}
