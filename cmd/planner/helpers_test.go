package main

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/xuri/excelize/v2"
)

// scriptCommands edit and inspect workbooks the way a user's spreadsheet
// application would, for the scripts in testdata/script.
var scriptCommands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"setcell":  setCell,
	"cell":     printCell,
	"name":     printName,
	"addsheet": addSheet,
	"sheets":   printSheets,
	"mkzip":    makeZip,
	"newbook":  newBook,
	"same":     sameBytes,
	"defname":  defineName,
	"names":    printNames,
	"charts":   printCharts,
	"exits":    exitsWith,
	"owning":   checkOwning,
	"renting":  checkRenting,
	"sampled":  checkSampled,
	"diffed":   checkDiffed,
	"shown":    checkShown,
}

// exits N PROGRAM [ARGS...] runs the program as exec does and fails unless
// it exits with status N; stdout and stderr are its output, as exec's.
func exitsWith(ts *testscript.TestScript, neg bool, args []string) {
	want, err := strconv.Atoi(strings.Join(args[:min(1, len(args))], ""))
	if err != nil || len(args) < 2 || neg {
		ts.Fatalf("usage: exits N PROGRAM [ARGS...]")
	}
	got := 0
	var exit *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &exit):
		got = exit.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, not %d", args[1], got, want)
	}
}

func sheetCell(ts *testscript.TestScript, ref string) (string, string) {
	sheet, cell, ok := strings.Cut(ref, "!")
	if !ok {
		ts.Fatalf("want Sheet!A1, got %q", ref)
	}
	return sheet, cell
}

// setcell FILE Sheet!A1 VALUE [number|text|formula|percent|currency|empty]
// types VALUE into a cell as a user would: a number (the default when VALUE
// reads as one), text, a formula without a cached value, a number shown as
// a percentage or as dollars, or nothing.
func setCell(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: setcell FILE Sheet!A1 VALUE [number|text|formula|percent|currency|empty]")
	}
	sheet, cell := sheetCell(ts, args[1])
	kind := "number"
	if _, err := strconv.ParseFloat(args[2], 64); err != nil {
		kind = "text"
	}
	if len(args) == 4 {
		kind = args[3]
	}
	editBook(ts, ts.MkAbs(args[0]), func(f *excelize.File) error {
		switch kind {
		case "text":
			return f.SetCellStr(sheet, cell, args[2])
		case "formula":
			return f.SetCellFormula(sheet, cell, args[2])
		case "empty":
			return f.SetCellValue(sheet, cell, nil)
		}
		v, err := strconv.ParseFloat(args[2], 64)
		if err != nil {
			return err
		}
		if err := f.SetCellFloat(sheet, cell, v, -1, 64); err != nil {
			return err
		}
		formats := map[string]int{"percent": 10, "currency": 7}
		if id, ok := formats[kind]; ok {
			style, err := f.NewStyle(&excelize.Style{NumFmt: id})
			if err != nil {
				return err
			}
			return f.SetCellStyle(sheet, cell, cell, style)
		}
		return nil
	})
}

// cell FILE Sheet!A1 prints the cell's stored value (not its formatted text)
// and its number format.
func printCell(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cell FILE Sheet!A1")
	}
	f, err := excelize.OpenFile(ts.MkAbs(args[0]), excelize.Options{RawCellValue: true})
	ts.Check(err)
	defer f.Close()
	sheet, cell := sheetCell(ts, args[1])
	fmt.Fprintln(ts.Stdout(), describeCell(ts, f, sheet, cell))
}

func describeCell(ts *testscript.TestScript, f *excelize.File, sheet, cell string) string {
	v, err := f.GetCellValue(sheet, cell)
	ts.Check(err)
	typ, err := f.GetCellType(sheet, cell)
	ts.Check(err)
	id, err := f.GetCellStyle(sheet, cell)
	ts.Check(err)
	st, err := f.GetStyle(id)
	ts.Check(err)
	format := ""
	if st.CustomNumFmt != nil {
		format = *st.CustomNumFmt
	}
	kinds := map[excelize.CellType]string{excelize.CellTypeNumber: "number", excelize.CellTypeUnset: "number",
		excelize.CellTypeSharedString: "text", excelize.CellTypeInlineString: "text", excelize.CellTypeFormula: "text"}
	return fmt.Sprintf("%s!%s %s %s %q", sheet, cell, kinds[typ], v, format)
}

// name FILE NAME prints what the workbook-scoped defined name refers to and
// the cell there.
func printName(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: name FILE NAME")
	}
	f, err := excelize.OpenFile(ts.MkAbs(args[0]), excelize.Options{RawCellValue: true})
	ts.Check(err)
	defer f.Close()
	for _, dn := range f.GetDefinedName() {
		if dn.Name == args[1] && dn.Scope == "Workbook" {
			sheet, ref, _ := strings.Cut(dn.RefersTo, "!")
			fmt.Fprintln(ts.Stdout(), describeCell(ts, f, strings.Trim(sheet, "'"), strings.ReplaceAll(ref, "$", "")))
			return
		}
	}
	if !neg {
		ts.Fatalf("no defined name %s", args[1])
	}
}

// addsheet FILE SHEET [A1-TEXT] adds a sheet of the user's, with some text.
func addSheet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: addsheet FILE SHEET [TEXT]")
	}
	editBook(ts, ts.MkAbs(args[0]), func(f *excelize.File) error {
		if _, err := f.NewSheet(args[1]); err != nil {
			return err
		}
		if len(args) > 2 {
			return f.SetCellStr(args[1], "A1", args[2])
		}
		return nil
	})
}

// sheets FILE prints the sheet names in order.
func printSheets(ts *testscript.TestScript, neg bool, args []string) {
	f, err := excelize.OpenFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	fmt.Fprintln(ts.Stdout(), strings.Join(f.GetSheetList(), ", "))
}

// mkzip FILE NAME=CONTENT... writes a zip archive with those entries.
func makeZip(ts *testscript.TestScript, neg bool, args []string) {
	out, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	zw := zip.NewWriter(out)
	entries := args[1:]
	sort.Strings(entries)
	for _, e := range entries {
		name, content, _ := strings.Cut(e, "=")
		w, err := zw.Create(name)
		ts.Check(err)
		_, err = w.Write([]byte(content))
		ts.Check(err)
	}
	ts.Check(zw.Close())
	ts.Check(out.Close())
}

// newbook FILE SHEET... writes a workbook, not made by planner, with those
// sheets.
func newBook(ts *testscript.TestScript, neg bool, args []string) {
	f := excelize.NewFile()
	defer f.Close()
	for i, name := range args[1:] {
		if i == 0 {
			ts.Check(f.SetSheetName("Sheet1", name))
			continue
		}
		_, err := f.NewSheet(name)
		ts.Check(err)
	}
	ts.Check(f.SaveAs(ts.MkAbs(args[0])))
}

// same A B fails unless the two files hold the same bytes (without dumping
// binary files the way cmp would).
func sameBytes(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: same FILE FILE")
	}
	a, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	b, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	if equal := bytes.Equal(a, b); equal == neg {
		ts.Fatalf("%s (%d bytes) and %s (%d bytes): same = %v", args[0], len(a), args[1], len(b), equal)
	}
}

// defname FILE NAME REF defines a workbook-scoped name, as a user would in
// Excel's name manager.
func defineName(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: defname FILE NAME REF")
	}
	editBook(ts, ts.MkAbs(args[0]), func(f *excelize.File) error {
		return f.SetDefinedName(&excelize.DefinedName{Name: args[1], RefersTo: args[2]})
	})
}

// names FILE prints every defined name as name=refers-to, sorted.
func printNames(ts *testscript.TestScript, neg bool, args []string) {
	f, err := excelize.OpenFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var lines []string
	for _, dn := range f.GetDefinedName() {
		lines = append(lines, dn.Name+"="+dn.RefersTo)
	}
	sort.Strings(lines)
	fmt.Fprintln(ts.Stdout(), strings.Join(lines, "\n"))
}

// charts FILE prints, sheet by sheet, each chart's part, type and the
// ranges its series point at, in the order the sheet's drawing holds them.
func printCharts(ts *testscript.TestScript, neg bool, args []string) {
	charts, err := chartsOf(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, c := range charts {
		fmt.Fprintf(ts.Stdout(), "%s: %s %s %s\n", c.sheet, c.part, c.kind, strings.Join(c.refs, " "))
	}
}

// freshPlan runs planner init in this process (initPlan runs the built
// command) into a folder of the test's own, and returns the folder and
// the workbook.
func freshPlan(t *testing.T) (dir, plan string) {
	t.Helper()
	dir = t.TempDir()
	plan = filepath.Join(dir, "plan.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", plan}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	return dir, plan
}

// slow skips a test that takes long under -short: the quick run a change
// is made with; .ci/run runs the whole suite.
func slow(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s: skipped under -short, run by the full suite (.ci/run)", what)
	}
}

// needLibreOffice skips a test that recalculates with LibreOffice under
// -short, or where LibreOffice is not installed.
func needLibreOffice(t *testing.T) {
	t.Helper()
	slow(t, "recalculates with LibreOffice")
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("LibreOffice (soffice) is not installed; .ci/run installs libreoffice-calc-nogui")
	}
}

// evalRefuses types cells into a fresh workbook and checks that eval
// refuses it with the message want.
func evalRefuses(t *testing.T, cells map[string]any, want string) {
	t.Helper()
	_, plan := freshPlan(t)
	setCells(t, plan, cells)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code == 0 {
		t.Errorf("%v: exit 0", cells)
	}
	if !strings.Contains(errs.String(), want) {
		t.Errorf("%v: no error\n%s\nin\n%s", cells, want, errs.String())
	}
}
