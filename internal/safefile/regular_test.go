package safefile

import (
	"os"
	"testing"
)

// A file whose size says one thing and whose reading gives more (files in
// /proc say 0 bytes; a file being appended to grows) is read only up to
// the limit, then refused.
func TestReadingIsBoundedWhateverTheSizeSays(t *testing.T) {
	const path = "/proc/self/maps"
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 {
		t.Skip("no /proc file that says it is empty")
	}
	data, _, err := ReadOriginal(path, 64)
	want := path + ": grew past 64 bytes while planner read it; planner reads workbooks up to 64 bytes"
	if err == nil || err.Error() != want || data != nil {
		t.Errorf("got %d bytes, %v\nwant %s", len(data), err, want)
	}
	if data, _, err = ReadOriginal(path, 1<<20); err != nil || len(data) == 0 {
		t.Errorf("under the limit: %d bytes, %v", len(data), err)
	}
}
