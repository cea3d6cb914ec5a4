package evaluate

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks"
)

// writing evaluates path with opts in a cache folder of its own, empty,
// as in CI or for a colleague, and reports whether the run wrote the
// sheets (in memory, to compare or to save).
func writing(t *testing.T, path string, opts Options) (*Report, bool) {
	t.Helper()
	rep, phases := phased(t, path, opts)
	return rep, phases[phaseWriting]
}

// phased evaluates path as writing does, with the phases the run went
// through.
func phased(t *testing.T, path string, opts Options) (*Report, map[string]bool) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	phases := map[string]bool{}
	opts.Progress = func(phase string, done, total int) { phases[phase] = true }
	rep, err := Evaluate(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep, phases
}

// zipComment is the comment of the zip at path, as archive/zip reads it.
func zipComment(t *testing.T, path string) string {
	t.Helper()
	r, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Comment
}

// withComment rewrites the zip at path entry by entry, as another program
// might, with comment as its zip comment.
func withComment(t *testing.T, path, comment string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range r.File {
		if err := w.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetComment(comment); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A workbook written by a build that names itself proves itself up to date
// to that build from its own bytes, with no memory of it anywhere: the
// next eval writes nothing, and its report is a full run's. Another build,
// other choices, or any edit, even one that keeps the comment, and eval
// writes the sheets again.
func TestStampedWorkbookIsUpToDateWithoutAMemory(t *testing.T) {
	path := newWorkbook(t)
	opts := quick
	opts.Build = "planner v1.2.3"
	unchanged := path + ": Results already up to date; the file is unchanged"
	if rep, wrote := writing(t, path, opts); !wrote || rep.Note == unchanged {
		t.Fatalf("first eval: wrote %v, %q", wrote, rep.Note)
	}
	memories, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "planner", "up-to-date", "[0-9a-f]*"))
	if len(memories) > 0 {
		t.Errorf("a workbook that carries its Monte Carlo results was remembered too: %v", memories)
	}
	stamp := zipComment(t, path)
	if !strings.HasPrefix(stamp, "planner up to date, sha256 ") || len(stamp) != len("planner up to date, sha256 ")+64 {
		t.Fatalf("the zip comment is %q, want planner's digest", stamp)
	}
	written, _ := os.ReadFile(path)

	fast, phases := phased(t, path, opts)
	if phases[phaseWriting] || fast.Note != unchanged {
		t.Fatalf("again, no memory: wrote %v, %q", phases[phaseWriting], fast.Note)
	}
	if phases[phaseMonteCarlo] {
		t.Error("again, no memory: sampled, though the workbook carries its Monte Carlo results")
	}
	other := opts
	other.Build = "planner v1.2.4"
	full, wrote := writing(t, path, other)
	if !wrote || full.Note != unchanged {
		t.Fatalf("another build: wrote %v, %q", wrote, full.Note)
	}
	if got, want := reportJSON(t, fast), reportJSON(t, full); got != want {
		t.Errorf("the report of a stamped workbook differs from a full run's:\n%s\nwant\n%s", got, want)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, written) {
		t.Fatal("a workbook found up to date was changed")
	}
	for _, c := range []struct {
		what string
		opts func(*Options)
	}{
		{"a build that cannot name itself", func(o *Options) { o.Build = "" }},
		{"other samples", func(o *Options) { o.Samples = 300 }},
		{"another seed", func(o *Options) { o.Seed = 7 }},
		{"a tornado target", func(o *Options) { o.Targets = []string{"cost_per_used_hour"} }},
	} {
		o := opts
		c.opts(&o)
		if _, wrote := writing(t, path, o); !wrote {
			t.Errorf("%s: trusted the stamp", c.what)
		}
		os.WriteFile(path, written, 0o644)
	}

	// An input edited by a program that keeps the comment: the digest no
	// longer holds, and the new results are written.
	setCell(t, path, "Assumptions", "B6", 400000) // capex
	withComment(t, path, stamp)
	if rep, wrote := writing(t, path, opts); !wrote || rep.Note == unchanged {
		t.Fatalf("after an edit under the old comment: wrote %v, %q", wrote, rep.Note)
	}
	if zipComment(t, path) == stamp {
		t.Error("the new results carry the old digest")
	}
	// The same bytes with another comment than planner's: no proof.
	withComment(t, path, "written by another program")
	if _, wrote := writing(t, path, opts); !wrote {
		t.Error("trusted another program's comment")
	}
}

// --check never trusts the stamp: a workbook whose Results were typed
// over and stamped again, as only someone forging it would, is stale.
func TestCheckTrustsNoStamp(t *testing.T) {
	path := newWorkbook(t)
	opts := quick
	opts.Build = "planner v1.2.3"
	if _, err := Evaluate(context.Background(), path, opts); err != nil {
		t.Fatal(err)
	}
	editBook(t, path, func(f *excelize.File) error { return f.SetCellValue("Results", "D5", 1) })
	data, _ := os.ReadFile(path)
	forged, _ := workbooks.Stamp(data, (&run{opts: opts.withDefaults()}).stampKey(), nil, nil)
	if err := os.WriteFile(path, forged, 0o644); err != nil {
		t.Fatal(err)
	}
	check := checking
	check.Build = opts.Build
	_, err := Evaluate(context.Background(), path, check)
	if err == nil || !strings.HasSuffix(err.Error(), staleTail(path)) {
		t.Fatalf("--check of a forged stamp: %v", err)
	}
	if !strings.Contains(err.Error(), "Results") {
		t.Errorf("--check does not name Results: %v", err)
	}
}

// A what-if written with -o is never a workbook's own results: it carries
// no proof, and evaluating the copy writes its own results into it.
func TestWhatIfCarriesNoStamp(t *testing.T) {
	path := newWorkbook(t)
	out := filepath.Join(t.TempDir(), "what-if.xlsx")
	opts := quick
	opts.Build, opts.Output, opts.Sets = "planner v1.2.3", out, []string{"capex=320000"}
	if _, err := Evaluate(context.Background(), path, opts); err != nil {
		t.Fatal(err)
	}
	if c := zipComment(t, out); c != "" {
		t.Errorf("a what-if's comment is %q", c)
	}
	opts.Output, opts.Sets = "", nil
	if rep, wrote := writing(t, out, opts); !wrote || strings.Contains(rep.Note, "already up to date") {
		t.Errorf("the what-if evaluated: wrote %v, %q", wrote, rep.Note)
	}
}

// Only a build whose version pins its code names itself: a release, or a
// commit's pseudo-version; not one with uncommitted changes, nor one built
// without version control information.
func TestOnlyAPinnedBuildNamesItself(t *testing.T) {
	for _, c := range []struct{ version, want string }{
		{"v0.2.0", "planner v0.2.0"},
		{"v0.0.0-20261202181846-580b0eba4e86", "planner v0.0.0-20261202181846-580b0eba4e86"},
		{"v0.0.0-20261202181846-580b0eba4e86+dirty", ""},
		{"(devel)", ""},
		{"", ""},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "planner", Version: c.version}}
		if got := buildOf(bi); got != c.want {
			t.Errorf("a build of version %q names itself %q, want %q", c.version, got, c.want)
		}
	}
}

// A workbook stamped by the same build on another kind of machine proves
// its sheets up to date, but Monte Carlo's figures, which the compiler may
// round otherwise there, are sampled again here; so is a record that does
// not fit the workbook.
func TestCarriedRecordOfAnotherMachineIsSampledAgain(t *testing.T) {
	path := newWorkbook(t)
	opts := quick
	opts.Build = "planner v1.2.3"
	full, _ := writing(t, path, opts)
	data, _ := os.ReadFile(path)
	record := workbooks.Carried(data)
	if len(record) < 16 {
		t.Fatalf("the workbook carries a record of %d bytes", len(record))
	}
	key := (&run{opts: opts.withDefaults()}).stampKey()
	for what, changed := range map[string][]byte{
		"another machine's": append(bytes.Repeat([]byte{0xee}, 16), record[16:]...),
		"one cut short":     record[:len(record)-1],
	} {
		restamped, _ := workbooks.Stamp(data, key, changed, workbooks.OwnedSheets())
		if err := os.WriteFile(path, restamped, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, phases := phased(t, path, opts)
		if phases[phaseWriting] || !phases[phaseMonteCarlo] {
			t.Errorf("%s record: wrote %v, sampled %v", what, phases[phaseWriting], phases[phaseMonteCarlo])
		}
		if got, want := reportJSON(t, rep), reportJSON(t, full); got != want {
			t.Errorf("%s record: the report differs from a full run's", what)
		}
	}
}

// The record names how this processor computes: run with GODEBUG turning
// off the fused multiply-add Go's math.Exp takes where it can, which
// changes the last bit of some exponentials, planner names another
// machine, and trusts no record this one wrote.
func TestComputedByFollowsTheProcessor(t *testing.T) {
	if os.Getenv("PLANNER_PRINT_COMPUTED_BY") == "1" {
		fmt.Printf("computed by %x exp %x\n", computedBy(), math.Float64bits(math.Exp(-19.9994)))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestComputedByFollowsTheProcessor$")
	cmd.Env = append(os.Environ(), "PLANNER_PRINT_COMPUTED_BY=1", "GODEBUG=cpu.fma=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var by, exp string
	for _, line := range strings.Split(string(out), "\n") {
		if _, err := fmt.Sscanf(line, "computed by %s exp %s", &by, &exp); err == nil {
			break
		}
	}
	if by == "" {
		t.Fatalf("the child printed no digest:\n%s", out)
	}
	here := fmt.Sprintf("%x", computedBy())
	if exp == fmt.Sprintf("%x", math.Float64bits(math.Exp(-19.9994))) {
		if by != here {
			t.Errorf("the same arithmetic with GODEBUG=cpu.fma=off names another machine: %s, here %s", by, here)
		}
		t.Skip("this processor computes math.Exp alike without its fused multiply-add")
	}
	if by == here {
		t.Errorf("with GODEBUG=cpu.fma=off math.Exp rounds otherwise, but the record names the same machine, %s", here)
	}
}
