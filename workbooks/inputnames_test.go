package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/units"
	"planner/workbooks/internal/schema"
)

// workbookWithSheet is a workbook of the user's whose one sheet, called
// name, holds rows.
func workbookWithSheet(t *testing.T, name string, rows ...[]any) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", name); err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(name, cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// initAndSave runs init on path and saves what it wrote.
func initAndSave(t *testing.T, path string) Initialized {
	t.Helper()
	in, err := Init(path, units.USD)
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, in.Data, in.Original); err != nil {
		t.Fatal(err)
	}
	return in
}

// formulaFrom is the workbook's formula called name, as read, and the
// sheet it was read from.
func formulaFrom(t *testing.T, b *Book, name string) (string, string) {
	t.Helper()
	for _, f := range b.Model.Formulas {
		if f.Name == name {
			return f.Source, f.Origin.Sheet
		}
	}
	t.Fatalf("no formula %s", name)
	return "", ""
}

// A sheet of the user's called Formulas (ClosedXML's example workbook of
// formulas has one) made init refuse: planner's input sheet has the name.
// planner writes its own as "Formulas (planner)", with a defined name that
// tells eval where it is; eval reads planner's formulas there, and the
// user's sheet is neither read nor changed.
func TestUsersFormulasSheetBesidePlanners(t *testing.T) {
	path := workbookWithSheet(t, "Formulas", []any{"Num1", "Num2", "Total"}, []any{1, 2, "=A2+B2"})
	original := zipParts(t, mustRead(t, path))["xl/worksheets/sheet1.xml"]
	in := initAndSave(t, path)
	want := path + `: already has a sheet Formulas of its own (its first row is not planner's header: name, expression, unit, description, label), so planner wrote its Formulas sheet as "Formulas (planner)", ` +
		`where eval reads it: the defined name planner_sheet_Formulas points there`
	if len(in.Warnings) != 1 || in.Warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", in.Warnings, want)
	}
	if last := in.Sheets[len(in.Sheets)-1]; last != "Formulas (planner)" {
		t.Errorf("init wrote %v", in.Sheets)
	}
	f := openBytes(t, in.Data)
	if got := zipParts(t, in.Data)["xl/worksheets/sheet1.xml"]; !bytes.Equal(got, original) {
		t.Error("the user's Formulas sheet changed")
	}
	if i := indexOfName(f, "planner_sheet_Formulas"); i < 0 || f.GetDefinedName()[i].RefersTo != "'Formulas (planner)'!$A$1" {
		t.Errorf("planner_sheet_Formulas is not 'Formulas (planner)'!$A$1: %v", f.GetDefinedName())
	}
	dvs, err := f.GetDataValidations("Targets")
	if err != nil || len(dvs) != 1 || dvs[0].Formula1 != "'Formulas (planner)'!$A$2:$A$500" {
		t.Errorf("Targets picks its formulas from %+v (%v)", dvs, err)
	}
	editPlan(t, path, func(f *excelize.File) error {
		return f.SetSheetRow("Formulas (planner)", "A200", &[]any{"margin", "cost_per_gpu_hour * 1.2", "$/GPU-h"})
	})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if src, sheet := formulaFrom(t, b, "margin"); src != "cost_per_gpu_hour * 1.2" || sheet != "Formulas (planner)" {
		t.Errorf("margin is %q, read from %s", src, sheet)
	}
	if len(b.Warnings) > 0 {
		t.Errorf("read warned: %v", b.Warnings)
	}
	_, evaluated := evaluateBook(t, b)
	if got := zipParts(t, evaluated)["xl/worksheets/sheet1.xml"]; !bytes.Equal(got, original) {
		t.Error("eval changed the user's Formulas sheet")
	}
	// Renamed as Excel renames a sheet, the defined name following it,
	// planner's sheet is still planner's.
	editPlan(t, path, func(f *excelize.File) error {
		if err := f.SetSheetName("Formulas (planner)", "Planner's formulas"); err != nil {
			return err
		}
		if err := f.DeleteDefinedName(&excelize.DefinedName{Name: "planner_sheet_Formulas"}); err != nil {
			return err
		}
		return f.SetDefinedName(&excelize.DefinedName{Name: "planner_sheet_Formulas", RefersTo: "'Planner''s formulas'!$A$1"})
	})
	if b, err = Read(path); err != nil {
		t.Fatal(err)
	}
	if src, sheet := formulaFrom(t, b, "margin"); src != "cost_per_gpu_hour * 1.2" || sheet != "Planner's formulas" {
		t.Errorf("after renaming, margin is %q, read from %s", src, sheet)
	}
	// Pointing at no sheet, the name is said to, and the user's sheet
	// stays theirs.
	editPlan(t, path, func(f *excelize.File) error { return f.DeleteSheet("Planner's formulas") })
	if b, err = Read(path); err != nil {
		t.Fatal(err)
	}
	want = path + ": the defined name planner_sheet_Formulas, which says where planner's Formulas sheet is, points at no sheet of the workbook, so planner reads no Formulas sheet: " +
		"point it at planner's sheet, or delete it to have planner read the sheet called Formulas"
	if len(b.Warnings) != 1 || b.Warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", b.Warnings, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func indexOfName(f *excelize.File, name string) int {
	for i, dn := range f.GetDefinedName() {
		if dn.Name == name {
			return i
		}
	}
	return -1
}

// A sheet called formulas (in any case) with planner's header row, which
// no other sheet of planner's needs anything from, is adopted: init adds
// no Formulas of its own, says so, and eval reads the user's formulas
// there.
func TestUsersFormulasSheetAdopted(t *testing.T) {
	path := workbookWithSheet(t, "formulas", []any{"Name", "Expression", "Unit"}, []any{"margin", "cost_per_gpu_hour * 1.2", "$/GPU-h"})
	in := initAndSave(t, path)
	want := path + ": already has a sheet formulas with planner's header row (name, expression, unit, description, label): planner reads it as its Formulas sheet, and added none of its own"
	if len(in.Warnings) != 1 || in.Warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", in.Warnings, want)
	}
	if want := []string{"Assumptions", "Scenarios", "Cloud", "APIs", "FX", "GPUs", "Models", "Deployments", "Benchmarks", "Correlations", "Targets", "Tables", "Goals"}; !reflect.DeepEqual(in.Sheets, want) {
		t.Errorf("init wrote %v, want %v", in.Sheets, want)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if src, sheet := formulaFrom(t, b, "margin"); src != "cost_per_gpu_hour * 1.2" || sheet != "formulas" {
		t.Errorf("margin is %q, read from %s", src, sheet)
	}
}

// A sheet called Assumptions or GPUs is never adopted: planner's other
// sheets name the inputs and the GPUs its own lists (with planner's header,
// Assumptions would make the workbook planner's already, see
// TestInitOfAPlannerWorkbook). planner's is "… (planner)", and everything
// planner writes refers to it there.
func TestUsersSheetsOthersReferTo(t *testing.T) {
	for _, tc := range []struct {
		sheet string
		rows  [][]any
		note  string
		refer func(f *excelize.File) (string, string)
	}{
		{"Assumptions", [][]any{{"item", "amount"}, {"rate", 0.05}},
			`already has a sheet Assumptions of its own (its first row is not planner's header: name, value, unit, low, high, distribution, notes), so planner wrote its Assumptions sheet as "Assumptions (planner)"`,
			func(f *excelize.File) (string, string) {
				formula, _ := f.GetCellFormula("Scenarios", "B4") // the H100 low scenario's capex
				return formula, "'Assumptions (planner)'!$D$6"
			}},
		{"GPUs", [][]any{{"name", "memory GB"}, {"TPU v5e", 16}},
			`already has a sheet GPUs, and planner's other sheets name what its own GPUs lists, so planner wrote its own as "GPUs (planner)"`,
			func(f *excelize.File) (string, string) {
				dvs, _ := f.GetDataValidations("Cloud")
				for _, dv := range dvs {
					if strings.HasPrefix(dv.Sqref, "C2:") {
						return dv.Formula1, "'GPUs (planner)'!$A$2:$A$200"
					}
				}
				return "", "a drop-down of GPUs on Cloud"
			}},
	} {
		t.Run(tc.sheet, func(t *testing.T) {
			path := workbookWithSheet(t, tc.sheet, tc.rows...)
			in := initAndSave(t, path)
			want := path + ": " + tc.note + ", where eval reads it: the defined name planner_sheet_" + tc.sheet + " points there"
			if len(in.Warnings) != 1 || in.Warnings[0].Error() != want {
				t.Errorf("warnings %v\nwant %s", in.Warnings, want)
			}
			if got, want := tc.refer(openBytes(t, in.Data)); got != want {
				t.Errorf("planner's sheets refer to %q, want %q", got, want)
			}
			b, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Model.Inputs) != len(DefaultModel().Inputs) || len(b.Model.GPUs) != len(DefaultModel().GPUs) {
				t.Errorf("read %d inputs and %d GPUs", len(b.Model.Inputs), len(b.Model.GPUs))
			}
			if _, ok := b.Model.Input("rate"); ok {
				t.Error("planner read the user's Assumptions")
			}
			for _, g := range b.Model.GPUs {
				if g.Name == "TPU v5e" {
					t.Error("planner read the user's GPUs")
				}
			}
			evaluateBook(t, b)
		})
	}
}

// init on a workbook that has planner's input sheets already (under their
// names, or under those init gave them) says so and what to run instead.
func TestInitOfAPlannerWorkbook(t *testing.T) {
	for _, path := range []string{newPlan(t), workbookWithSheet(t, "Assumptions", []any{"item"})} {
		if !strings.HasSuffix(path, "plan.xlsx") {
			initAndSave(t, path)
		}
		sheet := "Assumptions"
		if !strings.HasSuffix(path, "plan.xlsx") {
			sheet = "Assumptions (planner)"
		}
		want := path + ": has planner's input sheets already (" + sheet + ", with planner's header row); init adds them only to a workbook without them: run planner eval " + path
		if _, err := Init(path, units.USD); err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
}

// At eval, a sheet with the name of an input sheet init did not write
// (one an older planner had no such sheet for, since made by the user) and
// none of its columns is the user's: planner warns and reads nothing from
// it, where it refused the workbook.
func TestUsersSheetWithTheNameOfAnInputSheet(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		if err := f.DeleteSheet(schema.Goals.Name); err != nil {
			return err
		}
		if _, err := f.NewSheet(schema.Goals.Name); err != nil {
			return err
		}
		return f.SetSheetRow(schema.Goals.Name, "A1", &[]any{"month", "revenue"})
	})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := path + ": Goals: has none of the columns planner reads there (name, for, target, value, offer, with, low, high, notes), so planner takes it for a sheet of yours and reads nothing from it; if it is meant for planner, give it that header row"
	if len(b.Warnings) != 1 || b.Warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", b.Warnings, want)
	}
	if len(b.Model.Goals) != 0 {
		t.Errorf("read %d goals", len(b.Model.Goals))
	}
}
