package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrOpenElsewhere means the workbook is open in Excel or LibreOffice.
var ErrOpenElsewhere = errors.New("open in another program")

// CheckNotOpen refuses a workbook that Excel (~$plan.xlsx) or LibreOffice
// (.~lock.plan.xlsx#) has open: saving under it would lose the user's
// unsaved edits or theirs ours. Through a symbolic link the lock files are
// looked for beside the link and beside the file it leads to, which is
// the file a save replaces.
func CheckNotOpen(path string) error {
	real := followLinks(path)
	for _, at := range []string{path, real} {
		dir, base := filepath.Split(at)
		for _, lock := range []string{"~$" + base, ".~lock." + base + "#"} {
			if _, err := os.Lstat(filepath.Join(dir, lock)); err != nil {
				continue
			}
			where := lock
			if at != path {
				where = filepath.Join(dir, lock) + " exists beside " + real + ", which " + path + " links to"
			} else {
				where += " exists"
			}
			return fmt.Errorf("%s: is %w (the lock file %s); close it there first, or, if no program has it open, delete %s",
				path, ErrOpenElsewhere, where, filepath.Join(dir, lock))
		}
	}
	return nil
}

// followLinks is the file path names: symbolic links followed, a last one
// that points at no file yet included, so that a save through a link
// creates or replaces the file it points at, never the link.
func followLinks(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	p := path
	for range 40 { // as many links as Linux follows
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p
		}
		target, err := os.Readlink(p)
		if err != nil {
			return p
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return p
}

// Options change how Save writes. The zero value writes the file as it is
// and clears only empty temporary files a killed save left behind.
type Options struct {
	// Signature is how every file the caller saves begins: a temporary
	// file a killed save left behind is removed only when it is empty or
	// begins with it.
	Signature []byte
	// Writer, when not nil, is where the new file's bytes go, given the
	// temporary file: tests put a full disk in its place.
	Writer func(io.Writer) io.Writer
}

// Save replaces the file at path, was as planner read it (or none), with
// data atomically: a temporary file in the same folder, synced, renamed
// over the original (keeping its permissions), then the folder synced. A
// crash at any moment leaves either the old file or the new one, whole.
// When the file there is no longer was, because another program saved
// over it while planner ran, Save leaves it alone and returns a
// *ChangedError (see replace for how late it looks). Through a symbolic
// link it replaces the file the link points at and keeps the link. The
// caller holds Lock(path); Save then also clears temporary files a killed
// run left behind (see Options.Signature).
func Save(path string, data []byte, was Original, opts Options) error {
	real := followLinks(path)
	if fi, err := os.Stat(real); err == nil {
		if err := notRegular(path, fi); err != nil {
			return err
		}
	}
	if err := CheckWritable(path); err != nil {
		return err
	}
	if _, err := os.Stat(real); err == nil {
		// Only a file that exists can be locked; without the lock a run
		// creating the same new file could be mid-save.
		removeStaleTemps(real, opts.Signature)
	}
	err := writeAtomically(real, data, was, opts.Writer)
	var c *changed
	if errors.As(err, &c) {
		return &ChangedError{Path: path, Created: was.info == nil, Kept: c.kept}
	}
	if err != nil {
		return fmt.Errorf("%s: could not be saved (%w); the file is as it was", path, unwrapPath(err))
	}
	return nil
}

// SameFile reports whether a and b are one file, however each is spelled:
// through links, hard links included, or relative and absolute paths.
func SameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// CheckWritable refuses a workbook the user made read-only, or one in a
// read-only folder: planner could often replace it anyway (renaming needs
// only the folder, and root ignores both), but a protected file is not to
// be touched.
func CheckWritable(path string) error {
	real := followLinks(path) // the file a save replaces, in the folder it writes in
	if fi, err := os.Stat(real); err == nil && fi.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: is read-only; planner does not replace a file you protected: make it writable (chmod u+w), or write a copy with -o other.xlsx", path)
	}
	dir := filepath.Dir(real)
	if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: its folder %s is read-only; planner writes a new file beside the old one and renames it: make the folder writable, or write a copy elsewhere with -o", path, dir)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
