package safefile

import (
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
)

// Original is a file as planner read it. A save replaces it only while it
// is still there as read: the same file (device and inode), of the same
// size and modification time, holding the same bytes (by their SHA-256).
// The zero Original is no file: a save then creates one, and refuses when
// another program has made one meanwhile.
type Original struct {
	info fs.FileInfo // of the open file, before it was read; nil: no file
	size int64       // the bytes read
	sum  [sha256.Size]byte
}

// ReadOriginal is Read, and the file as read, for Save to check against.
func ReadOriginal(path string, limit int64) ([]byte, Original, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, Original{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, Original{}, err
	}
	if fi.Size() > limit {
		return nil, Original{}, &TooLargeError{path, fi.Size(), limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, Original{}, err
	}
	if int64(len(data)) > limit {
		return nil, Original{}, &TooLargeError{path, -1, limit}
	}
	return data, Original{fi, int64(len(data)), sha256.Sum256(data)}, nil
}

// isAt reports whether the file at path is still o: for no file, that
// nothing is there; else the same file, size, modification time and bytes,
// and no other file renamed there while they were read.
func (o Original) isAt(path string) bool {
	if o.info == nil {
		_, err := os.Lstat(path)
		return errors.Is(err, fs.ErrNotExist)
	}
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if !o.holds(f) {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && o.same(fi)
}

// holds reports whether the open file f is o, bytes and all.
func (o Original) holds(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || !o.same(fi) {
		return false
	}
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, o.size+1))
	return err == nil && n == o.size && [sha256.Size]byte(h.Sum(nil)) == o.sum
}

// same reports whether fi is o's file, of o's size and modification time.
func (o Original) same(fi fs.FileInfo) bool {
	return os.SameFile(o.info, fi) && fi.Size() == o.info.Size() && fi.ModTime().Equal(o.info.ModTime())
}

// ChangedError refuses to replace a file that changed after planner read
// it (or, for a file planner creates, that appeared after planner found
// none): saving would lose what another program saved there.
type ChangedError struct {
	Path    string
	Created bool   // there was no file when planner looked
	Kept    string // where another program's file was kept, when a race left it there; "" almost always
}

func (e *ChangedError) Error() string {
	what := "another program saved, replaced or removed it after planner read it"
	if e.Created {
		what = "another program created it after planner found no file there"
	}
	msg := e.Path + ": changed while planner ran: " + what + "; nothing was written"
	if e.Kept != "" {
		msg += ", and what another program saved there meanwhile is kept as " + e.Kept
	}
	return msg
}
