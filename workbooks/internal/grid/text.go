package grid

import (
	"strings"
	"unicode/utf8"

	"planner/workbooks/internal/pagesetup"
)

// WrapHeight makes row tall enough for texts wrapped in columns of the
// given width (Excel and LibreOffice do not grow a row a program wrote).
func (g *Grid) WrapHeight(row int, width float64, texts ...string) {
	lines := 1
	for _, t := range texts {
		lines = max(lines, wrappedLines(t, width))
	}
	if lines > 1 {
		if g.heights == nil {
			g.heights = map[int]float64{}
		}
		g.heights[row] = max(g.heights[row], 15*float64(lines))
	}
}

// wrappedLines is how many lines text takes wrapped at spaces in a column
// of width: a width counts digits, and text runs about a tenth narrower.
func wrappedLines(text string, width float64) int {
	room := max(1, int((width-1)*1.1))
	lines, used := 1, 0
	for _, w := range strings.Fields(text) {
		n := utf8.RuneCountInString(w)
		switch {
		case used == 0:
			used = n
		case used+1+n <= room:
			used += 1 + n
		default:
			lines++
			used = n
		}
		for used > room { // a word longer than the column breaks across lines
			lines++
			used -= room
		}
	}
	return lines
}

// Sentence writes a line of text from (col, row) across the columns to
// last (0: the last the sheet's first printed page holds), merged and
// wrapped there, the row tall enough for it: a verdict in words or a
// warning reads whole on screen and on paper, where text running past the
// table would be cut off at the page's edge. The cells it covers stay
// empty.
func (g *Grid) Sentence(col, row, last int, s, style string) {
	g.Set(col, row, Text(s, Wrapped(style)))
	g.sentences = append(g.sentences, textSpan{col: col, row: row, last: last})
}

// textSpan is where a sentence runs: row, from col to last.
type textSpan struct{ col, row, last int }

// settled are the grid's merged ranges and row heights, its sentences
// placed across the columns the grid has once it is complete.
func (g *Grid) settled() (merges [][2]string, heights map[int]float64) {
	heights = map[int]float64{}
	for r, h := range g.heights {
		heights[r] = h
	}
	for _, sp := range g.sentences {
		last := sp.last
		if last == 0 {
			last = max(sp.col, pagesetup.FirstPage(g.extent()))
		}
		width := 0.0
		for c := sp.col; c <= last; c++ {
			width += defaultWidth
			if c <= len(g.widths) {
				width += g.widths[c-1] - defaultWidth
			}
		}
		if last > sp.col {
			merges = append(merges, [2]string{CellName(sp.col, sp.row), CellName(last, sp.row)})
		}
		if s, ok := g.at(sp.col, sp.row).value.(string); ok {
			if lines := wrappedLines(s, width); lines > 1 {
				heights[sp.row] = max(heights[sp.row], 15*float64(lines))
			}
		}
	}
	return merges, heights
}

// defaultWidth is the width of a column the grid does not size.
const defaultWidth = 9.140625
