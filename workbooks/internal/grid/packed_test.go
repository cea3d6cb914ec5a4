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
