package safefile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fullDisk fails like a file system with no space left, after some bytes.
type fullDisk struct {
	w    io.Writer
	left int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) > d.left {
		n, _ := d.w.Write(p[:d.left])
		d.left = 0
		return n, &os.PathError{Op: "write", Path: "disk", Err: syscall.ENOSPC}
	}
	d.left -= len(p)
	return d.w.Write(p)
}

// A full disk in the middle of saving leaves the workbook as it was and
// no temporary file behind.
func TestSaveOnAFullDisk(t *testing.T) {
	path := existing(t, []byte("the workbook as it was"))
	before, was, _ := ReadOriginal(path, 1<<20)
	full := Options{Writer: func(w io.Writer) io.Writer { return &fullDisk{w: w, left: 4096} }}
	err := Save(path, bytes.Repeat([]byte("x"), 1<<20), was, full)
	if want := path + ": could not be saved (no space left on device); the file is as it was"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the workbook changed")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files in the folder, want only the workbook", len(entries))
	}
}
