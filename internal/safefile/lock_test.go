package safefile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// existing is a file in a temporary folder, holding content.
func existing(t *testing.T, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.xlsx")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A second planner waits for the first, then gives up with a clear message;
// the lock follows the workbook when a save replaces the file.
func TestLockTakesTurns(t *testing.T) {
	path := existing(t, []byte("a workbook"))
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Lock(path, 100*time.Millisecond)
	if want := path + ": another planner is evaluating this workbook and has not finished in 100ms; try again when it has"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	unlock()
	again, err := Lock(path, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("after unlocking: %v", err)
	}
	again()
	// A file that does not exist yet needs no lock.
	none, err := Lock(filepath.Join(t.TempDir(), "new.xlsx"), 0)
	if err != nil {
		t.Fatal(err)
	}
	none()
}
