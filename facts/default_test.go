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
// fields as zeros, not show's wording: the default workbook's is the one
// its Results sheets have always carried, so that upgrading planner does
// not report a workbook nobody edited as edited.
func TestFingerprintIgnoresShowsWording(t *testing.T) {
	m := workbooks.DefaultModel()
	if got := facts.Fingerprint(m); got != "e4b0f31047f6" {
		t.Errorf("the default workbook's fingerprint is %s, want e4b0f31047f6", got)
	}
	// A value that decides a number still moves it.
	m.Catalog[0].ActiveParamsB = 3
	if facts.Fingerprint(m) == "e4b0f31047f6" {
		t.Error("active parameters given, and the fingerprint did not change")
	}
}
