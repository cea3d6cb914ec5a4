package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/xuri/excelize/v2"
)

func TestMain(m *testing.M) {
	// The tests remember workbooks in a cache folder of their own, never
	// in the user's.
	dir, err := os.MkdirTemp("", "planner-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sampling evaluates path with opts and reports whether the run drew Monte
// Carlo samples: a run that proved the workbook up to date from what
// planner remembers draws none.
func sampling(t *testing.T, path string, opts Options) (*Report, bool) {
	t.Helper()
	var sampled atomic.Bool // scenarios side by side report from several cores
	opts.Progress = func(phase string, done, total int) {
		if phase == phaseMonteCarlo {
			sampled.Store(true)
		}
	}
	rep, err := Evaluate(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep, sampled.Load()
}

func reportJSON(t *testing.T, rep *Report) string {
	t.Helper()
	data, err := json.Marshal(rep.JSON(nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A workbook planner has just written is known up to date on the next run:
// nothing is sampled or written again, and the report is the one a full
// run gives. Any change to the file, a choice that decides what planner
// writes, or a damaged memory makes the run compare the long way.
func TestUpToDateWorkbookIsKnownWithoutSampling(t *testing.T) {
	path := newWorkbook(t)
	unchanged := path + ": Results already up to date; the file is unchanged"
	if rep, sampled := sampling(t, path, quick); !sampled || rep.Note == unchanged {
		t.Fatalf("first run: sampled %v, %q", sampled, rep.Note)
	}
	written, _ := os.ReadFile(path)

	// The same bytes at another path: planner remembers nothing of it, so it
	// compares the long way, and then remembers it.
	copied := filepath.Join(t.TempDir(), "copy.xlsx")
	if err := os.WriteFile(copied, written, 0o644); err != nil {
		t.Fatal(err)
	}
	full, sampled := sampling(t, copied, quick)
	if !sampled || full.Note != copied+": Results already up to date; the file is unchanged" {
		t.Fatalf("a copy: sampled %v, %q", sampled, full.Note)
	}
	known, sampled := sampling(t, copied, quick)
	if sampled || known.Note != full.Note {
		t.Fatalf("the copy again: sampled %v, %q", sampled, known.Note)
	}
	if got, want := reportJSON(t, known), reportJSON(t, full); got != want {
		t.Errorf("the report of a workbook known up to date differs from a full run's:\n%s\nwant\n%s", got, want)
	}
	// --check trusts no memory: it evaluates in full and compares.
	if rep, sampled := sampling(t, path, Options{Samples: quick.Samples, Seed: quick.Seed, Version: quick.Version, Check: true}); !sampled ||
		rep.Note != path+": up to date: planner's sheets match a fresh evaluation" {
		t.Errorf("--check: sampled %v, %q", sampled, rep.Note)
	}

	// A number typed over one of planner's own cells is put right.
	setCell(t, path, "Results", "D5", 1) // the capex per GPU, a live formula

	if rep, sampled := sampling(t, path, quick); !sampled || rep.Note == unchanged {
		t.Errorf("after an edit in Results: sampled %v, %q", sampled, rep.Note)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := f.GetCellValue("Results", "D5")
	formula, _ := f.GetCellFormula("Results", "D5")
	f.Close()
	if want := cellOf(t, written, "Results", "D5"); got != want || formula != "capex/gpus" || want != "$35,625" {
		t.Errorf("Results!D5 after eval: =%s, %q; want planner's =capex/gpus, %q (the article's $35,625)", formula, got, want)
	}

	// Other samples or seed write other Monte Carlo sheets.
	more := quick
	more.Samples = 300
	if rep, sampled := sampling(t, path, more); !sampled || rep.Note == unchanged {
		t.Errorf("with 300 samples: sampled %v, %q", sampled, rep.Note)
	}
	if _, sampled := sampling(t, path, more); sampled {
		t.Error("300 samples again: sampled")
	}

	// A damaged memory is no memory.
	memories, _ := filepath.Glob(filepath.Join(memoryFolder(t), "[0-9a-f]*"))
	for _, m := range memories {
		data, _ := os.ReadFile(m)
		head, _, _ := bytes.Cut(data, []byte("\n"))
		os.WriteFile(m, append(head, "\nnot what planner wrote"...), 0o600)
	}
	if len(memories) == 0 {
		t.Fatal("planner remembered nothing")
	}
	if rep, sampled := sampling(t, path, more); !sampled || rep.Note != unchanged {
		t.Errorf("with a damaged memory: sampled %v, %q", sampled, rep.Note)
	}
}

// cellOf is a cell's value in a workbook's bytes.
func cellOf(t *testing.T, data []byte, sheet, cell string) string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := f.GetCellValue(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A Monte Carlo output of -0 (a credit of -residual × capex, with no
// residual) comes back from what planner remembers as it was: the report of
// the next run is a full run's, "base": -0 and all.
func TestUpToDateReportKeepsTheSignOfZero(t *testing.T) {
	path := newWorkbook(t)
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Formulas")
	if err != nil {
		t.Fatal(err)
	}
	row := strconv.Itoa(len(rows) + 1)
	for cell, v := range map[string]string{"A": "resale_credit", "B": "-residual * capex", "C": "$", "D": "What the node sells for, as a credit."} {
		if err := f.SetCellValue("Formulas", cell+row, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	sampling(t, path, quick)
	again, _ := sampling(t, path, quick)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // nothing remembered: a full run
	full, sampled := sampling(t, path, quick)
	if !sampled {
		t.Fatal("a run with nothing remembered did not sample")
	}
	want := reportJSON(t, full)
	if !strings.Contains(want, `"base":-0`) {
		t.Fatalf("the full run's report has no output of -0 to keep:\n%s", want)
	}
	if got := reportJSON(t, again); got != want {
		t.Errorf("the report of the run after the first differs from a full run's:\n%s\nwant\n%s", got, want)
	}
}

// memoryFolder is where planner keeps its memories.
func memoryFolder(t *testing.T) string {
	t.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "planner", "up-to-date")
}
