package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks"
)

// checking is quick with --check.
var checking = Options{Samples: quick.Samples, Seed: quick.Seed, Version: quick.Version, Check: true}

// checkError is the error --check gives for path, failing the test when it
// passes.
func checkError(t *testing.T, path string) string {
	t.Helper()
	_, err := Evaluate(context.Background(), path, checking)
	if err == nil {
		t.Fatalf("--check passed %s", path)
	}
	return err.Error()
}

// staleTail is the last line of --check's error.
func staleTail(path string) string {
	return "\n" + path + ": stale; run " + workbooks.Command("eval", path) + " and commit the result"
}

// editBook opens the workbook at path with excelize, lets edit change it,
// and saves it, as another program would.
func editBook(t *testing.T, path string, edit func(f *excelize.File) error) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := edit(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
}

// refersTo is what the workbook-scoped name points at in the workbook at
// path.
func refersTo(t *testing.T, path, name string) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, dn := range f.GetDefinedName() {
		if dn.Name == name && dn.Scope == "Workbook" {
			return dn.RefersTo
		}
	}
	t.Fatalf("%s defines no name %s", path, name)
	return ""
}

// --check writes nothing, not even a memory: only a full eval records one.
func TestCheckRemembersNothing(t *testing.T) {
	path := newWorkbook(t)
	if _, err := Evaluate(context.Background(), path, quick); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	rep, err := Evaluate(context.Background(), path, checking)
	if err != nil || rep.Note != path+": up to date: planner's sheets match a fresh evaluation" {
		t.Fatalf("--check of a workbook just evaluated: %v, %q", err, rep.Note)
	}
	var left []string
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, p)
		}
		return nil
	})
	if len(left) > 0 {
		t.Errorf("--check wrote into the cache folder: %v", left)
	}
}

// A memory of a stale workbook's very bytes, as a run would have written it
// had it found them up to date, does not make --check pass: --check
// compares the file with a fresh evaluation whatever planner remembers.
func TestCheckComparesWhateverIsRemembered(t *testing.T) {
	path := newWorkbook(t)
	if _, err := Evaluate(context.Background(), path, quick); err != nil {
		t.Fatal(err)
	}
	setCell(t, path, "Assumptions", "B6", 412000) // capex: Results is stale
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := quick
	elsewhere.Output = filepath.Join(t.TempDir(), "out.xlsx")
	rep, err := Evaluate(context.Background(), path, elsewhere) // the stale workbook's own Monte Carlo
	if err != nil {
		t.Fatal(err)
	}
	r := &run{opts: quick.withDefaults(), path: path, target: path}
	r.remember(path, stale, rep)
	if r.recall(path, stale, rep) == nil {
		t.Fatal("planner does not recall the memory planted for the stale workbook")
	}
	_, err = Evaluate(context.Background(), path, checking)
	if want := path + `: Results!D5 (Capex per GPU, base): "35625" in the file, "51500" in a fresh evaluation`; err == nil || !strings.Contains(err.Error(), "\n"+want+"\n") {
		t.Errorf("--check of a stale workbook planner remembers: %v; want a line\n%s", err, want)
	}
}

// A defined name planner writes that points elsewhere, is missing, or is
// one planner would remove makes the workbook stale, by name: LibreOffice
// computes through the names, and would read another cell.
func TestCheckComparesTheNames(t *testing.T) {
	path := newWorkbook(t)
	if _, err := Evaluate(context.Background(), path, quick); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cost := refersTo(t, path, "cost_per_gpu_hour") // where planner put it
	for _, c := range []struct {
		what string
		edit func(f *excelize.File) error
		want string
	}{
		{"moved", func(f *excelize.File) error {
			if err := f.DeleteDefinedName(&excelize.DefinedName{Name: "cost_per_gpu_hour"}); err != nil {
				return err
			}
			return f.SetDefinedName(&excelize.DefinedName{Name: "cost_per_gpu_hour", RefersTo: "Results!$D$40"})
		}, path + ": the name cost_per_gpu_hour points at Results!$D$40 in the file, at " + cost + " in a fresh evaluation"},
		{"missing", func(f *excelize.File) error {
			return f.DeleteDefinedName(&excelize.DefinedName{Name: "cost_per_gpu_hour"})
		}, path + ": the name cost_per_gpu_hour is missing; a fresh evaluation defines it as " + cost},
		{"one planner would remove", func(f *excelize.File) error {
			return f.SetDefinedName(&excelize.DefinedName{Name: "old_cost", RefersTo: "Results!$D$41", Comment: "written by planner eval"})
		}, path + ": the name old_cost points at Results!$D$41 in the file; a fresh evaluation removes it"},
	} {
		if err := os.WriteFile(path, written, 0o644); err != nil {
			t.Fatal(err)
		}
		editBook(t, path, c.edit)
		if got, want := checkError(t, path), c.want+staleTail(path); got != want {
			t.Errorf("a name %s: --check says\n%s\nwant\n%s", c.what, got, want)
		}
	}
}

// A chart taken off one of planner's sheets makes the workbook stale; and
// --check, which passes a workbook whose Results lost its formatting,
// teaches eval nothing: eval still puts both back.
func TestCheckCountsTheCharts(t *testing.T) {
	path := newWorkbook(t)
	if _, err := Evaluate(context.Background(), path, quick); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	editBook(t, path, func(f *excelize.File) error { return f.DeleteChart("MonteCarlo", "F4") })
	if got, want := checkError(t, path), path+": MonteCarlo: charts: 0 in the file, 1 in a fresh evaluation"+staleTail(path); got != want {
		t.Errorf("without the MonteCarlo chart, --check says\n%s\nwant\n%s", got, want)
	}

	if err := os.WriteFile(path, written, 0o644); err != nil {
		t.Fatal(err)
	}
	if styleOf(t, path, "Results", "D5") == 0 {
		t.Fatal("planner wrote Results!D5 without a style")
	}
	editBook(t, path, func(f *excelize.File) error { return f.SetCellStyle("Results", "A1", "Z200", 0) })
	if _, err := Evaluate(context.Background(), path, checking); err != nil {
		t.Fatalf("--check after Results lost its formatting: %v", err)
	}
	if rep, err := Evaluate(context.Background(), path, quick); err != nil || rep.Note == path+": Results already up to date; the file is unchanged" {
		t.Fatalf("eval after --check: %v, %q", err, rep.Note)
	}
	if style := styleOf(t, path, "Results", "D5"); style == 0 {
		t.Error("eval did not give Results its formatting back")
	}
}

// styleOf is the style of a cell in the workbook at path: 0 is none.
func styleOf(t *testing.T, path, sheet, cell string) int {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	style, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	return style
}
