package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/evaluate"
	"planner/facts"
)

// show --format json is the text, fact for fact and result for result:
// each object carries the line show prints, its parts and, for a result,
// the number the line begins with.
func TestShowJSONIsTheText(t *testing.T) {
	dir := t.TempDir()
	path := initPlan(t, dir, "plan.xlsx")
	// One input at zero, so that the formulas dividing by it fail in
	// every scenario that keeps it.
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows("Assumptions")
	for i, r := range rows {
		if len(r) > 0 && r[0] == "utilization" {
			_ = f.SetCellFloat("Assumptions", fmt.Sprintf("B%d", i+1), 0, -1, 64)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	code, text, _ := plannerTimed(t, dir, "show", "plan.xlsx")
	jcode, data, _ := plannerTimed(t, dir, "show", "plan.xlsx", "--format", "json")
	if code != 0 || jcode != 0 {
		t.Fatalf("show exited %d, show --format json %d", code, jcode)
	}
	var doc evaluate.ShownJSON
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if want := len(doc.Facts) + 1 + len(doc.Results); len(lines) != want || len(doc.Facts) < 100 || len(doc.Results) < 100 {
		t.Fatalf("show prints %d lines; the JSON has %d facts and %d results", len(lines), len(doc.Facts), len(doc.Results))
	}
	for i, f := range doc.Facts {
		if f.Text != lines[i] || f.Text != f.Kind+" "+f.Key+" = "+f.Value {
			t.Errorf("fact %d: %+v; show prints %q", i, f, lines[i])
		}
	}
	status := fmt.Sprintf("results = computed by planner show from inputs %s; the workbook has no Results sheet", doc.Inputs)
	if lines[len(doc.Facts)] != status || doc.Stored != "" || doc.File != "plan.xlsx" || len(doc.Inputs) != 12 {
		t.Errorf("status %q, inputs %q, results_sheet %q; want %q", lines[len(doc.Facts)], doc.Inputs, doc.Stored, status)
	}
	failed := 0
	for i, r := range doc.Results {
		key := facts.Result{Scenario: r.Scenario, Offer: r.Offer, Name: r.Name}.Key()
		if line := lines[len(doc.Facts)+1+i]; line != "result "+key+" = "+r.Text {
			t.Errorf("result %d: %+v; show prints %q", i, r, line)
		}
		switch {
		case r.Value == nil:
			failed++
			if r.Error == "" || r.Text != r.Error {
				t.Errorf("result %d has no value and says %q, text %q", i, r.Error, r.Text)
			}
		case r.Error != "" || !strings.HasPrefix(r.Text, strconv.FormatFloat(*r.Value, 'g', 12, 64)+" "):
			t.Errorf("result %d: value %v, error %q, text %q", i, *r.Value, r.Error, r.Text)
		}
	}
	if failed == 0 {
		t.Error("utilization = 0 failed no result")
	}
}
