package grid

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/pagesetup"
)

// lineHeight is a line of wrapped text, in points; maxLines the most a
// row shows, at the tallest a spreadsheet lets a row be.
const (
	lineHeight = 15
	maxLines   = excelize.MaxRowHeight / lineHeight
)

// WrapHeight makes row tall enough for texts wrapped in columns of the
// given width (Excel and LibreOffice do not grow a row a program wrote),
// up to the tallest row a spreadsheet allows.
func (g *Grid) WrapHeight(row int, width float64, texts ...string) {
	lines := 1
	for _, t := range texts {
		lines = max(lines, wrappedLines(t, width))
	}
	if lines > 1 {
		if g.heights == nil {
			g.heights = map[int]float64{}
		}
		g.heights[row] = max(g.heights[row], heightOf(lines))
	}
}

func heightOf(lines int) float64 { return lineHeight * float64(min(lines, maxLines)) }

// SpanLines is how many lines s takes wrapped across the columns col to
// last, as Sentence would wrap it there.
func (g *Grid) SpanLines(col, last int, s string) int { return wrappedLines(s, g.spanWidth(col, last)) }

// Fitted is s cut at a word, with an ellipsis, to what a row wrapped in a
// column of width shows: a row is at most maxLines tall.
func Fitted(s string, width float64) string {
	if wrappedLines(s, width) <= maxLines {
		return s
	}
	runes := []rune(s)
	lo, hi := 0, len(runes) // the longest prefix that fits lies in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if wrappedLines(cut(runes, mid), width) <= maxLines {
			lo = mid
		} else {
			hi = mid
		}
	}
	return cut(runes, lo)
}

// cut is the first n runes of s, back to the last space when there is one,
// and an ellipsis.
func cut(s []rune, n int) string {
	t := string(s[:n])
	if i := strings.LastIndexByte(t, ' '); i > 0 && n < len(s) && s[n] != ' ' {
		t = t[:i]
	}
	return strings.TrimRight(t, " ") + " …"
}

// wrappedLines is how many lines text takes wrapped at spaces in a column
// of width: a width counts digits, prose runs about a fifth narrower
// (Calibri's letters average under 6 pixels to a digit's 7), and the cell's
// indent and padding take two digits.
func wrappedLines(text string, width float64) int {
	room := max(1, int((width-2)*1.2))
	lines, used := 1, 0
	for rest := text; ; {
		var n int
		if n, rest = nextWord(rest); n == 0 {
			break
		}
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

// nextWord is the length in runes of the first word of s, the words split
// at white space as strings.Fields splits them, and what follows it; 0
// when s holds no more words. It allocates nothing: the row heights of a
// large sheet wrap every cell again each time a table grows.
func nextWord(s string) (int, string) {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	n := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += size
		n++
	}
	return n, s[i:]
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
	g.wrappedHeights(heights)
	for _, sp := range g.sentences {
		last := sp.last
		if last == 0 {
			last = max(sp.col, pagesetup.FirstPage(g.extent()))
		}
		width := g.spanWidth(sp.col, last)
		if last > sp.col {
			merges = append(merges, [2]string{CellName(sp.col, sp.row), CellName(last, sp.row)})
		}
		c := g.at(sp.col, sp.row)
		if s, ok := c.value.(string); ok {
			if c.formula == "" { // a formula's text is the formula's to say
				s = Fitted(s, width)
				c.value = s
			}
			if lines := wrappedLines(s, width); lines > 1 {
				heights[sp.row] = max(heights[sp.row], heightOf(lines))
			}
		}
	}
	return merges, heights
}

// spanWidth is the width of the columns col to last together.
func (g *Grid) spanWidth(col, last int) float64 {
	width := 0.0
	for c := col; c <= last; c++ {
		width += defaultWidth
		if c <= len(g.widths) {
			width += g.widths[c-1] - defaultWidth
		}
	}
	return width
}

// defaultWidth is the width of a column the grid does not size.
const defaultWidth = 9.140625

// wrappedHeights makes each row tall enough for the text its cells wrap:
// a spreadsheet draws a row no taller than the file says, and one that
// says nothing as tall as its own measure of the text, which is not
// planner's measure of the page. Sentences are sized on their own.
func (g *Grid) wrappedHeights(heights map[int]float64) {
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
}

// wraps says whether a cell of the style wraps its text.
func wraps(style string) bool {
	kind, _, _ := strings.Cut(style, "|")
	return strings.HasPrefix(kind, wrapPrefix) || kind == StyleWrapNote || kind == StyleHeader
}
