package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/workbooks"
)

// appendFormulas adds rows of (name, expression, unit) to the Formulas sheet.
func appendFormulas(t *testing.T, path string, rows [][3]string) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		have, _ := f.GetRows("Formulas")
		for i, r := range rows {
			if err := f.SetSheetRow("Formulas", fmt.Sprintf("A%d", len(have)+1+i), &[]string{r[0], r[1], r[2]}); err != nil {
				return err
			}
		}
		return nil
	})
}

// editPart rewrites one part of a workbook's zip.
func editPart(t *testing.T, path, part string, edit func(string) string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == part {
			data = []byte(edit(string(data)))
		}
		w, _ := zw.Create(f.Name)
		w.Write(data)
	}
	zr.Close()
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Ten thousand formulas, each using the one before: evaluated, written and
// right, in bounded time.
func TestTenThousandFormulas(t *testing.T) {
	slow(t, "evaluates ten thousand formulas")
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	rows := [][3]string{{"chain_0", "capex / 1000000", "$"}}
	for i := 1; i < 10000; i++ {
		rows = append(rows, [3]string{fmt.Sprintf("chain_%d", i), fmt.Sprintf("chain_%d + capex / 1000000", i-1), "$"})
	}
	appendFormulas(t, plan, rows)
	start := time.Now()
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	t.Logf("eval of 10,016 formulas: %v", time.Since(start))
	want := 0.0
	for i := 0; i < 10000; i++ {
		want += 285000.0 / 1000000
	}
	if got := named(t, plan, "chain_9999"); math.Abs(got-want) > 1e-9*want {
		t.Errorf("chain_9999 = %v in Results, want %v", got, want)
	}
}

// A megabyte-long formula is refused with the limit, not parsed.
func TestMegabyteFormula(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	// A cell holds at most 32,767 characters, so the megabyte goes into the
	// sheet's XML directly, as a hostile file would carry it.
	huge := strings.Repeat("capex + ", 1<<17) + "1"
	formulasPart := fmt.Sprintf("xl/worksheets/sheet%d.xml", len(workbooks.InputSheets()))
	editPart(t, plan, formulasPart, func(xml string) string {
		if !strings.Contains(xml, "per_gpu_capex") {
			t.Fatal(formulasPart + " is not the Formulas sheet")
		}
		row := `<row r="900"><c r="A900" t="inlineStr"><is><t>huge</t></is></c><c r="B900" t="inlineStr"><is><t>` + huge + `</t></is></c></row>`
		return strings.Replace(xml, "</sheetData>", row+"</sheetData>", 1)
	})
	errs.Reset()
	if code := run([]string{"eval", plan}, &out, &errs); code != 1 {
		t.Fatalf("exit %d", code)
	}
	want := plan + ": Formulas!B900: huge: the expression is 1048577 characters long; formulas are limited to 4096: split it into named parts\n"
	if !strings.HasPrefix(errs.String(), want) {
		t.Errorf("got %s\nwant %s", errs.String(), want)
	}
}
