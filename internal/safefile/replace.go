package safefile

import (
	"errors"
	"io/fs"
	"os"
)

// changed is replace's refusal: the file at the path is no longer the
// original. kept names where another program's file was left, when a race
// put it under planner's temporary name (see swapBack).
type changed struct{ kept string }

func (c *changed) Error() string { return "changed since it was read" }

// errCannotSwap means the platform or the file system cannot swap two
// names at once; replace then checks, and renames.
var errCannotSwap = errors.New("cannot swap names")

// swap is swapNames; tests put a file system that refuses it in its place.
var swap = swapNames

// beforeReplace runs between replace's last check and its rename: tests
// change the file there.
var beforeReplace = func() {}

// replace renames tmp, planner's new file, over real when real is still
// was; ours is tmp as planner wrote it. Where the system can swap two
// names at once (Linux's renameat2), it swaps the new file in, then checks
// what it swapped out, and swaps that back when it is no longer was, so
// that a file another program renamed there at any moment before is never
// lost; a new file it creates only where nothing is. Elsewhere it checks,
// then renames. It removes tmp unless tmp then holds another program's
// file (see swapBack); it returns a *changed when real is not was.
func replace(tmp, real string, was Original, ours fs.FileInfo) error {
	if !was.isAt(real) { // before showing anyone planner's file
		_ = os.Remove(tmp)
		return &changed{}
	}
	beforeReplace()
	switch err := swap(tmp, real, was.info == nil); {
	case errors.Is(err, errCannotSwap):
		if err := os.Rename(tmp, real); err != nil {
			_ = os.Remove(tmp)
			return err
		}
		return nil
	case err != nil:
		_ = os.Remove(tmp)
		return err
	case was.info == nil:
		return nil
	}
	if was.isAt(tmp) { // what was swapped out is the original: the save is done
		_ = os.Remove(tmp)
		return nil
	}
	return swapBack(tmp, real, ours)
}

// swapBack undoes a swap that took out a file another program had put at
// real: it is swapped back in (or, should real have gone meanwhile,
// renamed back where nothing is), and planner's new file removed. Should
// yet another program have saved over planner's file in the moment
// between, that file is now at tmp, and is kept there.
func swapBack(tmp, real string, ours fs.FileInfo) error {
	if err := swap(tmp, real, false); err != nil {
		_ = swap(tmp, real, true)
	}
	fi, err := os.Lstat(tmp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &changed{}
	case err == nil && os.SameFile(fi, ours):
		_ = os.Remove(tmp)
		return &changed{}
	}
	return &changed{kept: tmp}
}
