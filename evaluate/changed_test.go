package evaluate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"planner/montecarlo"
)

// Another program saving the workbook while eval runs, the way Excel and
// LibreOffice do (a new file renamed into place) or the way cp and many
// editors do (writing the file in place).
var otherSaves = []struct {
	how  string
	save func(path string, data []byte) error
}{
	{"renamed over it", func(path string, data []byte) error {
		tmp := filepath.Join(filepath.Dir(path), "~saving.tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}},
	{"written in place", func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }},
}

// savingDuring is opts with another program saving data at path when the
// phase begins.
func savingDuring(t *testing.T, opts Options, phase, path string, data []byte, save func(string, []byte) error) Options {
	var once sync.Once // Monte Carlo reports from several cores at once
	opts.Progress = func(p string, done, total int) {
		if p == phase {
			once.Do(func() {
				if err := save(path, data); err != nil {
					t.Error(err)
				}
			})
		}
	}
	return opts
}

// onlyFiles fails unless the folder holds exactly the files named.
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) {
		t.Errorf("the folder holds %q, want %q", got, names)
	}
}

// A workbook another program saves while eval runs is not replaced with
// results of the inputs eval read first: eval refuses, says so, and leaves
// the other program's bytes.
func TestEvaluateRefusesAWorkbookSavedMeanwhile(t *testing.T) {
	theirs := []byte("the workbook as another program saved it")
	for _, other := range otherSaves {
		for _, phase := range []string{phaseMonteCarlo, phaseSaving} {
			t.Run(other.how+" during "+phase, func(t *testing.T) {
				path := newWorkbook(t)
				rep, err := Evaluate(context.Background(), path, savingDuring(t, quick, phase, path, theirs, other.save))
				want := path + ": changed while planner ran: another program saved, replaced or removed it after planner read it; nothing was written: run planner eval " + path + " --samples 200 again"
				if err == nil || err.Error() != want {
					t.Errorf("got %v\nwant %s", err, want)
				}
				if rep.Note != "" {
					t.Errorf("the report says %q", rep.Note)
				}
				if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
					t.Error("the other program's save was lost")
				}
				onlyFiles(t, filepath.Dir(path), "plan.xlsx")
			})
		}
	}
}

// eval -o into a what-if planner wrote before, which another program saves
// meanwhile, or into a new file another program creates meanwhile: the
// same refusal, with the command that writes the same what-if again.
func TestEvaluateRefusesAnOutputSavedMeanwhile(t *testing.T) {
	theirs := []byte("the what-if as another program saved it")
	for _, tc := range []struct {
		name, what string
		exists     bool
	}{
		{"a what-if planner wrote", "another program saved, replaced or removed it after planner read it", true},
		{"a new file", "another program created it after planner found no file there", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := newWorkbook(t)
			out := filepath.Join(filepath.Dir(path), "what if.xlsx")
			opts := quick
			opts.Sets, opts.Output, opts.Seed = []string{"capex=250000"}, out, 7
			if tc.exists {
				if _, err := Evaluate(context.Background(), path, opts); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Evaluate(context.Background(), path, savingDuring(t, opts, phaseWhatIfs, out, theirs, otherSaves[0].save))
			want := out + ": changed while planner ran: " + tc.what + "; nothing was written: run planner eval " + path + " -o '" + out + "' --set capex=250000 --samples 200 --seed 7 again"
			if err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
			if got, _ := os.ReadFile(out); !bytes.Equal(got, theirs) {
				t.Error("the other program's save was lost")
			}
			onlyFiles(t, filepath.Dir(path), "plan.xlsx", "what if.xlsx")
		})
	}
}

// The command a refusal advises runs the same evaluation again: every
// choice that decides what is written, each word quoted as a shell needs,
// and only those.
func TestAgainIsTheSameEvaluation(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Samples: montecarlo.DefaultSamples, Seed: montecarlo.DefaultSeed, Scenarios: []string{"base"}},
			"planner eval plan.xlsx"},
		{Options{Output: "my what-if.xlsx", Sets: []string{"capex=250000", "name=a b"}, Targets: []string{"npv", "cost_per_gpu_hour"},
			Samples: 400000, Seed: 0, Force: true},
			"planner eval plan.xlsx -o 'my what-if.xlsx' --set capex=250000 --set 'name=a b' --target npv --target cost_per_gpu_hour --samples 400000 --seed 0 --force"},
	} {
		r := &run{opts: tc.opts, path: "plan.xlsx", target: "plan.xlsx"}
		if tc.opts.Output != "" {
			r.target = tc.opts.Output
		}
		if got := r.again(); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
