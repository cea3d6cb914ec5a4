package cols

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// maxColumns is Excel's last column, XFD; excelize ignores columns past it.
const maxColumns = 16384

// col is one <col> element as excelize's stream writer writes it: min and
// max, then the width (` width="…" customWidth="1"`, or nothing), then the
// rest (style, hidden, outline level) as it wrote them.
type col struct {
	min, max    int
	width, rest string
}

// Splice gives the sheet part, as excelize's stream writer wrote it
// without widths, the <cols> it would have written had it been given
// widths[i] for column i+1, one column at a time from A. Those calls keep
// what the sheet's old columns carry beyond their width (a style, hidden,
// an outline level), list each column on its own, the last set first, and
// keep after them the old columns past the widths', with their old widths.
// No widths leave the part as it is.
func Splice(part []byte, widths []float64) ([]byte, error) {
	if len(widths) == 0 {
		return part, nil
	}
	at := bytes.Index(part, []byte("<sheetData>"))
	if at < 0 {
		return nil, fmt.Errorf("the sheet has no <sheetData> to put its columns before")
	}
	from, old := at, ""
	if bytes.HasSuffix(part[:at], []byte("</cols>")) {
		from = bytes.LastIndex(part[:at], []byte("<cols>"))
		old = string(part[from+len("<cols>") : at-len("</cols>")])
	}
	olds, err := parse(old)
	if err != nil {
		return nil, err
	}
	// Each old column on its own, in the order its first element lists
	// it, with that element's width and the last element's rest.
	var flat []col
	index := map[int]int{}
	for _, c := range olds {
		for i := max(1, c.min); i <= min(maxColumns, c.max); i++ {
			if k, ok := index[i]; ok {
				flat[k].rest = c.rest
				continue
			}
			index[i] = len(flat)
			flat = append(flat, col{min: i, max: i, width: c.width, rest: c.rest})
		}
	}
	var b bytes.Buffer
	b.Grow(len(part) + 64*(len(widths)+len(flat)))
	b.Write(part[:from])
	b.WriteString("<cols>")
	for i := len(widths); i >= 1; i-- {
		c := col{min: i, max: i, width: ` width="` + strconv.FormatFloat(widths[i-1], 'f', -1, 64) + `" customWidth="1"`}
		if k, ok := index[i]; ok {
			c.rest = flat[k].rest
		}
		c.write(&b)
	}
	for _, c := range flat {
		if c.min > len(widths) {
			c.write(&b)
		}
	}
	b.WriteString("</cols>")
	b.Write(part[at:])
	return b.Bytes(), nil
}

func (c col) write(b *bytes.Buffer) {
	b.WriteString(`<col min="`)
	b.WriteString(strconv.Itoa(c.min))
	b.WriteString(`" max="`)
	b.WriteString(strconv.Itoa(c.max))
	b.WriteString(`"`)
	b.WriteString(c.width)
	b.WriteString(c.rest)
	b.WriteString(`/>`)
}

// parse reads the <col> elements excelize's stream writer wrote.
func parse(s string) ([]col, error) {
	var out []col
	for s != "" {
		body, after, ok := strings.Cut(s, "/>")
		body, found := strings.CutPrefix(body, `<col min="`)
		if !ok || !found {
			return nil, fmt.Errorf("the sheet's columns are not as excelize writes them: %.40q", s)
		}
		s = after
		lo, body, _ := strings.Cut(body, `" max="`)
		hi, rest, _ := strings.Cut(body, `"`)
		c := col{rest: rest}
		var err error
		if c.min, err = strconv.Atoi(lo); err != nil {
			return nil, fmt.Errorf("the sheet's columns are not as excelize writes them: %w", err)
		}
		if c.max, err = strconv.Atoi(hi); err != nil {
			return nil, fmt.Errorf("the sheet's columns are not as excelize writes them: %w", err)
		}
		if w, ok := strings.CutPrefix(rest, ` width="`); ok {
			v, tail, ok := strings.Cut(w, `" customWidth="1"`)
			if !ok {
				return nil, fmt.Errorf("the sheet's columns are not as excelize writes them: %.40q", rest)
			}
			c.width, c.rest = ` width="`+v+`" customWidth="1"`, tail
		}
		out = append(out, c)
	}
	return out, nil
}

// Set gives the sheet of f the widths, widths[i] to column i+1, in one
// call to excelize's SetColWidth for each range of adjacent columns of
// equal width, not one for each column: each column gets the width widths
// gives it, all that a chart's anchor is measured by, but the order
// excelize lists them in (which Splice keeps) is not the one a column at a
// time gives.
func Set(f *excelize.File, sheet string, widths []float64) error {
	for from := 0; from < len(widths); {
		to := from + 1
		for to < len(widths) && widths[to] == widths[from] {
			to++
		}
		first, err := excelize.ColumnNumberToName(from + 1)
		if err != nil {
			return err
		}
		last, err := excelize.ColumnNumberToName(to)
		if err != nil {
			return err
		}
		if err := f.SetColWidth(sheet, first, last, widths[from]); err != nil {
			return err
		}
		from = to
	}
	return nil
}
