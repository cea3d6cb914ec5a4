package main

import (
	"bytes"
	"maps"
	"path/filepath"
	"slices"
	"testing"
)

// The live flags watch every input sheet planner's own figures are
// computed from, not only the inputs and offers: after LibreOffice
// recalculates, an edit of a GPU's watts, a model's size, a formula, a
// deployment row added at the bottom, a scenario added to the right or a
// value typed into an empty cell turns the Fleet's flag stale, and the
// close calls' flag on Results unless the edit is of a model or a
// deployment, which Monte Carlo's verdicts do not read; an edited note or
// source leaves both up to date, as does no edit at all.
func TestLibreOfficeFlagsAnEditOfAnyInputSheet(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	edits := map[string]map[string]any{
		"watts.xlsx":      {"GPUs!C2": 650.0},
		"model.xlsx":      {"Models!B2": 9.0},
		"formula.xlsx":    {"Formulas!B5": "pow(1 + monthly_rate, -amortization_months) * 1"},
		"deployment.xlsx": {"Deployments!A13": "another 8B assistant", "Deployments!B13": "Llama 3.1 8B", "Deployments!D13": "RTX 5090", "Deployments!F13": 2.0},
		"scenario.xlsx":   {"Scenarios!I1": "cheap power", "Scenarios!A7": "electricity_price", "Scenarios!I7": 0.05},
		"upfront.xlsx":    {"Cloud!J2": 100.0},
		"notes.xlsx":      {"Cloud!G2": "checked again today", "GPUs!G2": "the vendor's page"},
	}
	var files []string
	for name, cells := range edits {
		path := filepath.Join(dir, name)
		copyFile(t, plan, path)
		setCells(t, path, cells)
		files = append(files, path)
	}
	lo := filepath.Join(dir, "lo")
	recalculate(t, append(files, plan), lo)
	const stale, upToDate = "inputs changed since planner eval: run it again", "up to date: the inputs are as planner eval read them"
	for _, name := range append(slices.Sorted(maps.Keys(edits)), "plan.xlsx") {
		want, closeCalls := stale, stale
		if name == "notes.xlsx" || name == "plan.xlsx" {
			want, closeCalls = upToDate, upToDate
		}
		// Monte Carlo tests the offers' verdicts: no model or deployment
		// enters them.
		if name == "model.xlsx" || name == "deployment.xlsx" {
			closeCalls = upToDate
		}
		path := filepath.Join(lo, name)
		if got := closeCallFlag(t, path); got != closeCalls {
			t.Errorf("%s: the close calls' flag says %q, want %q", name, got, closeCalls)
		}
		if got := readSheet(t, path, "Fleet").rows[2][0]; got != want {
			t.Errorf("%s: the Fleet's flag says %q, want %q", name, got, want)
		}
		// Results' fleet power carries the Fleet's flag.
		results := readSheet(t, path, "Results").rows
		if r := rowOf(t, results, 0, "The fleet's power: the cheapest mix's owned nodes, which only planner chooses, as the Fleet sheet totals them (not live but for their draw; the line below is the Fleet sheet's flag)", 0); results[r+1][0] != want {
			t.Errorf("%s: the flag of Results' fleet power says %q, want %q", name, results[r+1][0], want)
		}
	}
}
