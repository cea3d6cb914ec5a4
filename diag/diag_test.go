package diag

import (
	"errors"
	"fmt"
	"testing"
)

func TestOriginPlaces(t *testing.T) {
	tests := []struct {
		o     Origin
		where string
		full  string
	}{
		{Origin{File: "plan.xlsx", Sheet: "Formulas", Row: 7, Col: 2}, "Formulas!B7", "plan.xlsx: Formulas!B7"},
		{Origin{File: "plan.xlsx", Sheet: "Assumptions"}, "Assumptions", "plan.xlsx: Assumptions"},
		{Origin{File: "formulas/library/1-owning.expr", Line: 12}, "formulas/library/1-owning.expr:12", "formulas/library/1-owning.expr:12"},
		{Origin{Sheet: "Cloud", Row: 2, Col: 28}, "Cloud!AB2", "Cloud!AB2"},
	}
	for _, tt := range tests {
		if got := tt.o.Where(); got != tt.where {
			t.Errorf("Where() = %q, want %q", got, tt.where)
		}
		if got := tt.o.String(); got != tt.full {
			t.Errorf("String() = %q, want %q", got, tt.full)
		}
	}
}

func TestListSortsByPlace(t *testing.T) {
	l := Diagnostics{
		&Diagnostic{Origin: Origin{File: "plan.xlsx", Sheet: "Formulas", Row: 9, Col: 2}, Msg: "b"},
		&Diagnostic{Origin: Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: 3, Col: 2}, Msg: "a"},
		&Diagnostic{Origin: Origin{File: "plan.xlsx", Sheet: "Formulas", Row: 2, Col: 2}, Msg: "c"},
	}
	want := "plan.xlsx: Assumptions!B3: a\nplan.xlsx: Formulas!B2: c\nplan.xlsx: Formulas!B9: b"
	if got := l.Err().Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if (Diagnostics{}).Err() != nil {
		t.Error("an empty list is not an error")
	}
}

func TestWarningsAreDiagnosticsToo(t *testing.T) {
	at := Origin{File: "plan.xlsx", Sheet: "Cloud", Row: 2, Col: 5}
	w := Warningf(at, "RunPod H100 SXM, Community", "the price is %d days old", 142)
	if w.Severity != Warning || w.Severity.String() != "warning" {
		t.Errorf("Warningf made a %s", w.Severity)
	}
	if got, want := w.Error(), "plan.xlsx: Cloud!E2: RunPod H100 SXM, Community: the price is 142 days old"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := w.Text(), "RunPod H100 SXM, Community: the price is 142 days old"; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	e := &Diagnostic{Origin: at, Msg: "line one\nline two"}
	if e.Severity.String() != "error" || e.Error() != `plan.xlsx: Cloud!E2: line one\nline two` {
		t.Errorf("a diagnostic without a severity: %s %q", e.Severity, e.Error())
	}
	ws := Diagnostics{e, errors.New("plain")}.AsWarnings()
	if len(ws) != 2 || ws[0].(*Diagnostic).Severity != Warning || ws[1].(*Diagnostic).Msg != "plain" || ws[1].(*Diagnostic).Severity != Warning {
		t.Errorf("AsWarnings = %#v", ws)
	}
	if e.Severity != Error {
		t.Error("AsWarnings changed the diagnostic it was given")
	}
}

func TestErrLeavesTheListAlone(t *testing.T) {
	b := &Diagnostic{Origin: Origin{File: "plan.xlsx", Sheet: "Cloud", Row: 3, Col: 1}, Msg: "b"}
	a := &Diagnostic{Origin: Origin{File: "plan.xlsx", Sheet: "Cloud", Row: 2, Col: 1}, Msg: "a"}
	l := Diagnostics{b, a}
	if got := l.Err().Error(); got != "plan.xlsx: Cloud!A2: a\nplan.xlsx: Cloud!A3: b" {
		t.Errorf("Err() = %q", got)
	}
	if l[0] != b {
		t.Error("Err sorted the list it was called on")
	}
	wrapped := Diagnostics{fmt.Errorf("wrapped: %w", a)}.AsWarnings()
	if got := wrapped[0].Error(); got != "wrapped: plan.xlsx: Cloud!A2: a" {
		t.Errorf("a wrapped error as a warning: %q, want its place once", got)
	}
}
