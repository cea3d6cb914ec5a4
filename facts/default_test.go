package facts_test

import (
	"strings"
	"testing"

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
// fields as zeros, not show's wording. The default workbook's is pinned:
// it changes only with the built-in formulas or the default inputs (last:
// the cost of capital, maintenance, staff and network, and the 70B
// service's throughput), since every workbook's Results then reads as out
// of date.
func TestFingerprintIgnoresShowsWording(t *testing.T) {
	m := workbooks.DefaultModel()
	if got := facts.Fingerprint(m); got != "9123223fde26" {
		t.Errorf("the default workbook's fingerprint is %s, want 9123223fde26", got)
	}
	// A value that decides a number still moves it.
	m.Catalog[0].ActiveParamsB = 3
	if facts.Fingerprint(m) == "9123223fde26" {
		t.Error("active parameters given, and the fingerprint did not change")
	}
}
