package grid

import (
	"strings"
	"testing"
)

// A formula reads back as it was written, packed or not, and a long one
// is held in less room than its text.
func TestFormulasReadBackAsWritten(t *testing.T) {
	payback := strings.Repeat(`IF(AND('Results'!$C$12>0,ROUNDUP('Results'!$C$9/'Results'!$C$31,0)<=Assumptions!$C$7),"ü € months",`, 60)
	formulas := []string{"", "A1", "\x00", "\x00A1", strings.Repeat("x", packFrom-1), strings.Repeat("y", packFrom), payback, "\x00" + payback}
	for _, f := range formulas {
		g := NewOwned("S", 1, 1, 10)
		g.Set(1, 1, Number(1, StyleResult))
		g.Link(1, 1, f)
		for where, c := range map[string]Cell{"Linked": Linked(Number(1, StyleResult), f), "Link": g.At(1, 1)} {
			if got := c.Formula(); got != f {
				t.Errorf("%s %.20q...: reads back as %.20q... (%d bytes of %d)", where, f, got, len(got), len(f))
			}
		}
	}
	if held := len(Linked(Number(1, StyleResult), payback).formula); held > len(payback)/4 {
		t.Errorf("a payback of %d bytes is held in %d", len(payback), held)
	}
}

// A row holds about the room of its cells: a Line's at once, a row set
// cell by cell across the sheet's columns no more than them; and a Line
// of nothing writes no row.
func TestRowsTakeTheRoomOfTheirCells(t *testing.T) {
	widths := make([]float64, 3000)
	g := NewOwned("S", 1, 1, widths...)
	for col := 1; col <= len(widths); col++ {
		g.Set(col, 1, Number(float64(col), StyleResult))
	}
	g.Line(2, Text("a", StyleLabel), Text("b", StyleLabel), Number(1, StyleResult), Number(2, StyleResult), Number(3, StyleResult))
	g.Line(3)
	if room := cap(g.rows[0]); room > len(widths)*11/10 {
		t.Errorf("a row of %d cells holds room for %d", len(widths), room)
	}
	if room := cap(g.rows[1]); room > 6 {
		t.Errorf("a Line of 5 cells holds room for %d", room)
	}
	if g.LastRow() != 2 {
		t.Errorf("a Line of no cells wrote row %d", g.LastRow())
	}
}
