package formulas

import (
	"planner/diag"
	"strings"
)

// Formula is one named formula.
type Formula struct {
	Name   string      // the name other formulas and the workbook use
	Source string      // the expression, in expr syntax
	Unit   string      // e.g. "$/GPU-h", "%", "kW"
	Doc    string      // one or two sentences for a reader
	Label  string      // what a reader calls it: "Capital per GPU-hour"; "" for none (see Label)
	Origin diag.Origin // where the expression was written
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
