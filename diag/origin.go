package diag

import "fmt"

// Origin says where a name, a value or an expression came from, so that
// every message can point at it: a workbook cell or a line of a library file.
type Origin struct {
	File  string // workbook path or library file name
	Sheet string // sheet name; empty for library files
	Row   int    // 1-based row of the cell; 0 when not a cell
	Col   int    // 1-based column of the cell; 0 when not a cell
	Line  int    // 1-based line in a library file; 0 for cells
}

// Cell returns the A1-style reference of the origin's cell, or "".
func (o Origin) Cell() string {
	if o.Row == 0 || o.Col == 0 {
		return ""
	}
	return ColumnName(o.Col) + fmt.Sprint(o.Row)
}

// Where is the short place name used inside messages: "Formulas!B7" or
// "owning.expr:12".
func (o Origin) Where() string {
	switch {
	case o.Sheet != "" && o.Row > 0:
		return o.Sheet + "!" + o.Cell()
	case o.Sheet != "":
		return o.Sheet
	case o.Line > 0:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	}
	return o.File
}

// String is the full place name that starts a message:
// "plan.xlsx: Formulas!B7" or "owning.expr:12".
func (o Origin) String() string {
	if o.Sheet != "" && o.File != "" {
		return o.File + ": " + o.Where()
	}
	return o.Where()
}

// Less orders origins by file, sheet, row, column and line, the order in which
// problems are reported.
func (o Origin) Less(p Origin) bool {
	if o.File != p.File {
		return o.File < p.File
	}
	if o.Sheet != p.Sheet {
		return o.Sheet < p.Sheet
	}
	if o.Row != p.Row {
		return o.Row < p.Row
	}
	if o.Col != p.Col {
		return o.Col < p.Col
	}
	return o.Line < p.Line
}

// ColumnName turns a 1-based column number into its letters: 1 -> A, 28 -> AB.
func ColumnName(col int) string {
	var b []byte
	for col > 0 {
		col--
		b = append([]byte{byte('A' + col%26)}, b...)
		col /= 26
	}
	return string(b)
}
