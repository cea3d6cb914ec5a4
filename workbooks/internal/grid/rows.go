package grid

import (
	"bufio"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// held is what writing a grid's rows needs once excelize's stream writer
// was given none of them (see WriteForPacking): each cell's style id,
// resolved in the order SetRow would have resolved it, each row's height,
// and the workbook's calendar for its days.
type held struct {
	ids      map[string]int
	heights  map[int]float64
	dated    bool // date1904 was read
	date1904 bool
	names    []string // column names, A on, as far as written
	shared   int      // the shared formulas numbered so far (their si)
	found    []run    // the row's shared runs, reused from row to row
	fill     fill     // the formula of the run being found, reused
}

// hold keeps the grid's rows for WriteRows when WriteRows writes every one
// of them with the bytes excelize's SetRow would; false leaves them all to
// SetRow, as for a cell whose bytes only excelize knows. The styles are
// resolved as SetRow's caller resolves them, cell by cell, so the style
// table comes out the same.
func (g *Grid) hold(f *excelize.File, st *styles, heights map[int]float64) (bool, error) {
	if !g.withinLimits(heights) {
		return false, nil // SetRow refuses the grid, in its words
	}
	h := &held{ids: map[string]int{}, heights: heights}
	for _, r := range g.rows {
		for _, c := range r {
			if !written(c) {
				continue
			}
			id, err := st.id(c.style)
			if err != nil {
				return false, err
			}
			// A cell without a style takes its row's or column's in the
			// sheet excelize read, which only excelize knows.
			if id == 0 || !writable(c) || !h.day(f, c) {
				return false, nil
			}
			h.ids[c.style] = id
		}
	}
	g.held = h
	return true, nil
}

// withinLimits reports whether SetRow takes every row: no more columns
// than Excel has, no row taller than it allows.
func (g *Grid) withinLimits(heights map[int]float64) bool {
	for _, h := range heights {
		if h > excelize.MaxRowHeight {
			return false
		}
	}
	for _, r := range g.rows {
		if len(r) > excelize.MaxColumns {
			return false
		}
	}
	return true
}

// day reports whether the cell holds no time, or one excelize writes as a
// number of days, as WriteRows does: not one before the workbook's
// calendar begins, which excelize writes as text. The calendar is read at
// the first time, as SetRow reads it.
func (h *held) day(f *excelize.File, c Cell) bool {
	t, ok := c.value.(time.Time)
	if !ok {
		return true
	}
	if !h.dated {
		props, err := f.GetWorkbookProps()
		if err != nil {
			return false
		}
		h.dated, h.date1904 = true, props.Date1904 != nil && *props.Date1904
	}
	return excelTime(t, h.date1904) > 0
}

// writable reports whether WriteRows writes the cell's value as SetRow
// does: a finite number, a boolean, a day, or text that excelize neither
// cuts (past TotalCellChars) nor escapes as _xHHHH_.
func writable(c Cell) bool {
	switch v := c.value.(type) {
	case nil, int, bool, time.Time:
		return true
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case string:
		return len(v) <= excelize.TotalCellChars && !strings.Contains(v, "_x")
	}
	return false
}

// WriteRows writes the <row> elements of a grid WriteForPacking left out
// of its sheet's part, with the bytes excelize's StreamWriter.SetRow would
// have written but for a row's formulas filled right, written as one
// shared formula (shared.go), and nothing for a grid whose rows went into
// the part. A
// large grid's rows were written as the grid was (see freeze) and are only
// decompressed here; a small one's are written from its cells. Either way
// they are written once: the grid holds nothing of them after.
func (g *Grid) WriteRows(w io.Writer) error {
	if g.frozen != nil {
		return g.writeFrozen(w)
	}
	if g.held == nil {
		return nil
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	g.writeHeld(bw)
	return bw.Flush()
}

// writeHeld writes the rows held for packing and lets each go.
func (g *Grid) writeHeld(w *bufio.Writer) {
	h := g.held
	for i, r := range g.rows {
		if len(r) == 0 {
			continue
		}
		h.row(w, i+1, r)
		g.rows[i] = nil
	}
	g.rows, g.held = nil, nil
}

// row writes one row as SetRow writes it from column A, its runs of one
// formula filled right shared.
func (h *held) row(w *bufio.Writer, n int, cells []Cell) {
	row := strconv.Itoa(n)
	w.WriteString(`<row r="`)
	w.WriteString(row)
	w.WriteByte('"')
	if ht, ok := h.heights[n]; ok && ht > 0 {
		w.WriteString(` ht="`)
		w.WriteString(strconv.FormatFloat(ht, 'f', -1, 64))
		w.WriteString(`" customHeight="1"`)
	}
	w.WriteByte('>')
	runs := h.runs(cells)
	for j, c := range cells {
		if !written(c) {
			continue
		}
		for len(runs) > 0 && runs[0].last < j {
			runs = runs[1:]
		}
		as := formulaAs{si: -1}
		if len(runs) > 0 && runs[0].first <= j {
			as = formulaAs{si: runs[0].si, dependent: j > runs[0].first}
			if !as.dependent {
				as.ref = h.column(j) + row + ":" + h.column(runs[0].last) + row
			}
		}
		h.cell(w, h.column(j)+row, c, as)
	}
	w.WriteString(`</row>`)
}

// written reports whether row writes the cell: one without a value or a
// style is left out, as SetRow leaves it.
func written(c Cell) bool { return c.value != nil || c.style != "" }

// formulaAs is how a cell's formula is written: in full (si -1), or as
// shared formula si, the first of its run (over cells ref) or a later one.
type formulaAs struct {
	si        int
	ref       string
	dependent bool
}

// column is the name of the 0-based column j.
func (h *held) column(j int) string {
	for len(h.names) <= j {
		h.names = append(h.names, excelizeColumn(len(h.names)+1))
	}
	return h.names[j]
}

func excelizeColumn(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name
}

// cell writes one cell as excelize's writeCell writes the cell SetRow
// makes of an excelize.Cell with its style, value and formula.
func (h *held) cell(w *bufio.Writer, ref string, c Cell, as formulaAs) {
	s, text := c.value.(string)
	t, v := h.typed(c)
	w.WriteString(`<c`)
	if text && c.formula != "" && preserved(s) {
		w.WriteString(` xml:space="preserve"`)
	}
	w.WriteString(` r="`)
	w.WriteString(ref)
	w.WriteString(`" s="`)
	w.WriteString(strconv.Itoa(h.ids[c.style]))
	w.WriteByte('"')
	if t != "" {
		w.WriteString(` t="`)
		w.WriteString(t)
		w.WriteByte('"')
	}
	w.WriteByte('>')
	switch {
	case as.dependent:
		w.WriteString(`<f t="shared" si="`)
		w.WriteString(strconv.Itoa(as.si))
		w.WriteString(`"/>`)
	case as.si >= 0:
		w.WriteString(`<f t="shared" ref="`)
		w.WriteString(as.ref)
		w.WriteString(`" si="`)
		w.WriteString(strconv.Itoa(as.si))
		w.WriteString(`">`)
		c.withFormula(func(f string) { escape(w, f, false) })
		w.WriteString(`</f>`)
	case c.formula != "":
		w.WriteString(`<f>`)
		c.withFormula(func(f string) { escape(w, f, false) })
		w.WriteString(`</f>`)
	}
	switch {
	case text && c.formula != "":
		if s != "" {
			w.WriteString(`<v>`)
			escape(w, s, false)
			w.WriteString(`</v>`)
		}
	case text:
		w.WriteString(`<is><t`)
		if preserved(s) {
			w.WriteString(` xml:space="preserve"`)
		}
		w.WriteByte('>')
		escape(w, s, true)
		w.WriteString(`</t></is>`)
	case v != "":
		w.WriteString(`<v>`)
		w.WriteString(v) // digits, a sign and a point: nothing to escape
		w.WriteString(`</v>`)
	}
	w.WriteString(`</c>`)
}

// typed is the cell's type (t) and, but for text, its value as excelize
// sets them: a formula's cell is "str" until its value says otherwise.
func (h *held) typed(c Cell) (t, v string) {
	switch val := c.value.(type) {
	case float64:
		return "", formatFloat(val)
	case int:
		return "", strconv.Itoa(val)
	case bool:
		if val {
			return "b", "1"
		}
		return "b", "0"
	case time.Time:
		return "", strconv.FormatFloat(excelTime(val, h.date1904), 'f', -1, 64)
	case string:
		if c.formula == "" {
			return "inlineStr", ""
		}
	}
	if c.formula != "" {
		return "str", ""
	}
	return "", ""
}

// preserved reports whether excelize marks the text xml:space="preserve":
// it starts or ends with a space, tab or line break.
func preserved(s string) bool {
	if s == "" {
		return false
	}
	for _, b := range []byte{9, 10, 13, 32} {
		if s[0] == b || s[len(s)-1] == b {
			return true
		}
	}
	return false
}

// escape writes s as xml.EscapeText does; with lines, line breaks stay
// as they are, as excelize keeps them in inline text.
func escape(w *bufio.Writer, s string, lines bool) {
	if escapeASCII(w, s, lines) {
		return
	}
	if !lines || !strings.Contains(s, "\n") {
		_ = xml.EscapeText(w, []byte(s))
		return
	}
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	w.WriteString(strings.ReplaceAll(b.String(), "&#xA;", "\n"))
}

// asciiEscapes is what xml.EscapeText writes for each byte of ASCII it
// does not keep: a control character XML does not allow becomes U+FFFD.
var asciiEscapes = func() (t [utf8.RuneSelf]string) {
	for b := range 0x20 {
		t[b] = "\uFFFD"
	}
	t['\t'], t['\n'], t['\r'] = "&#x9;", "&#xA;", "&#xD;"
	t['"'], t['\''], t['&'], t['<'], t['>'] = "&#34;", "&#39;", "&amp;", "&lt;", "&gt;"
	return t
}()

// escapeASCII writes s as escape does when s is ASCII, reporting whether
// it was: byte by byte from asciiEscapes, without decoding runes or
// copying s. Live formulas quote sheets and text, and escaping them took
// a tenth of an eval of thousands of offers.
func escapeASCII(w *bufio.Writer, s string, lines bool) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	last := 0
	for i := 0; i < len(s); i++ {
		esc := asciiEscapes[s[i]]
		if esc == "" || lines && s[i] == '\n' {
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(esc)
		last = i + 1
	}
	w.WriteString(s[last:])
	return true
}

// formatFloat is a number as excelize writes a float64 cell: the shortest
// decimal that reads back as it, cut to Excel's 15 significant digits.
func formatFloat(value float64) string {
	str := strconv.FormatFloat(value, 'f', -1, 64)
	if math.Abs(value) == math.MaxFloat64 {
		return str
	}
	const maxPrec = 15
	decimal := strings.IndexByte(str, '.')
	significant := 0
	for idx := range str {
		if str[idx] < '0' || str[idx] > '9' || significant == 0 && str[idx] == '0' {
			continue
		}
		significant++
		if significant <= maxPrec {
			continue
		}
		if decimal >= 0 && idx > decimal {
			return strings.TrimSuffix(str[:idx], ".")
		}
		if decimal < 0 {
			decimal = len(str)
		}
		truncated := []byte(str[:decimal])
		for ; idx < len(truncated); idx++ {
			truncated[idx] = '0'
		}
		return string(truncated)
	}
	return str
}

// The days excelize counts a time from, and the day from which it counts
// one more for the 29 February 1900 Excel believes in.
var (
	excelMinTime1900      = time.Date(1899, time.December, 31, 0, 0, 0, 0, time.UTC)
	excel1904Epoch        = time.Date(1904, time.January, 1, 0, 0, 0, 0, time.UTC)
	excelBuggyPeriodStart = time.Date(1900, time.March, 1, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)
)

// excelTime is the serial number excelize writes for a time in a cell,
// its wall clock read as UTC; 0 before the calendar's first day.
func excelTime(t time.Time, date1904 bool) float64 {
	_, offset := t.In(t.Location()).Zone()
	t = t.Add(time.Duration(offset) * time.Second)
	date := excelMinTime1900
	if date1904 {
		date = excel1904Epoch
	}
	if t.Before(date) {
		return 0
	}
	const day = 24 * time.Hour
	const maxDuration = 290 * 364 * day
	tt, diff, result := t, t.Sub(date), 0.0
	for diff >= maxDuration {
		result += float64(maxDuration / day)
		tt = tt.Add(-maxDuration)
		diff = tt.Sub(date)
	}
	rem := diff % day
	result += float64(diff-rem)/float64(day) + float64(rem)/float64(day)
	if !date1904 && t.After(excelBuggyPeriodStart) {
		result++
	}
	return result
}
