package safefile

import (
	"fmt"
	"io/fs"
	"os"
)

// openRegular opens the file at path for reading only when it is a regular
// file, or a link to one. A named pipe would block the open until a writer
// came and a device such as /dev/zero never ends, so the kind is checked
// before opening and again on the open file (openNoWait never waits for a
// writer), leaving no moment for the path to be swapped in between.
func openRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := notRegular(path, fi); err != nil {
		return nil, err
	}
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = notRegular(path, fi)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// NotRegularError says what the path is instead of a file.
type NotRegularError struct {
	Path string
	What string // "a folder", "a link to a named pipe (FIFO)", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: is %s, not a workbook file; planner reads and writes workbooks only as regular files: name the .xlsx file itself", e.Path, e.What)
}

// notRegular refuses anything but a regular file, saying what it is.
func notRegular(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	var what string
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	default:
		what = "neither a regular file nor a folder"
	}
	if lfi, err := os.Lstat(path); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
		what = "a link to " + what
	}
	return &NotRegularError{path, what}
}

// TooLargeError refuses a file over planner's size limit.
type TooLargeError struct {
	path  string
	size  int64 // -1: it grew past the limit while it was read
	limit int64
}

func (e *TooLargeError) Error() string {
	if e.size < 0 {
		return fmt.Sprintf("%s: grew past %s while planner read it; planner reads workbooks up to %s", e.path, megabytes(e.limit), megabytes(e.limit))
	}
	return fmt.Sprintf("%s: is %d MB; planner reads workbooks up to %s", e.path, e.size>>20, megabytes(e.limit))
}

// megabytes is a limit in whole MB, or in bytes when it is not one.
func megabytes(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
