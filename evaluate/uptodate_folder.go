package evaluate

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
)

// cache is the folder of memories, planner/up-to-date under the user's
// cache folder, opened so that nothing in it leads out of it, with the
// user's secret.
type cache struct {
	dir    *os.Root
	secret []byte
}

// The folder's files besides the memories.
const (
	secretName = "secret"
	secretSize = 32
	tempPrefix = ".remembering-"
)

// How the folder is kept small: what a killed write left is removed after
// a minute (a concurrent writer's is younger), a memory unused for a month
// goes, and then the oldest while the memories take more than
// maxCacheBytes.
const (
	leftoverAge = time.Minute
	unusedAge   = 30 * 24 * time.Hour
)

var maxCacheBytes int64 = 256 << 20 // a variable for the tests

// openCache opens the folder of memories, making it and the secret when
// create is set; nil when there is no folder and secret planner can trust.
// Its two folders must be real folders, not links, of the user's own, that
// nobody else may write.
func openCache(create bool) *cache {
	base, err := os.UserCacheDir()
	if err != nil || base == "" {
		return nil
	}
	if create {
		_ = os.MkdirAll(base, 0o700)
	}
	dir, err := os.OpenRoot(base)
	if err != nil {
		return nil
	}
	for _, name := range []string{"planner", "up-to-date"} {
		inner := privateFolder(dir, name, create)
		_ = dir.Close()
		if inner == nil {
			return nil
		}
		dir = inner
	}
	c := &cache{dir: dir}
	if c.secret = c.readSecret(); c.secret == nil && create {
		c.secret = c.newSecret()
	}
	if c.secret == nil {
		c.close()
		return nil
	}
	return c
}

func (c *cache) close() { _ = c.dir.Close() }

// privateFolder opens the folder called name in parent, when it is
// private. What is checked is the folder opened, which must be the one
// looked at: nothing can be put in its place in between.
func privateFolder(parent *os.Root, name string, create bool) *os.Root {
	if create {
		_ = parent.Mkdir(name, 0o700)
	}
	seen, err := parent.Lstat(name)
	if err != nil || !seen.IsDir() {
		return nil // missing, or a link
	}
	dir, err := parent.OpenRoot(name)
	if err != nil {
		return nil
	}
	if got, err := dir.Stat("."); err != nil || !os.SameFile(seen, got) || !private(got, 0o022) {
		_ = dir.Close()
		return nil
	}
	return dir
}

// private reports whether fi is the user's own and has none of the
// permission bits forbidden to it.
func private(fi fs.FileInfo, forbidden fs.FileMode) bool {
	return ownedByUser(fi) && fi.Mode().Perm()&forbidden == 0
}

// read is the content of the file called name: a regular file, not a
// link, of the user's own, without the forbidden permission bits, of at
// most maxMemory bytes; nil for any other. As for the folders, the file
// checked is the file opened.
func (c *cache) read(name string, forbidden fs.FileMode) []byte {
	seen, err := c.dir.Lstat(name)
	if err != nil || !seen.Mode().IsRegular() {
		return nil
	}
	f, err := c.dir.OpenFile(name, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	got, err := f.Stat()
	if err != nil || !os.SameFile(seen, got) || !got.Mode().IsRegular() || !private(got, forbidden) || got.Size() > maxMemory {
		return nil
	}
	data := make([]byte, got.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil
	}
	return data
}

// readMemory is the memory called name, as stored; nil when there is none
// planner may read.
func (c *cache) readMemory(name string) []byte { return c.read(name, 0o022) }

// readSecret is the user's secret; nil when there is none only the user
// can read.
func (c *cache) readSecret() []byte {
	if s := c.read(secretName, 0o077); len(s) == secretSize {
		return s
	}
	return nil
}

// newSecret makes the user's secret: random bytes in a file only the user
// may read, created exclusively, so that two planners at once never each
// keep their own. One readSecret refused (cut short by a kill, or that
// others may read) is replaced once it is a minute old.
func (c *cache) newSecret() []byte {
	if fi, err := c.dir.Lstat(secretName); err == nil && time.Since(fi.ModTime()) > leftoverAge {
		_ = c.dir.Remove(secretName)
	}
	f, err := c.dir.OpenFile(secretName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return c.readSecret() // another planner's, just made
	}
	secret := make([]byte, secretSize)
	_, _ = rand.Read(secret) // never fails
	if _, err = f.Write(secret); errors.Join(err, f.Close()) != nil {
		_ = c.dir.Remove(secretName)
		return nil
	}
	return secret
}

// write puts a memory in place: a temporary file renamed over the old one,
// so that a reader never sees half of one; not synced, since one lost in a
// crash costs one long run.
func (c *cache) write(name string, data []byte) {
	tmp := tempPrefix + rand.Text()
	f, err := c.dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Close()); err == nil {
		err = c.dir.Rename(tmp, name)
	}
	if err != nil {
		_ = c.dir.Remove(tmp)
	}
}

// touch marks the memory called name as used now.
func (c *cache) touch(name string) {
	now := time.Now()
	_ = c.dir.Chtimes(name, now, now)
}

// tidy removes what killed writes left and the memories unused for a
// month, then the oldest others while they take more than maxCacheBytes,
// keeping the one just written: one reading of the folder, by a run that
// wrote a memory.
func (c *cache) tidy(keep string) {
	f, err := c.dir.Open(".")
	if err != nil {
		return
	}
	names, err := f.Readdirnames(-1)
	_ = f.Close()
	if err != nil {
		return
	}
	type memory struct {
		name string
		size int64
		used time.Time
	}
	var memories []memory
	var total int64
	for _, name := range names {
		fi, err := c.dir.Lstat(name)
		if err != nil {
			continue
		}
		age := time.Since(fi.ModTime())
		switch {
		case strings.HasPrefix(name, tempPrefix) && age > leftoverAge,
			isMemoryName(name) && name != keep && age > unusedAge:
			_ = c.dir.Remove(name)
		case isMemoryName(name):
			memories = append(memories, memory{name, fi.Size(), fi.ModTime()})
			total += fi.Size()
		}
	}
	slices.SortFunc(memories, func(a, b memory) int { return cmp.Or(a.used.Compare(b.used), strings.Compare(a.name, b.name)) })
	for _, m := range memories {
		if total <= maxCacheBytes {
			break
		}
		if m.name != keep {
			_ = c.dir.Remove(m.name)
			total -= m.size
		}
	}
}

// isMemoryName reports whether name is one memoryName gives.
func isMemoryName(name string) bool {
	_, err := hex.DecodeString(name)
	return len(name) == 32 && err == nil && strings.ToLower(name) == name
}
