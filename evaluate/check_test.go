package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checking is quick with --check.
var checking = Options{Samples: quick.Samples, Seed: quick.Seed, Version: quick.Version, Check: true}

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
	rep, err := Evaluate(context.Background(), path, quick)
	if err != nil {
		t.Fatal(err)
	}
	setCell(t, path, "Assumptions", "B6", 412000) // capex: Results is stale
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{opts: quick.withDefaults(), path: path, target: path}
	r.remember(path, stale, remembered{MonteCarlo: rep.MonteCarlo})
	if r.recall(path, stale) == nil {
		t.Fatal("planner does not recall the memory planted for the stale workbook")
	}
	_, err = Evaluate(context.Background(), path, checking)
	if want := path + `: Results!D5 (Capex per GPU, base): "35625" in the file, "51500" in a fresh evaluation`; err == nil || !strings.Contains(err.Error(), "\n"+want+"\n") {
		t.Errorf("--check of a stale workbook planner remembers: %v; want a line\n%s", err, want)
	}
}
