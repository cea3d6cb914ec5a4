package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"planner/units"
)

// init into a workbook another program saves meanwhile, or into a new one
// another program creates meanwhile: Save refuses with the file Init read
// (or found missing), and the other program's bytes stay.
func TestInitRefusesAWorkbookSavedMeanwhile(t *testing.T) {
	theirs := []byte("the workbook as another program saved it")
	for _, tc := range []struct {
		name, what string
		path       func(t *testing.T) string
	}{
		{"the user's workbook", "another program saved, replaced or removed it after planner read it", userWorkbook},
		{"a new workbook", "another program created it after planner found no file there",
			func(t *testing.T) string { return filepath.Join(t.TempDir(), "plan.xlsx") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path(t)
			in, err := Init(path, units.USD)
			data, was := in.Data, in.Original
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, theirs, 0o644); err != nil {
				t.Fatal(err)
			}
			err = RunAgain(Save(path, data, was), Command("init", path))
			if want := path + ": changed while planner ran: " + tc.what + "; nothing was written: run planner init " + path + " again"; err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
				t.Error("the other program's save was lost")
			}
		})
	}
}

// The Book remembers the file Read read, so that eval's save can tell.
func TestSaveRefusesAReadWorkbookSavedMeanwhile(t *testing.T) {
	path := newPlan(t)
	b, data := evaluate(t, path)
	theirs := append(bytes.Clone(b.Data()), "another program's bytes"...)
	if err := os.WriteFile(path, theirs, 0o644); err != nil {
		t.Fatal(err)
	}
	err := Save(path, data, b.Original())
	if want := path + ": changed while planner ran: another program saved, replaced or removed it after planner read it; nothing was written"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
		t.Error("the other program's save was lost")
	}
}
