package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// bigPlan is the default workbook plus a user sheet of rows×10 numbers, so
// that evaluating and saving it takes a while.
func bigPlan(t *testing.T, dir string, rows int) string {
	t.Helper()
	path := filepath.Join(dir, "plan.xlsx")
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= rows; r++ {
		cells := make([]any, 10)
		for c := range cells {
			cells[c] = float64(r*10 + c)
		}
		if err := sw.SetRow(fmt.Sprintf("A%d", r), cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("planner", "init", path).CombinedOutput(); err != nil {
		t.Fatalf("init: %v %s", err, out)
	}
	return path
}

// planner runs the planner binary testscript put on PATH.
func planner(args ...string) *exec.Cmd { return exec.Command("planner", args...) }

// Killing eval at any moment leaves the workbook as it was or as eval
// would write it, whole, and nothing a later run trips over.
func TestKillDuringSave(t *testing.T) {
	slow(t, "kills eval at a hundred moments")
	dir := t.TempDir()
	path := bigPlan(t, dir, 8000)
	old, _ := os.ReadFile(path)
	// What a complete eval writes, and how long it takes.
	start := time.Now()
	if out, err := planner("eval", path, "--samples", "1000").CombinedOutput(); err != nil {
		t.Fatalf("eval: %v %s", err, out)
	}
	took := time.Since(start)
	done, _ := os.ReadFile(path)
	runs := 100
	outcomes := map[string]int{}
	for i := 0; i < runs; i++ {
		if err := os.WriteFile(path, old, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := planner("eval", path, "--samples", "1000")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(killAt(took, i, runs))
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		now, _ := os.ReadFile(path)
		switch {
		case bytes.Equal(now, old):
			outcomes["old"]++
		case bytes.Equal(now, done):
			outcomes["new"]++
		default:
			t.Fatalf("killed after %v: the workbook is neither the old one nor the new one (%d bytes)", killAt(took, i, runs), len(now))
		}
	}
	t.Logf("%d kills over %v: %v", runs, took, outcomes)
	// A later run finishes, and clears what killed runs left.
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := planner("eval", path, "--samples", "1000").CombinedOutput(); err != nil {
		t.Fatalf("eval after the kills: %v %s", err, out)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, done) {
		t.Error("the eval after the kills wrote something else")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "plan.xlsx" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// killAt spreads the kills from 30 % to 180 % of a whole run: reading
// comes first, and saving, the part that matters, last, and a run under
// load takes longer than the one measured.
func killAt(took time.Duration, i, runs int) time.Duration {
	return took*3/10 + took*15/10*time.Duration(i)/time.Duration(runs)
}

// Two evals of one workbook at once: they take turns, and the file ends
// whole and up to date.
func TestConcurrentEvals(t *testing.T) {
	dir := t.TempDir()
	path := bigPlan(t, dir, 12000)
	var wg sync.WaitGroup
	outs := make([][]byte, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = planner("eval", path, "--samples", "1000").CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range 2 {
		if errs[i] != nil && !strings.Contains(string(outs[i]), "another planner is evaluating this workbook") {
			t.Errorf("eval %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	if out, err := planner("eval", path, "--samples", "1000", "--check").CombinedOutput(); err != nil {
		t.Errorf("after two evals at once the workbook is not up to date: %v\n%s", err, out)
	}
}
