package formulas

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error is a problem with one formula or one name, placed as precisely as it
// can be: the cell or library line, and the column inside the expression.
type Error struct {
	Origin  Origin
	Name    string // the formula or input the problem belongs to, when known
	Column  int    // 1-based column in the expression; 0 when the whole cell is meant
	Msg     string
	Snippet string // the expression and a caret under Column, as expr prints it
}

func (e *Error) Error() string {
	var b strings.Builder
	if place := e.Origin.String(); place != "" {
		b.WriteString(place)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
		b.WriteString(": ")
	}
	if e.Name != "" {
		b.WriteString(lineBreaks.Replace(e.Name))
		b.WriteString(": ")
	}
	b.WriteString(lineBreaks.Replace(e.Msg))
	b.WriteString(e.Snippet)
	return b.String()
}

// lineBreaks shows the line breaks of names and messages, which quote what
// a workbook holds, as \n: one problem stays one line, and text in a cell
// cannot pass for a line planner printed. Only the snippet under a formula
// spans lines.
var lineBreaks = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// Place is where the error belongs; lists of errors are sorted by it.
func (e *Error) Place() Origin { return e.Origin }

// List is every problem found in one pass, sorted by place, so that a user
// can fix them all at once instead of one per run.
type List []error

func (l List) Error() string {
	msgs := make([]string, len(l))
	for i, err := range l {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find any of the listed errors.
func (l List) Unwrap() []error { return l }

// Err returns the list sorted by place as an error, or nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		return placeOf(l[i]).Less(placeOf(l[j]))
	})
	return l
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
