package formulas

import (
	"fmt"
	"strings"
)

// Formula is one named formula.
type Formula struct {
	Name   string // the name other formulas and the workbook use
	Source string // the expression, in expr syntax
	Unit   string // e.g. "$/GPU-h", "%", "kW"
	Doc    string // one or two sentences for a reader
	Origin Origin // where the expression was written
}

// Origin says where a name or an expression came from, so that every error can
// point at it: a workbook cell or a line of a library file.
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

// String is the full place name that starts an error message:
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

// ValidName reports whether s can name an input or a formula: a letter or _
// followed by letters, digits and _, and not a word or function of the
// language itself.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return !reserved[strings.ToLower(s)] && !isFunction(s)
}

// reserved are words expr gives a meaning of its own; a name spelled like one
// could never be referenced from a formula.
var reserved = map[string]bool{
	"true": true, "false": true, "nil": true, "and": true, "or": true, "not": true,
	"in": true, "matches": true, "contains": true, "startswith": true, "endswith": true,
	"let": true, "if": true, "else": true,
}
