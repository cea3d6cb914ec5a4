package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// The case users lose work in: planner eval --samples 400000 runs while
// another program saves the workbook, by a new file renamed into place (as
// Excel, LibreOffice, sync clients and git checkout do) or by writing it in
// place (as cp does). eval refuses with a message that says so, exits 1,
// and the other program's bytes stay, with no file of planner's left.
func TestEvalWhileAnotherProgramSaves(t *testing.T) {
	slow(t, "runs eval with 400000 samples while another program saves the workbook")
	for _, tc := range []struct{ how, save string }{
		{"renamed into place", `cp "$1" .saving.tmp && mv .saving.tmp plan.xlsx`},
		{"written in place", `cp "$1" plan.xlsx`},
	} {
		t.Run(tc.how, func(t *testing.T) {
			dir, plan := freshPlan(t)
			theirs := filepath.Join(t.TempDir(), "theirs.xlsx")
			copyFile(t, plan, theirs)
			editBook(t, theirs, func(f *excelize.File) error { return f.SetCellStr("Assumptions", "H1", "a note saved meanwhile") })
			want, _ := os.ReadFile(theirs)

			eval := planner("eval", "plan.xlsx", "--samples", "400000")
			eval.Dir = dir
			var stderr bytes.Buffer
			eval.Stderr = &stderr
			if err := eval.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- eval.Wait() }()
			waitForLock(t, plan, done)
			time.Sleep(300 * time.Millisecond) // it has read the file and is sampling

			other := exec.Command("sh", "-c", tc.save, "sh", theirs)
			other.Dir = dir
			if out, err := other.CombinedOutput(); err != nil {
				t.Fatalf("the other program: %v %s", err, out)
			}
			select {
			case <-done:
				t.Fatal("eval had finished before the other program saved; the test needs a longer run")
			default:
			}
			var exit *exec.ExitError
			if err := <-done; !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Errorf("eval: %v, want exit status 1", err)
			}
			if msg := "plan.xlsx: changed while planner ran: another program saved, replaced or removed it after planner read it; nothing was written: run planner eval plan.xlsx --samples 400000 again\n"; stderr.String() != msg {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), msg)
			}
			if got, _ := os.ReadFile(plan); !bytes.Equal(got, want) {
				t.Error("the other program's save was lost")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%d files in the folder, want only plan.xlsx", len(entries))
			}
		})
	}
}

// waitForLock waits until a planner holds the lock on the workbook at
// path: it has claimed it, and reads it next.
func waitForLock(t *testing.T, path string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("eval ended before it took the lock: %v", err)
		default:
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		f.Close() // releases a lock won: eval waits a moment, then takes it
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("eval did not take the lock in 30s")
}
