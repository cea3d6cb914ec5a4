//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Lock makes planner runs on one workbook take turns: it takes an exclusive
// advisory lock on the file, waiting up to wait for another planner to
// finish, and returns the function that releases it. A file that does not
// exist yet needs no lock. Saving replaces the file with a new one, so a
// lock won on the old file is taken again on the new.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := openRegular(path)
		var notFile *NotRegularError
		switch {
		case errors.Is(err, os.ErrNotExist):
			return func() {}, nil
		case errors.As(err, &notFile):
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil && sameFile(f, path):
			return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); _ = f.Close() }, nil
		case err == nil: // replaced while we waited: lock the new one
			_ = f.Close()
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			_ = f.Close()
			return func() {}, nil // a file system without locks: go on unguarded rather than refuse to run
		}
		_ = f.Close()
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: another planner is evaluating this workbook and has not finished in %s; try again when it has", path, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sameFile reports whether the open file is still the one at path.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
