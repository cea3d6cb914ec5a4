package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errorPageEdits are, for each block of messages docs/errors.md shows, the
// cells typed into the default workbook that make eval print them, in the
// page's order.
var errorPageEdits = []map[string]any{
	{"Assumptions!B6": "abc", "Assumptions!B11": "0,12"},
	{"Formulas!B8": "monthly_rate == 0 ? per_gpu_capex * (1 - residul) / amortization_hours : capital_per_month / gpus / hours_per_month"},
	{"Formulas!B9": "power_per_month / 100"},
	{"Assumptions!B14": 0.0},
	{"Scenarios!F3": "H2OO"},
}

// Every message docs/errors.md shows is what eval prints of the edit the
// page describes: each block of messages, line for line, is the standard
// error of one eval of the default workbook with its block's cells typed
// (a line "…" standing for any lines), and the eval fails.
func TestErrorSamplesAreRuns(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := plainBlocks(string(data))
	if len(blocks) != len(errorPageEdits) {
		t.Fatalf("docs/errors.md shows %d blocks of messages; the test types the edits of %d", len(blocks), len(errorPageEdits))
	}
	for i, block := range blocks {
		dir := t.TempDir()
		plan := initPlan(t, dir, "plan.xlsx")
		setCells(t, plan, errorPageEdits[i])
		code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx")
		want := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
		got := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		if code != 1 || !matchesSample(want, got) {
			t.Errorf("docs/errors.md, block %d: eval exits %d and prints\n%s\nwhere the page shows\n%s", i+1, code, errs, block)
		}
	}
}
