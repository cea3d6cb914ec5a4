//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// plannerTimed runs the planner binary in dir, killed if it has not
// finished in 20 seconds: a command that hangs fails the test instead of
// hanging it.
func plannerTimed(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "planner", args...)
	cmd.Dir = dir
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("planner %q did not finish in 20 s (killed); stderr: %s", args, errs.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errs.String()
}

// initPlan writes planner's default workbook at dir/name.
func initPlan(t *testing.T, dir, name string) string {
	t.Helper()
	if code, _, errs := plannerTimed(t, dir, "init", name); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	return filepath.Join(dir, name)
}

// A named pipe or a device is not a workbook: every command that opens one
// refuses it in one line, at once, instead of waiting for a writer or
// reading without end.
func TestPipesAndDevicesAreRefused(t *testing.T) {
	dir := t.TempDir()
	initPlan(t, dir, "plan.xlsx")
	if err := syscall.Mkfifo(filepath.Join(dir, "f.xlsx"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if err := os.Symlink("f.xlsx", filepath.Join(dir, "link.xlsx")); err != nil {
		t.Fatal(err)
	}
	pipe := "f.xlsx: is a named pipe (FIFO), not a workbook file; planner reads and writes workbooks only as regular files: name the .xlsx file itself\n"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"eval", "f.xlsx"}, 1, pipe},
		{[]string{"eval", "f.xlsx", "--set", "capex=1"}, 1, pipe},
		{[]string{"eval", "f.xlsx", "-o", "out.xlsx"}, 1, pipe},
		{[]string{"eval", "f.xlsx", "--check"}, 1, pipe},
		{[]string{"init", "f.xlsx"}, 1, pipe},
		{[]string{"show", "f.xlsx"}, 1, pipe},
		{[]string{"diff", "f.xlsx", "plan.xlsx"}, 1, pipe},
		{[]string{"diff", "plan.xlsx", "f.xlsx"}, 1, pipe},
		{[]string{"solve", "f.xlsx", "--for", "utilization", "--target", "cost_per_used_hour=2.69"}, 1, pipe},
		{[]string{"size", "f.xlsx", "--params", "70", "--precision", "fp8"}, 1, pipe},
		{[]string{"formulas", "f.xlsx"}, 1, pipe},
		{[]string{"show", "link.xlsx"}, 1, "link.xlsx: is a link to a named pipe (FIFO), not a workbook file; planner reads and writes workbooks only as regular files: name the .xlsx file itself\n"},
		{[]string{"eval", "plan.xlsx", "-o", "f.xlsx"}, 1, "f.xlsx: is a named pipe (FIFO); -o names a workbook file to create, or one planner wrote before: choose another name for -o\n"},
		{[]string{"show", "/dev/zero"}, 1, "/dev/zero: is a character device, not a workbook file; planner reads and writes workbooks only as regular files: name the .xlsx file itself\n"},
		{[]string{"eval", "/dev/null"}, 1, "/dev/null: is a character device, not a workbook file; planner reads and writes workbooks only as regular files: name the .xlsx file itself\n"},
	} {
		code, _, errs := plannerTimed(t, dir, tc.args...)
		if code != tc.code || errs != tc.want {
			t.Errorf("planner %q: exit %d, stderr\n%s\nwant exit %d and\n%s", tc.args, code, errs, tc.code, tc.want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "f.xlsx")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe was replaced: %v %v", fi.Mode(), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.xlsx")); err == nil {
		t.Error("eval -o wrote out.xlsx from a named pipe")
	}
}

// A file of the user's that looks like the temporary file of an older
// planner's save is not taken for one.
func TestEvalKeepsFilesThatLookLikeTemporaryOnes(t *testing.T) {
	dir := t.TempDir()
	initPlan(t, dir, "plan.xlsx")
	mine := filepath.Join(dir, ".plan.xlsx2024")
	if err := os.WriteFile(mine, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "1000"); code != 0 {
		t.Fatal(errs)
	}
	if got, err := os.ReadFile(mine); err != nil || string(got) != "x\n" {
		t.Errorf(".plan.xlsx2024 after eval: %q, %v; want it as it was", got, err)
	}
}

// Through a symbolic link, the lock files of Excel and LibreOffice count
// beside the file the link leads to as well as beside the link, and a save
// replaces that file and keeps the link.
func TestLinksToWorkbooks(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	real := initPlan(t, dir, "real/plan.xlsx")
	for link, to := range map[string]string{"link.xlsx": "real/plan.xlsx", "new.xlsx": "real/new.xlsx"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.ReadFile(real)
	for _, tc := range []struct {
		lock string
		args []string
		want string
	}{
		{"real/.~lock.plan.xlsx#", []string{"eval", "link.xlsx"},
			"link.xlsx: is open in another program (the lock file real/.~lock.plan.xlsx# exists beside real/plan.xlsx, which link.xlsx links to); close it there first, or, if no program has it open, delete real/.~lock.plan.xlsx#\n"},
		{"real/~$plan.xlsx", []string{"eval", "link.xlsx"},
			"link.xlsx: is open in another program (the lock file real/~$plan.xlsx exists beside real/plan.xlsx, which link.xlsx links to); close it there first, or, if no program has it open, delete real/~$plan.xlsx\n"},
		{"real/~$plan.xlsx", []string{"init", "link.xlsx"},
			"link.xlsx: is open in another program (the lock file real/~$plan.xlsx exists beside real/plan.xlsx, which link.xlsx links to); close it there first, or, if no program has it open, delete real/~$plan.xlsx\n"},
		{".~lock.link.xlsx#", []string{"eval", "link.xlsx"},
			"link.xlsx: is open in another program (the lock file .~lock.link.xlsx# exists); close it there first, or, if no program has it open, delete .~lock.link.xlsx#\n"},
	} {
		lock := filepath.Join(dir, tc.lock)
		if err := os.WriteFile(lock, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := plannerTimed(t, dir, tc.args...)
		if code != 1 || errs != tc.want {
			t.Errorf("planner %q with %s: exit %d, stderr\n%s\nwant exit 1 and\n%s", tc.args, tc.lock, code, errs, tc.want)
		}
		if now, _ := os.ReadFile(real); !bytes.Equal(now, before) {
			t.Fatalf("planner %q wrote the workbook %s has open", tc.args, tc.lock)
		}
		os.Remove(lock)
	}

	// Without locks: eval and init through links write the files they lead
	// to, and the links stay links.
	if code, _, errs := plannerTimed(t, dir, "eval", "link.xlsx", "--samples", "1000"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := plannerTimed(t, dir, "init", "new.xlsx"); code != 0 {
		t.Fatal(errs)
	}
	for link, to := range map[string]string{"link.xlsx": "real/plan.xlsx", "new.xlsx": "real/new.xlsx"} {
		if got, err := os.Readlink(filepath.Join(dir, link)); err != nil || got != to {
			t.Errorf("%s after saving through it: %q, %v; want a link to %s", link, got, err, to)
		}
	}
	if now, _ := os.ReadFile(real); bytes.Equal(now, before) {
		t.Error("eval through the link did not write real/plan.xlsx")
	}
	if _, err := os.Stat(filepath.Join(dir, "real/new.xlsx")); err != nil {
		t.Errorf("init through a link to no file yet: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "real"))
	if len(entries) != 2 {
		t.Errorf("real holds %d files, want plan.xlsx and new.xlsx", len(entries))
	}
}

// -o naming the workbook itself, however spelled, never takes a what-if:
// the master would hold --set's results and show would call it stale.
// Without --set it is eval in place.
func TestOutputThatIsTheInput(t *testing.T) {
	dir := t.TempDir()
	plan := initPlan(t, dir, "plan.xlsx")
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "1000"); code != 0 {
		t.Fatal(errs)
	}
	if err := os.Symlink("plan.xlsx", filepath.Join(dir, "link.xlsx")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(plan, filepath.Join(dir, "hard.xlsx")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(plan)
	for _, out := range []string{"plan.xlsx", "./plan.xlsx", plan, "link.xlsx", "hard.xlsx"} {
		code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "1000", "--set", "capex=320000", "-o", out)
		want := "plan.xlsx: -o " + out + " is this same workbook; planner saves --set results, a what-if, only into another file, so that plan.xlsx keeps the results of its own inputs: name a new file, such as -o what-if.xlsx\n"
		if code != 1 || errs != want {
			t.Errorf("-o %s: exit %d, stderr\n%s\nwant exit 1 and\n%s", out, code, errs, want)
		}
		if now, _ := os.ReadFile(plan); !bytes.Equal(now, before) {
			t.Fatalf("-o %s --set changed the workbook", out)
		}
	}
	if _, stdout, _ := plannerTimed(t, dir, "show", "plan.xlsx"); !strings.Contains(stdout, ", as in the Results sheet\n") {
		t.Errorf("show calls the workbook stale:\n%s", stdout)
	}
	// Without --set, -o the workbook itself is eval in place: up to date,
	// so untouched; then, with an input changed, written.
	for _, out := range []string{"./plan.xlsx", "link.xlsx"} {
		code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "1000", "-o", out)
		if want := "plan.xlsx: Results already up to date; the file is unchanged\n"; code != 0 || errs != want {
			t.Errorf("-o %s: exit %d, stderr\n%s\nwant exit 0 and\n%s", out, code, errs, want)
		}
	}
	if now, _ := os.ReadFile(plan); !bytes.Equal(now, before) {
		t.Fatal("eval -o of an up-to-date workbook into itself rewrote it")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.xlsx")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.xlsx is no longer a link: %v", err)
	}
}

// The advice in planner's messages, followed literally in a shell, works:
// each case runs a command, takes the advice out of its message and runs
// that.
func TestAdviceWorks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(dir string)
		args   []string
		want   string         // the message
		advice *regexp.Regexp // the advice in it: the command to run
		then   []string       // a command that works once the advice is followed
	}{
		{"read-only eval", func(dir string) { readOnlyPlan(t, dir) }, []string{"eval", "ro.xlsx"},
			"ro.xlsx: is read-only; planner does not replace a file you protected: make it writable (chmod u+w), or write a copy with -o other.xlsx\n",
			regexp.MustCompile(`with (-o \S+)\n$`), []string{"show", "other.xlsx"}},
		{"read-only init", func(dir string) {
			foreignBook(t, filepath.Join(dir, "ro.xlsx"))
			os.Chmod(filepath.Join(dir, "ro.xlsx"), 0o444)
		}, []string{"init", "ro.xlsx"},
			"ro.xlsx: is read-only; planner does not replace a file you protected: make it writable (chmod u+w), or write a copy with -o other.xlsx\n",
			regexp.MustCompile(`with (-o \S+)\n$`), []string{"eval", "other.xlsx", "--samples", "1000"}},
		{"no such file", nil, []string{"show", "--", "-my plan.xlsx"},
			"-my plan.xlsx: no such file; planner init './-my plan.xlsx' creates a workbook there\n",
			regexp.MustCompile(`; (planner .*) creates`), []string{"show", "--", "-my plan.xlsx"}},
		{"no Assumptions", func(dir string) { foreignBook(t, filepath.Join(dir, "my budget.xlsx")) }, []string{"eval", "my budget.xlsx"},
			"my budget.xlsx: has no sheet Assumptions (sheets: Budget); planner init 'my budget.xlsx' adds every sheet planner needs\n",
			regexp.MustCompile(`; (planner .*) adds`), []string{"eval", "my budget.xlsx", "--samples", "1000"}},
		{"stale", func(dir string) { initPlan(t, dir, "it's.xlsx") }, []string{"eval", "it's.xlsx", "--check"},
			"it's.xlsx: has no Results sheet written by planner; run planner eval 'it'\\''s.xlsx'\nit's.xlsx: stale; run planner eval 'it'\\''s.xlsx' and commit the result\n",
			regexp.MustCompile(`run (planner .*) and commit`), []string{"eval", "it's.xlsx", "--check"}},
	} {
		dir := t.TempDir()
		if tc.setup != nil {
			tc.setup(dir)
		}
		code, _, errs := plannerTimed(t, dir, tc.args...)
		if code == 0 || errs != tc.want {
			t.Errorf("%s: exit %d, stderr\n%s\nwant\n%s", tc.name, code, errs, tc.want)
			continue
		}
		m := tc.advice.FindStringSubmatch(errs)
		if m == nil {
			t.Errorf("%s: no advice in %q", tc.name, errs)
			continue
		}
		line := m[1]
		if strings.HasPrefix(line, "-o ") { // a flag to add to the same command
			line = "planner " + strings.Join(quoteAll(tc.args), " ") + " " + line
		}
		sh := exec.Command("sh", "-c", line)
		sh.Dir = dir
		if out, err := sh.CombinedOutput(); err != nil {
			t.Errorf("%s: the advice %q fails: %v\n%s", tc.name, line, err, out)
			continue
		}
		if tc.then != nil {
			if code, _, errs := plannerTimed(t, dir, tc.then...); code != 0 {
				t.Errorf("%s: after %q, planner %q: %s", tc.name, line, tc.then, errs)
			}
		}
	}
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return out
}

// readOnlyPlan is planner's workbook at dir/ro.xlsx, made read-only.
func readOnlyPlan(t *testing.T, dir string) {
	t.Helper()
	if err := os.Chmod(initPlan(t, dir, "ro.xlsx"), 0o444); err != nil {
		t.Fatal(err)
	}
}

// foreignBook is a workbook of someone's own, with a sheet Budget.
func foreignBook(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Budget"); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}
