package evaluate

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// remembered evaluates a new workbook in a cache folder of the test's own
// and returns it, the folder, and the report of a full run of it (one that
// had no memory to use). The next run of the workbook uses the memory.
func rememberedWorkbook(t *testing.T) (path, cache, full string) {
	t.Helper()
	cache = t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	path = newWorkbook(t)
	sampling(t, path, quick) // writes planner's sheets, and remembers them
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	rep, sampled := sampling(t, path, quick)
	if !sampled {
		t.Fatal("a run with nothing remembered did not sample")
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	return path, cache, reportJSON(t, rep)
}

// copyCache copies a cache folder, modes and all, into a new one the test
// then uses, and returns the folder of memories in it.
func copyCache(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), fi.Mode().Perm())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", to)
	return memoryFolder(t)
}

// theMemory is the one memory in the folder.
func theMemory(t *testing.T, folder string) string {
	t.Helper()
	memories, _ := filepath.Glob(filepath.Join(folder, "[0-9a-f]*"))
	if len(memories) != 1 {
		t.Fatalf("memories in %s: %v, want one", folder, memories)
	}
	return memories[0]
}

// ignored checks that the next run of path uses no memory: it samples, and
// its report is the full run's, byte for byte.
func ignored(t *testing.T, what, path, full string) {
	t.Helper()
	rep, sampled := sampling(t, path, quick)
	if !sampled {
		t.Errorf("%s: the run used the memory", what)
	}
	if got := reportJSON(t, rep); got != full {
		t.Errorf("%s: the report differs from a full run's:\n%s\nwant\n%s", what, got, full)
	}
}

// A memory with one bit flipped, anywhere, or sealed with another user's
// secret is no memory: the run samples and prints what a full run prints.
func TestForgedMemoryIsNoMemory(t *testing.T) {
	path, cache, full := rememberedWorkbook(t)
	memory := theMemory(t, memoryFolder(t))
	good, err := os.ReadFile(memory)
	if err != nil {
		t.Fatal(err)
	}
	if _, sampled := sampling(t, path, quick); sampled {
		t.Fatal("the run after the first did not use the memory")
	}

	// Every 61st byte and each of the last 32 (the HMAC), straight through
	// recall; a few of them through a whole run.
	data, _ := os.ReadFile(path)
	rep, _ := sampling(t, path, quick)
	r := &run{opts: quick.withDefaults(), path: path, target: path}
	for i := range len(good) {
		if i%61 != 0 && i < len(good)-32 {
			continue
		}
		flipped := bytes.Clone(good)
		flipped[i] ^= 1 << (i % 8)
		if err := os.WriteFile(memory, flipped, 0o600); err != nil {
			t.Fatal(err)
		}
		if r.recall(path, data, rep) != nil {
			t.Errorf("a memory with bit %d of byte %d flipped is recalled", i%8, i)
		}
		if i%(61*97) == 0 || i == len(good)-1 {
			ignored(t, "a flipped bit", path, full)
			memory = theMemory(t, copyCache(t, cache))
		}
	}

	// A memory sealed with another secret, as another user who computed
	// the key from public facts would write it.
	folder := copyCache(t, cache)
	other := make([]byte, secretSize)
	rand.Read(other)
	if err := os.WriteFile(filepath.Join(folder, secretName), other, 0o600); err != nil {
		t.Fatal(err)
	}
	ignored(t, "another secret", path, full)
}

// planner uses no memory in a folder or file that another may write or
// owns, nor through a link, and writes none through one.
func TestMemoryMustBePrivate(t *testing.T) {
	path, cache, full := rememberedWorkbook(t)
	// Each change returns where the link it made leads, if it made one.
	for _, c := range []struct {
		what   string
		change func(folder string) (string, error)
	}{
		{"up-to-date writable by all", func(folder string) (string, error) { return "", os.Chmod(folder, 0o777) }},
		{"planner writable by its group", func(folder string) (string, error) { return "", os.Chmod(filepath.Dir(folder), 0o770) }},
		{"a memory writable by all", func(folder string) (string, error) { return "", os.Chmod(theMemory(t, folder), 0o666) }},
		{"a secret others may read", func(folder string) (string, error) {
			return "", os.Chmod(filepath.Join(folder, secretName), 0o644)
		}},
		{"a memory that is a link", func(folder string) (string, error) {
			return linkedAway(theMemory(t, folder), filepath.Join(t.TempDir(), "memory"))
		}},
		{"a memory that is a link within the folder", func(folder string) (string, error) {
			return linkedAway(theMemory(t, folder), filepath.Join(folder, "elsewhere"))
		}},
		{"up-to-date a link within planner", func(folder string) (string, error) {
			return linkedAway(folder, filepath.Join(filepath.Dir(folder), "elsewhere"))
		}},
		{"planner a link out of the cache folder", func(folder string) (string, error) {
			return linkedAway(filepath.Dir(folder), filepath.Join(t.TempDir(), "planner"))
		}},
		{"a memory another user owns", func(folder string) (string, error) {
			return "", os.Chown(theMemory(t, folder), 65534, 65534)
		}},
	} {
		if strings.Contains(c.what, "another user") && os.Geteuid() != 0 {
			t.Logf("%s: only root can give a file away", c.what)
			continue
		}
		elsewhere, err := c.change(copyCache(t, cache))
		if err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, elsewhere)
		ignored(t, c.what, path, full)
		if after := snapshot(t, elsewhere); after != before {
			t.Errorf("%s: the run wrote where the link leads:\n%s\nwas\n%s", c.what, after, before)
		}
	}
}

// linkedAway moves the file or folder at p to elsewhere and puts a link to
// it in its place, relative when elsewhere is beside p.
func linkedAway(p, elsewhere string) (string, error) {
	if err := os.Rename(p, elsewhere); err != nil {
		return "", err
	}
	target := elsewhere
	if filepath.Dir(elsewhere) == filepath.Dir(p) {
		target = filepath.Base(elsewhere)
	}
	return elsewhere, os.Symlink(target, p)
}

// snapshot lists the files at or under p with their sizes and times; ""
// for no p.
func snapshot(t *testing.T, p string) string {
	t.Helper()
	if p == "" {
		return ""
	}
	var b strings.Builder
	err := filepath.WalkDir(p, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err == nil && !e.IsDir() {
			fmt.Fprintf(&b, "%s %d %s\n", p, fi.Size(), fi.ModTime())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A memory that claims more than the workbook can hold is refused before
// planner allocates for it: a 20 MB one costs about its own size to read,
// never gigabytes.
func TestHostileMemoryCostsLittle(t *testing.T) {
	path, _, _ := rememberedWorkbook(t)
	folder := memoryFolder(t)
	secret, err := os.ReadFile(filepath.Join(folder, secretName))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	rep, _ := sampling(t, path, quick)
	r := &run{opts: quick.withDefaults(), path: path, target: path}
	s := r.shapeOf(rep)
	head := binary.LittleEndian.AppendUint32(nil, uint32(len(s.scenarios)+1))
	head = binary.LittleEndian.AppendUint32(head, uint32(len("base")))
	head = append(head, "base"...)
	head = binary.LittleEndian.AppendUint64(head, uint64(quick.Samples))
	head = binary.LittleEndian.AppendUint64(head, quick.Seed)
	// Then no inputs sampled or held, no good samples, and the first
	// failure.
	failure := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(bytes.Clone(head), 0), 0)
	// Then one output, with its name, unit and figures, and its histogram.
	output := append(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(bytes.Clone(failure), 0), 2), make([]byte, 2*4+8*8)...)
	pad := make([]byte, 20<<20)
	u32 := func(b []byte, n uint32) []byte { return binary.LittleEndian.AppendUint32(bytes.Clone(b), n) }
	for _, c := range []struct {
		what string
		body []byte
	}{
		{"scenarios", u32(nil, 1<<31)},
		{"sampled inputs", append(u32(head, 1<<31), pad...)},
		{"held inputs", append(u32(u32(head, 0), uint32(len(pad)/heldBytes)), pad...)},
		{"a string", append(u32(failure, 1<<31), pad...)},
		{"outputs", append(u32(u32(failure, 0), 0xFFFFFFFF), pad...)},
		{"a histogram filling 20 MB", append(u32(output, uint32(len(pad)/8+1)), pad...)},
	} {
		memory := filepath.Join(folder, memoryName(path))
		if err := os.WriteFile(memory, sealed(secret, r.fixedPointKey(data), c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got := r.recall(path, data, rep)
		runtime.ReadMemStats(&after)
		if got != nil {
			t.Errorf("%s: a memory claiming more than the workbook holds is recalled", c.what)
		}
		if used := after.TotalAlloc - before.TotalAlloc; used > 64<<20 {
			t.Errorf("%s: recalling a %d MB memory allocated %d MB", c.what, len(c.body)>>20, used>>20)
		}
	}
}

// A full eval removes what killed writes left (a concurrent writer's,
// under a minute old, stays) and memories unused for a month, then the
// oldest while they take more than the folder's bound; the user's own files
// there are left alone. Using a memory keeps it.
func TestMemoriesAreTidied(t *testing.T) {
	path, _, _ := rememberedWorkbook(t)
	folder := memoryFolder(t)
	memory := theMemory(t, folder)
	size := func(name string) int64 {
		fi, err := os.Stat(filepath.Join(folder, name))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(memory, old, old); err != nil {
		t.Fatal(err)
	}
	if _, sampled := sampling(t, path, quick); sampled {
		t.Fatal("an old memory was not used")
	}
	if fi, _ := os.Stat(memory); time.Since(fi.ModTime()) > time.Minute {
		t.Errorf("a memory just used is dated %v", fi.ModTime())
	}

	files := map[string]time.Duration{ // name: age
		".remembering-killed":   2 * time.Minute,
		".remembering-busy":     0,
		strings.Repeat("a", 32): 31 * 24 * time.Hour, // unused for a month
		strings.Repeat("b", 32): 3 * time.Hour,
		strings.Repeat("c", 32): 2 * time.Hour,
		strings.Repeat("d", 32): time.Hour,
		"notes.txt":             365 * 24 * time.Hour,
	}
	for name, age := range files {
		p := filepath.Join(folder, name)
		if err := os.WriteFile(p, make([]byte, 1000), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	// Room for the workbook's own memory and two of the others.
	defer func(was int64) { maxCacheBytes = was }(maxCacheBytes)
	maxCacheBytes = size(filepath.Base(memory)) + 2000

	setCell(t, path, "Assumptions", "B6", 300000) // a full eval, which writes a new memory
	if _, sampled := sampling(t, path, quick); !sampled {
		t.Fatal("an edited workbook was not evaluated in full")
	}
	var left []string
	entries, _ := os.ReadDir(folder)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	want := []string{".remembering-busy", filepath.Base(memory), strings.Repeat("c", 32), strings.Repeat("d", 32), "notes.txt", secretName}
	slices.Sort(want)
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("the folder holds\n%v\nwant\n%v", left, want)
	}
}
