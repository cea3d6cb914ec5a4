package grid

import (
	"strconv"
	"strings"

	"github.com/xuri/efp"
	"github.com/xuri/excelize/v2"
)

// A row's run of formulas that are one formula filled right, each reading
// its own column's cells, is written as Excel writes a fill: the first in
// full as a shared formula, the others as references to it. A thousand
// scenario columns of a payback's 4,000 characters are then 4 MB less to
// write, compress and open. A run is shared only where every program that
// reads it gets the very text planner made: each cell's formula is the
// first one's with its relative columns moved (so Excel, LibreOffice and
// openpyxl read it), and excelize, which re-renders a shared formula
// through its own parser and leaves a sheet-qualified relative reference
// where it was, reads the same (excelizeReads).

// minShared is the shortest formula shared: a shorter one takes less room
// written out than as a reference to another.
const minShared = 20

// minRun is the fewest cells a run shares: parsing its formula as
// excelize does costs about as much as writing out a few of its cells.
const minRun = 8

// run is cells[first..last] of a row sharing the formula of cells[first].
type run struct{ first, last, si int }

// runs finds the row's shared runs, numbering them on from h.shared.
func (h *held) runs(cells []Cell) []run {
	h.found = h.found[:0]
	for j := 0; j < len(cells)-1; {
		last, shared := h.runFrom(cells, j)
		if shared {
			h.found = append(h.found, run{j, last, h.shared})
			h.shared++
		}
		j = last + 1 // a run not shared is not shared from a later cell either
	}
	return h.found
}

// runFrom is the last cell of the run of one formula filled right that
// cells[j] begins (j when none does) and whether to share it.
func (h *held) runFrom(cells []Cell, j int) (last int, shared bool) {
	if !longEnough(cells[j:]) || !mayFill(cells[j], cells[j+1]) {
		return j, false
	}
	first := cells[j].Formula()
	h.fill.cut(first)
	last = j
	for k := j + 1; k < len(cells) && shareable(cells[k]); k++ {
		matches := false
		cells[k].withFormula(func(f string) { matches = h.fill.is(f, k-j, h) })
		if !matches {
			break
		}
		last = k
	}
	return last, last-j+1 >= minRun && !h.fill.doubtful && h.fill.excelizeReads(h)
}

// longEnough reports whether the first minRun cells may be a run: each
// holds a formula long enough to share.
func longEnough(cells []Cell) bool {
	if len(cells) < minRun {
		return false
	}
	for _, c := range cells[:minRun] {
		if !shareable(c) {
			return false
		}
	}
	return true
}

// shareable reports whether the cell is written (row writes no cell
// without a value or style, and a run's first must be) and holds a
// formula long enough to share.
func shareable(c Cell) bool {
	return written(c) && (len(c.formula) >= minShared || c.formula != "" && c.formula[0] == packedMark)
}

// mayFill reports whether b's formula may be a's filled one column right,
// without cutting a's: filling it right first changes a column's letters,
// so where the two first differ both hold a letter.
func mayFill(a, b Cell) bool {
	may := false
	a.withFormula(func(x string) {
		b.withFormula(func(y string) {
			i := 0
			for i < len(x) && i < len(y) && x[i] == y[i] {
				i++
			}
			may = x == y || i < len(x) && i < len(y) && isLetter(x[i]) && isLetter(y[i])
		})
	})
	return may
}

// fill is a formula cut where filling it right moves it: at the column
// letters of each relative reference.
type fill struct {
	text string
	cols []column
	// doubtful is set when a quote or bracket is not closed, or a quote
	// escapes a bracket: another program may read such a formula otherwise
	// than planner cuts it, or not at all (openpyxl), so it is not shared.
	doubtful bool
}

// column is the letters text[start:end] of a relative reference to column
// col (1-based).
type column struct{ start, end, col int }

// cut finds the relative columns of formula f. It takes for a reference
// every name shaped like one (LOG10 too): a name taken wrongly moves in
// the copy planner compares and the run is not shared, while one missed
// would be read moved by Excel and not by planner.
func (p *fill) cut(f string) {
	p.text, p.cols, p.doubtful = f, p.cols[:0], false
	for i := 0; i < len(f); {
		plain := true
		switch c := f[i]; {
		case c == '"' || c == '\'':
			i, plain = closing(f, i, c)
		case c == '[':
			i, plain = bracketed(f, i)
		case nameByte(c):
			j := partEnd(f, i)
			p.reference(f, i, j)
			i = j
		default:
			i++
		}
		p.doubtful = p.doubtful || !plain
	}
}

// reference records f[i:j] if it is a relative column: a cell (B7, B$7)
// or a column of a range of columns (B:C). One spelled in lower case is
// recorded as never moving, so that a run reading it is not shared: the
// cells after it would be read in another case than planner wrote them.
func (p *fill) reference(f string, i, j int) {
	if f[i] == '$' {
		return
	}
	letters := columnLetters(f[i:j])
	if letters == 0 {
		return
	}
	rest := f[i+letters : j]
	cell := len(rest) > 0 && digitsAfterDollar(rest)
	ranged := rest == "" && (i > 0 && f[i-1] == ':' && columnPart(f[partStart(f, i-1):i-1]) ||
		j < len(f) && f[j] == ':' && columnPart(f[j+1:partEnd(f, j+1)]))
	if !cell && !ranged {
		return
	}
	name := f[i : i+letters]
	col, err := excelize.ColumnNameToNumber(name)
	if err != nil || strings.ToUpper(name) != name {
		col = excelize.MaxColumns + 1 // never moved into a sheet's columns
	}
	p.cols = append(p.cols, column{i, i + letters, col})
}

// columnLetters is the length of the one to three letters s begins with,
// 0 when it begins with none or more.
func columnLetters(s string) int {
	n := 0
	for n < len(s) && n < 4 && isLetter(s[n]) {
		n++
	}
	if n > 3 {
		return 0
	}
	return n
}

// columnPart reports whether s, the other side of a range, is a column
// ($B or B), so that a name beside it (x:B5) is not taken for one.
func columnPart(s string) bool {
	s = strings.TrimPrefix(s, "$")
	return s != "" && columnLetters(s) == len(s)
}

// partStart is where the name or reference ending at f[:end] begins.
func partStart(f string, end int) int {
	for end > 0 && nameByte(f[end-1]) {
		end--
	}
	return end
}

// partEnd is where the name or reference beginning at f[start] ends.
func partEnd(f string, start int) int {
	for start < len(f) && nameByte(f[start]) {
		start++
	}
	return start
}

// digitsAfterDollar reports whether s is a row number, $ before it or not.
func digitsAfterDollar(s string) bool {
	s = strings.TrimPrefix(s, "$")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// is reports whether f is the formula filled d columns right.
func (p *fill) is(f string, d int, h *held) bool {
	at, from := 0, 0
	for _, c := range p.cols {
		if c.col+d > excelize.MaxColumns {
			return false
		}
		lit, name := p.text[from:c.start], h.column(c.col+d-1)
		if !strings.HasPrefix(f[at:], lit) || !strings.HasPrefix(f[at+len(lit):], name) {
			return false
		}
		at, from = at+len(lit)+len(name), c.end
	}
	return f[at:] == p.text[from:]
}

// moved is the formula filled d columns right.
func (p *fill) moved(d int, h *held) string {
	var b strings.Builder
	from := 0
	for _, c := range p.cols {
		b.WriteString(p.text[from:c.start])
		b.WriteString(h.column(c.col + d - 1))
		from = c.end
	}
	b.WriteString(p.text[from:])
	return b.String()
}

// excelizeReads reports whether excelize reads the cells right of the
// formula's as the formula moved: it renders the formula again from its
// parser's tokens (a quoted sheet name loses its quotes) and moves only a
// reference without a sheet. Moved one column as excelize moves it, every
// reference it moves and spells again is one is moves, so that moved any
// number it reads the same.
func (p *fill) excelizeReads(h *held) bool {
	const d = 1
	ps := efp.ExcelParser()
	tokens := ps.Parse(p.text)
	if ps.Render() != p.text {
		return false
	}
	for i, t := range tokens {
		if t.TType == efp.TokenTypeOperand && t.TSubType == efp.TokenSubTypeRange {
			tokens[i].TValue = excelizeMoved(t.TValue, d)
		}
	}
	return ps.Render() == p.moved(d, h)
}

// excelizeMoved is reference ref moved d columns right as excelize moves
// a shared formula's (its shiftCell): each part of a range that is a cell
// or a column, $ not before its letters, moved and spelled again; a part
// it does not take for either (Cloud!B2 too) left as it is.
func excelizeMoved(ref string, d int) string {
	parts := strings.Split(ref, ":")
	for i, part := range parts {
		bare := strings.ReplaceAll(part, "$", "")
		fixedCol, fixedRow := strings.HasPrefix(part, "$"), strings.LastIndex(part, "$") > 0
		if col, row, err := excelize.CellNameToCoordinates(bare); err == nil {
			switch {
			case !fixedCol && !fixedRow:
				parts[i], _ = excelize.CoordinatesToCellName(col+d, row)
			case !fixedCol:
				name, _ := excelize.ColumnNumberToName(col + d)
				parts[i] = name + "$" + strconv.Itoa(row)
			case !fixedRow:
				name, _ := excelize.ColumnNumberToName(col)
				parts[i] = "$" + name + strconv.Itoa(row)
			}
			continue
		}
		if col, err := excelize.ColumnNameToNumber(bare); err == nil && !fixedCol {
			parts[i], _ = excelize.ColumnNumberToName(col + d)
			continue
		}
		if row, err := strconv.Atoi(bare); err == nil && !fixedCol {
			parts[i] = strconv.Itoa(row)
		}
	}
	return strings.Join(parts, ":")
}

// closing is the index after the quote closing the one at f[i], a doubled
// quote standing for itself, and whether there is one.
func closing(f string, i int, quote byte) (int, bool) {
	for i++; i < len(f); i++ {
		if f[i] != quote {
			continue
		}
		if i+1 < len(f) && f[i+1] == quote {
			i++
			continue
		}
		return i + 1, true
	}
	return len(f), false
}

// bracketed is the index after the bracket closing the one at f[i] (a
// table's column, an external workbook), brackets nesting and ' escaping
// the character after it (T[a'[b]), and whether it is plain: closed, and
// without a quote.
func bracketed(f string, i int) (int, bool) {
	depth, quoted := 0, false
	for ; i < len(f); i++ {
		switch f[i] {
		case '\'':
			i, quoted = i+1, true
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i + 1, !quoted
			}
		}
	}
	return len(f), false
}

// nameByte reports whether c may be part of a name or reference: letters,
// digits, _ . $ \ ? and every byte of a character past ASCII.
func nameByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c >= 0x80 || strings.IndexByte(`_.$\?`, c) >= 0
}

func isLetter(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
