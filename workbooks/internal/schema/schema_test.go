package schema

import "testing"

func TestHeaderKey(t *testing.T) {
	for in, want := range map[string]string{"$/GPU-hour": "gpuhour", "source / notes": "sourcenotes", " Memory GB ": "memorygb", "input:output token mix": "inputoutputtokenmix"} {
		if got := HeaderKey(in); got != want {
			t.Errorf("HeaderKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEachHeaderNamesOneColumn holds what the reader relies on: the header
// init writes, and every alias, names its own column and no other of the
// sheet, and aliases are written as HeaderKey reduces them.
func TestEachHeaderNamesOneColumn(t *testing.T) {
	for _, s := range Inputs() {
		keys := map[string]bool{}
		for _, c := range s.Columns {
			if keys[c.Key] {
				t.Errorf("%s: key %s twice", s.Name, c.Key)
			}
			keys[c.Key] = true
			for _, h := range append([]string{c.Header}, c.Aliases...) {
				for _, other := range s.Columns {
					if got, want := other.Accepts(h), other.Key == c.Key; got != want {
						t.Errorf("%s: %q names column %s: %v", s.Name, h, other.Key, got)
					}
				}
			}
			for _, a := range c.Aliases {
				if HeaderKey(a) != a {
					t.Errorf("%s: alias %q is not reduced (%q)", s.Name, a, HeaderKey(a))
				}
			}
			if c.Width <= 0 {
				t.Errorf("%s: column %s has no width", s.Name, c.Key)
			}
		}
	}
}

// TestPicksNameSheetsWithNames: a column that picks from a sheet picks
// from one that lists names, down to a row.
func TestPicksNameSheetsWithNames(t *testing.T) {
	for _, s := range Inputs() {
		for _, c := range s.Columns {
			if c.Pick == "" || c.Pick == Precisions || c.Pick == Billings || c.Pick == Attentions || c.Pick == Offers {
				continue
			}
			if picked, ok := Named(c.Pick); !ok || picked.NamesTo == 0 {
				t.Errorf("%s: %s picks from %s, which lists no names", s.Name, c.Key, c.Pick)
			}
		}
	}
}

func TestCellsAndKeys(t *testing.T) {
	if got := Deployments.Cells("cards", 2, 201); got != "E2:E201" {
		t.Errorf("Cells = %s", got)
	}
	if got := Targets.Keys(); got != "name, notes" {
		t.Errorf("Keys = %s", got)
	}
	if got := (Names{"Formulas": "Formulas (planner)"}).Of("Formulas"); got != "Formulas (planner)" {
		t.Errorf("Of = %s", got)
	}
	if got := (Names{}).Of("Cloud"); got != "Cloud" {
		t.Errorf("Of = %s", got)
	}
}
