//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// A bug of planner's own is trouble, exit status 2, said as a bug with the
// trace to report: not a mistake of the user's.
func TestPanicIsTrouble(t *testing.T) {
	root := &cobra.Command{Use: "planner", SilenceUsage: true, SilenceErrors: true}
	root.AddCommand(&cobra.Command{Use: "boom", RunE: func(*cobra.Command, []string) error { panic("boom") }})
	root.SetArgs([]string{"boom"})
	var errs bytes.Buffer
	status := execute(context.Background(), root, &errs)
	want := "planner: internal error: boom\nThis is a bug in planner, not a mistake of yours: please report it with the command you ran, this trace and, if you can share it, the workbook.\ngoroutine "
	if status != exitTrouble || !strings.HasPrefix(errs.String(), want) {
		t.Errorf("exit %d, stderr\n%s\nwant exit 2 and a stderr beginning\n%s", status, errs.String(), want)
	}
	if !strings.Contains(errs.String(), "TestPanicIsTrouble") {
		t.Errorf("the trace does not lead to the panic:\n%s", errs.String())
	}
}

// An error no command printed is the command line's: exit status 1, said
// once, after "planner: ".
func TestCommandLineErrorIsAMistake(t *testing.T) {
	var out, errs bytes.Buffer
	status := run([]string{"eval", "plan.xlsx", "--samples", "0"}, &out, &errs)
	if want := "planner: --samples: 0 samples: use between 1 and 5000000\n"; status != exitFailed || errs.String() != want || out.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", status, out.String(), errs.String(), want)
	}
}

// Interrupting eval (Ctrl-C) is trouble, exit status 2: the workbook being
// evaluated is left as it was, the ones after it are not evaluated, and
// stderr says which.
func TestInterruptIsTrouble(t *testing.T) {
	dir := t.TempDir()
	a, b := initPlan(t, dir, "a.xlsx"), initPlan(t, dir, "b.xlsx")
	beforeA, _ := os.ReadFile(a)
	beforeB, _ := os.ReadFile(b)
	// Millions of Monte Carlo samples: eval is still sampling a.xlsx when
	// the signal comes.
	cmd := exec.Command("planner", "eval", "a.xlsx", "b.xlsx", "--samples", "3000000")
	cmd.Dir = dir
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("eval did not stop within 20 s of an interrupt")
	}
	want := "a.xlsx: interrupted; nothing was written\nplanner: interrupted; not evaluated: b.xlsx\n"
	if code := cmd.ProcessState.ExitCode(); code != exitTrouble || errs.String() != want || out.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", code, out.String(), errs.String(), want)
	}
	for p, before := range map[string][]byte{a: beforeA, b: beforeB} {
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Errorf("the interrupted eval changed %s", p)
		}
	}
}
