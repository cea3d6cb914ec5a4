package diag

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Severity says whether a diagnostic stops a run.
type Severity uint8

const (
	// Error is a problem planner cannot compute past: the run fails and
	// the workbook is left as it was. It is the zero value, so that a
	// Diagnostic written without one is an error.
	Error Severity = iota
	// Warning is worth the user's attention but does not stop the run.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one error or warning, placed as precisely as it can be: the
// cell or library line, and the column inside the expression.
type Diagnostic struct {
	Severity Severity
	Origin   Origin
	Name     string // the formula or input the problem belongs to, when known
	Column   int    // 1-based column in the expression; 0 when the whole cell is meant
	Msg      string
	Snippet  string // the expression and a caret under Column, as expr prints it
}

// Warningf is a warning at origin about name (which may be empty).
func Warningf(origin Origin, name, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Warning, Origin: origin, Name: name, Msg: fmt.Sprintf(format, args...)}
}

// Error is the whole message: place, name, text and snippet, on one line
// but for the snippet.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if place := d.Origin.String(); place != "" {
		b.WriteString(place)
		if d.Column > 0 {
			fmt.Fprintf(&b, ":%d", d.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(d.Text())
	return b.String()
}

// Text is the message without its place: name, text and snippet.
func (d *Diagnostic) Text() string {
	var b strings.Builder
	if d.Name != "" {
		b.WriteString(lineBreaks.Replace(d.Name))
		b.WriteString(": ")
	}
	b.WriteString(lineBreaks.Replace(d.Msg))
	b.WriteString(d.Snippet)
	return b.String()
}

// lineBreaks shows the line breaks of names and messages, which quote what
// a workbook holds, as \n: one problem stays one line, and text in a cell
// cannot pass for a line planner printed. Only the snippet under a formula
// spans lines.
var lineBreaks = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// Place is where the diagnostic belongs; lists are sorted by it.
func (d *Diagnostic) Place() Origin { return d.Origin }

// Diagnostics is every problem found in one pass. Its members are errors:
// *Diagnostic values, or other errors that may know their place.
type Diagnostics []error

func (l Diagnostics) Error() string {
	msgs := make([]string, len(l))
	for i, err := range l {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find any of the listed errors.
func (l Diagnostics) Unwrap() []error { return l }

// Err returns a copy of the list sorted by place as an error, or nil when
// it is empty. The list itself stays as it is, so that a list kept in a
// value others read at once (a Plan's warnings) can be reported from many
// goroutines.
func (l Diagnostics) Err() error {
	if len(l) == 0 {
		return nil
	}
	sorted := slices.Clone(l)
	sort.SliceStable(sorted, func(i, j int) bool {
		return placeOf(sorted[i]).Less(placeOf(sorted[j]))
	})
	return sorted
}

// placed is implemented by errors that know where they belong.
type placed interface{ Place() Origin }

func placeOf(err error) Origin {
	var p placed
	if errors.As(err, &p) {
		return p.Place()
	}
	return Origin{}
}

// AsWarnings is the list with every member a warning: a copy of each
// *Diagnostic with its severity set, and any other error wrapped into one.
// A function that returns what the user should hear, but that does not stop
// the run, passes its list through it.
func (l Diagnostics) AsWarnings() Diagnostics {
	if l == nil {
		return nil
	}
	out := make(Diagnostics, len(l))
	for i, err := range l {
		var w Diagnostic
		if d, ok := err.(*Diagnostic); ok {
			w = *d
		} else {
			w = Diagnostic{Msg: err.Error()} // which says its place, if it knows it
		}
		w.Severity = Warning
		out[i] = &w
	}
	return out
}
