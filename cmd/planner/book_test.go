package main

import (
	"testing"

	"github.com/xuri/excelize/v2"
)

// The helpers here edit and read workbooks with excelize, as a spreadsheet
// user and a reader of the sheets would: for the Go tests and for the
// script commands of helpers_test.go alike.

// failer is what the helpers need of a test to stop it: a *testing.T, or
// the *testscript.TestScript a script command runs in.
type failer interface {
	Fatalf(format string, args ...any)
}

// editBook opens a workbook, lets edit change it as a spreadsheet user
// would, and saves it in place.
func editBook(t failer, path string, edit func(f *excelize.File) error) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	if err := edit(f); err != nil {
		t.Fatalf("%v", err)
	}
	if err := f.Save(); err != nil {
		t.Fatalf("%v", err)
	}
}

// sheetCells is what a sheet stores: its values (not their formatted text)
// row by row, and the cells that hold a formula, by cell name, with their
// cached values.
type sheetCells struct {
	rows     [][]string
	formulas map[string]string
}

// readSheet reads a sheet of the workbook at path.
func readSheet(t *testing.T, path, sheet string) sheetCells {
	t.Helper()
	f, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	formulas := map[string]string{}
	for r, row := range rows {
		for c, v := range row {
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if formula, _ := f.GetCellFormula(sheet, ref); formula != "" {
				formulas[ref] = v
			}
		}
	}
	return sheetCells{rows: rows, formulas: formulas}
}
