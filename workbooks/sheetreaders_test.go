package workbooks

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"planner/workbooks/internal/schema"
)

// Every defaults table is some input sheet's, and that sheet's reader
// gives the default workbook its rows: a table no reader reads would be
// left out without a word. The eleven tables are those of every input sheet
// but APIs and Benchmarks (none by default) and Formulas (the library).
func TestEveryDefaultsTableIsRead(t *testing.T) {
	files, err := fs.Glob(defaultFiles, "defaults/*.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, sr := range sheetReaders {
		if sr.defaults != nil && sr.sheet.Name != schema.Formulas.Name {
			read = append(read, strings.ToLower(sr.sheet.Name)+".tsv")
		}
	}
	for _, f := range files {
		if !slices.Contains(read, path.Base(f)) {
			t.Errorf("%s: no sheet reader gives the default workbook its rows", f)
		}
	}
	if len(files) != len(schema.Inputs())-3 {
		t.Errorf("%d defaults tables, want %d: one per input sheet but APIs, Benchmarks and Formulas", len(files), len(schema.Inputs())-3)
	}
}

// Each input sheet has one reader, in the order the model needs them:
// Assumptions first, since scenarios, tables and goals name its inputs.
func TestEveryInputSheetHasOneReader(t *testing.T) {
	var names []string
	for _, sr := range sheetReaders {
		names = append(names, sr.sheet.Name)
	}
	if names[0] != schema.Assumptions.Name {
		t.Errorf("readers begin with %s, want %s", names[0], schema.Assumptions.Name)
	}
	if got, want := slices.Sorted(slices.Values(names)), slices.Sorted(slices.Values(schema.InputNames())); !slices.Equal(got, want) {
		t.Errorf("readers of %v, want one of each of %v", got, want)
	}
}

// The default goals' notes quote no number: a note that says "at half the
// month" would stay when the utilisation is set to 65 %. What a goal
// solves at is in its own row's cells, and the Goal seek sheet shows it.
func TestDefaultGoalNotesQuoteNoInput(t *testing.T) {
	goals := DefaultModel().Goals
	if len(goals) == 0 {
		t.Fatal("no default goals")
	}
	for _, g := range goals {
		if strings.ContainsAny(g.Notes, "0123456789") {
			t.Errorf("goal %q: its note quotes a number: %q", g.Name, g.Notes)
		}
	}
}

// The defaults tell one story: an input that varies has its value inside
// its range, not at an edge from which every sample moves one way (as
// residual, cost of capital, maintenance, staff and network did at 0 with
// ranges that only went up), so Monte Carlo centres on the figures the
// verdicts use.
func TestDefaultDistributionsHoldTheirValueInside(t *testing.T) {
	for _, in := range DefaultModel().Inputs {
		if in.Dist == nil && !in.HasRange {
			continue
		}
		if !(in.Low < in.Value.Num && in.Value.Num < in.High) {
			t.Errorf("%s: %v at the edge of its range %v..%v", in.Name, in.Value.Num, in.Low, in.High)
		}
	}
}
