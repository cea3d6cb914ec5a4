package facts_test

import (
	"strings"
	"testing"

	"planner/engine"
	"planner/facts"
	"planner/workbooks"
)

// show prints no blank field of the default workbook as a zero.
func TestDefaultWorkbookShowsNoBlankAsZero(t *testing.T) {
	for _, f := range facts.Of(workbooks.DefaultModel()) {
		for _, zero := range []string{"(0B active)", " 0 bytes per param", "precision -", `offer ""`, `scenario ""`} {
			if strings.Contains(f.Value, zero) {
				t.Errorf("%s: shows %q for a blank field", f, zero)
			}
		}
	}
}

// The fingerprint hashes the facts' canonical form, which keeps blank
// fields as zeros, not show's wording: a default workbook made before the
// cost of capital, maintenance, staff and network rows has the one its
// Results sheets have always carried, so that upgrading planner does not
// report a workbook nobody edited as edited.
func TestFingerprintIgnoresShowsWording(t *testing.T) {
	m := workbooks.DefaultModel()
	older := m
	older.Inputs = nil
	for _, in := range m.Inputs {
		switch in.Name {
		case engine.CostOfCapital, engine.MaintenancePerYear, engine.StaffPerMonth, engine.NetworkPerMonth:
		default:
			older.Inputs = append(older.Inputs, in)
		}
	}
	if got := facts.Fingerprint(older); got != "9b20140a007c" {
		t.Errorf("the older default workbook's fingerprint is %s, want 9b20140a007c", got)
	}
	if facts.Fingerprint(m) == "9b20140a007c" {
		t.Error("the later inputs are in the default workbook, and the fingerprint did not change")
	}
	// A value that decides a number still moves it.
	m.Catalog[0].ActiveParamsB = 3
	if facts.Fingerprint(m) == "9b20140a007c" {
		t.Error("active parameters given, and the fingerprint did not change")
	}
}
