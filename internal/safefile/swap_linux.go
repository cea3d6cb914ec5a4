//go:build linux

package safefile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swapNames swaps the files at tmp and real in one step (RENAME_EXCHANGE),
// or, with create, renames tmp to real only while nothing is there
// (RENAME_NOREPLACE). It returns a *changed when real has gone (a swap) or
// has appeared (create), and errCannotSwap where the file system or the
// kernel refuses the call.
func swapNames(tmp, real string, create bool) error {
	flags := uint(unix.RENAME_EXCHANGE)
	if create {
		flags = unix.RENAME_NOREPLACE
	}
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, real, flags)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EPERM):
		// EPERM too: some sandboxes refuse calls they do not know so; a
		// rename that may not be done fails again as the plain rename.
		return errCannotSwap
	case create && errors.Is(err, unix.EEXIST), !create && errors.Is(err, unix.ENOENT):
		return &changed{}
	}
	return &os.LinkError{Op: "rename", Old: tmp, New: real, Err: err}
}
