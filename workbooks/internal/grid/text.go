package grid

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
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
		g.setHeight(row, heightOf(lines))
	}
}

// setHeight makes row at least h points tall.
func (g *Grid) setHeight(row int, h float64) {
	for len(g.heights) < row {
		g.heights = append(g.heights, 0)
	}
	g.heights[row-1] = max(g.heights[row-1], h)
	g.touch(row)
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
// of width, as a spreadsheet wraps it in Calibri 11: a width counts
// digits, each letter takes its own share of one (textWidth), and the
// cell's indent and padding take two digits.
func wrappedLines(text string, width float64) int {
	room := max(1, width-2)
	space := textWidth(" ")
	lines, used := 1, 0.0
	for rest := text; ; {
		var word string
		if word, rest = nextWord(rest); word == "" {
			break
		}
		n := textWidth(word)
		switch {
		case used == 0:
			used = n
		case used+space+n <= room:
			used += space + n
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

// textWidth is s's width in digits of Calibri, the widths of its letters
// from the advance widths of Carlito, its metric twin (a digit is 1038 of
// 2048 units); italic is as wide and bold at most four percent wider, which
// the five percent to spare covers. A letter not listed counts as a
// capital, the wider side.
func textWidth(s string) float64 {
	units := 0
	for _, r := range s {
		if r < 128 && asciiUnits[r] > 0 {
			units += asciiUnits[r]
			continue
		}
		u, ok := calibriUnits[r]
		if !ok {
			u = 1200
		}
		units += u
	}
	return float64(units) / 1038 * 1.05
}

// asciiUnits are calibriUnits of the first 128 runes, looked up without a
// map: text is measured for every row of every sheet.
var asciiUnits = func() (units [128]int) {
	for r, u := range calibriUnits {
		if r < 128 {
			units[r] = u
		}
	}
	return units
}()

// calibriUnits are Calibri's advance widths of the letters planner's
// sheets write most, in 2048ths of its em.
var calibriUnits = func() map[rune]int {
	widths := map[rune]int{
		' ': 463, '!': 667, '"': 821, '#': 1020, '$': 1038, '%': 1464, '&': 1397, '\'': 452, '(': 621, ')': 621,
		'*': 1020, '+': 1020, ',': 511, '-': 627, '.': 517, '/': 791, ':': 548, ';': 548, '<': 1020, '=': 1020,
		'>': 1020, '?': 949, '@': 1831, '[': 628, ']': 628, '_': 1020, '|': 943, '…': 1414, '×': 1020, '·': 517,
		'€': 1038, '£': 1038, '→': 1854, '≥': 1020, '≤': 1020, '–': 1020, '—': 1854, '’': 511, '“': 857, '”': 857,
	}
	for r := '0'; r <= '9'; r++ {
		widths[r] = 1038
	}
	lower := []int{981, 1076, 866, 1076, 1019, 625, 964, 1076, 470, 490, 931, 470, 1636, 1076, 1080, 1076, 1076, 714, 801, 686, 1076, 925, 1464, 887, 927, 809}
	upper := []int{1185, 1114, 1092, 1260, 1000, 941, 1292, 1276, 516, 653, 1064, 861, 1751, 1322, 1356, 1058, 1378, 1112, 941, 998, 1314, 1162, 1822, 1063, 998, 959}
	for i := range 26 {
		widths['a'+rune(i)], widths['A'+rune(i)] = lower[i], upper[i]
	}
	return widths
}()

// nextWord is the first word of s, the words split at white space as
// strings.Fields splits them, and what follows it; "" when s holds no more
// words. It allocates nothing: the row heights of a large sheet measure
// every cell's text.
func nextWord(s string) (word, rest string) {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	start := i
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return s[start:i], s[i:]
}

// Sentence writes a line of text from (col, row) across the columns to
// last (0: the last the sheet's first printed page holds), merged and
// wrapped there, the row tall enough for it: a verdict in words or a
// warning reads whole on screen and on paper, where text running past the
// table would be cut off at the page's edge. The cells it covers stay
// empty.
func (g *Grid) Sentence(col, row, last int, s, style string) {
	g.Set(col, row, Text(s, Wrapped(style)))
	g.addSentence(textSpan{col: col, row: row, last: last})
}

// addSentence adds sp to the grid's sentences and to its measure's.
func (g *Grid) addSentence(sp textSpan) {
	g.sentences = append(g.sentences, sp)
	if g.measure != nil {
		g.measure.addSentence(sp)
		g.touch(sp.row)
	}
}

// textSpan is where a sentence runs: row, from col to last.
type textSpan struct{ col, row, last int }

// settled are the grid's merged ranges and row heights, its sentences
// placed across the columns the grid has once it is complete: each row
// measured as Fit measures it (see settleRow), once until it changes.
func (g *Grid) settled() (merges [][2]string, heights map[int]float64) {
	heights = map[int]float64{}
	for r := 1; r <= max(len(g.rows), len(g.heights)); r++ {
		if h := g.settledAt(r); h > 0 {
			heights[r] = h
		}
	}
	firstPage := g.measured().firstPage
	for _, sp := range g.sentences {
		last := sp.last
		if last == 0 {
			last = max(sp.col, firstPage)
		}
		if last > sp.col {
			merges = append(merges, [2]string{CellName(sp.col, sp.row), CellName(last, sp.row)})
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

// wraps says whether a cell of the style wraps its text.
func wraps(style string) bool {
	kind, _, _ := strings.Cut(style, "|")
	return strings.HasPrefix(kind, wrapPrefix) || kind == StyleWrapNote || kind == StyleHeader
}
