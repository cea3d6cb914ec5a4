package safefile

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// A save writes its new file under a temporary name beside the workbook:
// ".plan.xlsx.planner-" sixteen random hex digits ".tmp", a name nobody
// types. A run killed while saving leaves that file behind; the next save
// removes it only when it is provably planner's: it has such a name and
// its bytes are empty (killed before writing) or begin as every workbook
// planner writes begins (see Options.Signature).

const (
	tempInfix  = ".planner-"
	tempSuffix = ".tmp"
)

// tempName is a new temporary name for a save of the file called base.
func tempName(base string) string {
	token := make([]byte, 8)
	_, _ = rand.Read(token) // never fails (crypto/rand panics rather)
	return "." + base + tempInfix + hex.EncodeToString(token) + tempSuffix
}

// tempOf matches the temporary names of saves of the file called base.
func tempOf(base string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + regexp.QuoteMeta(tempInfix) + `[0-9a-f]{16}` + regexp.QuoteMeta(tempSuffix) + `$`)
}

// writeAtomically replaces path, while it is still was, with data: a
// temporary file beside it, written, synced, given the old file's
// permissions (0644 less the umask for a new file), put in place by
// replace; then the folder is synced. A crash at any moment leaves the old
// file or the new one, whole, and perhaps the temporary file. On an error
// the temporary file is removed.
func writeAtomically(path string, data []byte, was Original, through func(io.Writer) io.Writer) (err error) {
	dir, base := filepath.Split(path)
	perm, existing := fs.FileMode(0o644), false
	if fi, err := os.Stat(path); err == nil {
		perm, existing = fi.Mode().Perm(), true
	}
	var f *os.File
	for range 100 {
		f, err = os.OpenFile(filepath.Join(dir, tempName(base)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	replacing := false // from then on replace removes the temporary file
	defer func() {
		if err != nil && !replacing {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if existing {
		if err := f.Chmod(perm); err != nil { // the umask does not apply to a kept mode
			return err
		}
	}
	var w io.Writer = f
	if through != nil {
		w = through(f)
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	ours, err := f.Stat()
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	replacing = true
	if err := replace(f.Name(), path, was, ours); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Clean(dir + ".")); err == nil {
		_ = d.Sync() // makes the rename itself durable; some file systems refuse, which is harmless
		_ = d.Close()
	}
	return nil
}

// removeStaleTemps deletes the temporary files that runs killed while
// saving path left beside it, and nothing else: a file is removed only
// when its name is one planner makes and its bytes are planner's: empty, or
// beginning with signature.
func removeStaleTemps(path string, signature []byte) {
	dir, base := filepath.Split(path)
	dir = filepath.Clean(dir + ".")
	temp := tempOf(base)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type().IsRegular() && temp.MatchString(e.Name()) && startsAsPlanners(filepath.Join(dir, e.Name()), signature) {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// startsAsPlanners reports whether the regular file at path is empty or
// begins with signature (an empty signature: only whether it is empty).
func startsAsPlanners(path string, signature []byte) bool {
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, max(len(signature), 1))
	n, err := io.ReadFull(f, head)
	switch {
	case n == 0 && err == io.EOF:
		return true // killed between creating the file and writing it
	case err != nil, len(signature) == 0:
		return false
	}
	return bytes.Equal(head, signature)
}
