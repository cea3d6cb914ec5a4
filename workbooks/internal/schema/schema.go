package schema

import (
	"strconv"
	"strings"
	"unicode"

	"planner/diag"
)

// Sheet is an input sheet: its name and, for a sheet read as a table (a
// header row, then one item per row), its columns in the order init
// writes them.
type Sheet struct {
	Name    string
	Columns []Column
	// Frozen are the columns kept in view left of the scroll, besides the
	// header row.
	Frozen int
	// NamesTo is the last row a drop-down of the names in the sheet's first
	// column reaches (rows added at the bottom included); 0 when no other
	// sheet picks from it.
	NamesTo int
}

// Column is a column of an input sheet's table.
type Column struct {
	Key    string // what planner reads the column by
	Header string // the header init writes
	// Aliases are other headers planner accepts, as HeaderKey reduces
	// them: a workbook of an older planner, or one a person made.
	Aliases  []string
	Required bool
	// Unit is the unit of the column's numbers, by which Excel refuses a
	// value the unit does not allow; "" for none.
	Unit string
	// Pick is the input sheet whose first column the column's cells pick
	// from (or Precisions); "" for none.
	Pick  string
	Width float64
}

// Precisions is the Pick of a column that names a precision: the ones
// planner knows, as a list of its own.
const Precisions = "precisions"

// Attentions is the Pick of a column that names an attention layout: the
// ones sizing knows, as a list of its own.
const Attentions = "attentions"

// Billings is the Pick of a column that names how an offer bills: the ways
// planner knows, as a list of its own.
const Billings = "billings"

// Offers is the Pick of a column that names another offer: the Cloud
// sheet's offer column.
const Offers = "offers"

// HeaderKey reduces a header text to letters and digits, lower case:
// "$/GPU-hour" -> "gpuhour", "source / notes" -> "sourcenotes".
func HeaderKey(s string) string {
	if reduced(s) {
		return s // most headers are one lower-case word: nothing to build
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func reduced(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Accepts reports whether a header text names the column.
func (c Column) Accepts(header string) bool { return c.acceptsKey(HeaderKey(header)) }

// commentary are the keys of the columns that hold words for people
// rather than figures planner computes with.
var commentary = map[string]bool{"notes": true, "source": true, "description": true, "label": true, "asof": true}

// Commentary reports whether the column holds words for people (notes, a
// source, a description, a label) or a price's as-of date, rather than a
// figure planner computes with: editing it leaves every figure as it was.
func (c Column) Commentary() bool { return commentary[c.Key] }

// KeyOf is the key of the first column a header text names, if any.
func (s Sheet) KeyOf(header string) (string, bool) {
	k := HeaderKey(header)
	for _, c := range s.Columns {
		if c.acceptsKey(k) {
			return c.Key, true
		}
	}
	return "", false
}

func (c Column) acceptsKey(k string) bool {
	if k == HeaderKey(c.Header) {
		return true
	}
	for _, a := range c.Aliases {
		if k == a {
			return true
		}
	}
	return false
}

// Headers are the headers init writes, in order.
func (s Sheet) Headers() []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Header
	}
	return out
}

// Widths are the columns' widths, in order.
func (s Sheet) Widths() []float64 {
	out := make([]float64, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Width
	}
	return out
}

// Keys lists the columns' keys as a message does: "name, value and unit"
// (diag.List).
func (s Sheet) Keys() string {
	keys := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		keys[i] = c.Key
	}
	return diag.List(keys)
}

// At is the 1-based position of the column of key, as init writes it. An
// unknown key is planner's own mistake, so it panics.
func (s Sheet) At(key string) int {
	for i, c := range s.Columns {
		if c.Key == key {
			return i + 1
		}
	}
	panic("schema: " + s.Name + " has no column " + key)
}

// Column is the column of key (see At).
func (s Sheet) Column(key string) Column { return s.Columns[s.At(key)-1] }

// Cells are the column of key's cells as init writes them, from row first
// to row last: "E2:E201".
func (s Sheet) Cells(key string, first, last int) string {
	col := diag.ColumnName(s.At(key))
	return col + strconv.Itoa(first) + ":" + col + strconv.Itoa(last)
}

// Names says which sheet of a workbook each input sheet is, by the input
// sheet's name (Assumptions, …): the sheet of that name, or the one init
// named otherwise because the workbook had a sheet of its own so named.
type Names map[string]string

// Of is the sheet of the input sheet called input.
func (n Names) Of(input string) string {
	if s, ok := n[input]; ok {
		return s
	}
	return input
}

// CarriedName is the defined name by which init tells eval where it wrote
// the input sheet called input under another name: it points at that
// sheet's first cell, and Excel keeps it pointing there when the sheet is
// renamed.
func CarriedName(input string) string { return "planner_sheet_" + input }
