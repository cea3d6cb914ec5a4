package safefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// readOriginal reads the file at path as planner reads a workbook.
func readOriginal(t *testing.T, path string) Original {
	t.Helper()
	_, was, err := ReadOriginal(path, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return was
}

// savesBy runs the test once with each way of putting the new file in
// place: swapping names where the file system can, and checking, then
// renaming, where it cannot (another platform, or a file system that
// refuses renameat2).
func savesBy(t *testing.T, test func(t *testing.T)) {
	t.Run("swap", func(t *testing.T) {
		if !canSwap(t) {
			t.Skip("this file system cannot swap names")
		}
		test(t)
	})
	t.Run("check then rename", func(t *testing.T) {
		swap = func(string, string, bool) error { return errCannotSwap }
		t.Cleanup(func() { swap = swapNames })
		test(t)
	})
}

// canSwap reports whether the test's temporary folder swaps names.
func canSwap(t *testing.T) bool {
	a, b := existing(t, []byte("a")), existing(t, []byte("b"))
	return swapNames(a, b, false) == nil
}

// Another program's ways of saving a file planner has read.
var otherPrograms = []struct {
	how  string
	save func(path string, data []byte) error
}{
	{"renames a new file over it", func(path string, data []byte) error {
		tmp := filepath.Join(filepath.Dir(path), "other-program.tmp")
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}},
	{"writes it in place", func(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }},
	// Bytes alone tell this one: same file, size and modification time.
	{"writes it in place and keeps its time", func(path string, data []byte) error {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		return os.Chtimes(path, fi.ModTime(), fi.ModTime())
	}},
}

// asRead is the file planner reads; theirs is another program's save, of
// the same size, so that only the bytes differ when its time is kept.
var asRead, theirs = []byte("the file planner read"), []byte("the file another made")

// changedAfterRead is the message Save refuses a changed file with.
func changedAfterRead(path string) string {
	return path + ": changed while planner ran: another program saved, replaced or removed it after planner read it; nothing was written"
}

// leftAlone fails unless path holds want and nothing else is in its folder
// but the files named.
func leftAlone(t *testing.T, path string, want []byte, others ...string) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s holds %q (%v), want %q", path, got, err, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1+len(others) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %q, want only %s and %q", names, filepath.Base(path), others)
	}
}

// A file another program saved after planner read it, in any way, is not
// replaced: its bytes stay, and planner's temporary file goes.
func TestSaveRefusesAFileChangedAfterItWasRead(t *testing.T) {
	savesBy(t, func(t *testing.T) {
		for _, other := range otherPrograms {
			t.Run(other.how, func(t *testing.T) {
				path := existing(t, asRead)
				was := readOriginal(t, path)
				time.Sleep(10 * time.Millisecond) // a clock tick later, as a run takes
				if err := other.save(path, theirs); err != nil {
					t.Fatal(err)
				}
				err := Save(path, []byte("planner's results"), was, Options{})
				if want := changedAfterRead(path); err == nil || err.Error() != want {
					t.Errorf("got %v\nwant %s", err, want)
				}
				leftAlone(t, path, theirs)
			})
		}
	})
}

// A change in the last moment before the rename is caught too where the
// file system swaps names: the swapped-out file is checked, and swapped
// back. (A check before a plain rename leaves that moment open.)
func TestSaveRefusesAChangeAtTheRename(t *testing.T) {
	if !canSwap(t) {
		t.Skip("this file system cannot swap names")
	}
	for _, other := range otherPrograms {
		t.Run(other.how, func(t *testing.T) {
			path := existing(t, asRead)
			was := readOriginal(t, path)
			beforeReplace = func() {
				if err := other.save(path, theirs); err != nil {
					t.Error(err)
				}
			}
			defer func() { beforeReplace = func() {} }()
			time.Sleep(10 * time.Millisecond)
			err := Save(path, []byte("planner's results"), was, Options{})
			if want := changedAfterRead(path); err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
			leftAlone(t, path, theirs)
		})
	}
}

// Should yet another program save over planner's file in the moment it
// stands in place, between the swap and the swap back, its file is kept
// under the temporary name, and the message says where.
func TestSaveKeepsASaveThatRacedTheSwapBack(t *testing.T) {
	if !canSwap(t) {
		t.Skip("this file system cannot swap names")
	}
	path := existing(t, asRead)
	was := readOriginal(t, path)
	beforeReplace = func() { _ = os.WriteFile(path, theirs, 0o644) }
	var tmp string
	swap = func(a, b string, create bool) error {
		if tmp == "" {
			tmp = a
		} else { // swapping back: a third program's save lands first
			_ = otherPrograms[0].save(path, []byte("a third program's save"))
		}
		return swapNames(a, b, create)
	}
	defer func() { beforeReplace, swap = func() {}, swapNames }()
	err := Save(path, []byte("planner's results"), was, Options{})
	if want := changedAfterRead(path) + ", and what another program saved there meanwhile is kept as " + tmp; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	leftAlone(t, path, theirs, filepath.Base(tmp))
	if got, _ := os.ReadFile(tmp); string(got) != "a third program's save" {
		t.Errorf("%s holds %q", tmp, got)
	}
}

// A file planner creates (init, eval -o NEW.xlsx) is not put where another
// program has made one meanwhile, however late.
func TestSaveRefusesAFileThatAppeared(t *testing.T) {
	want := func(path string) string {
		return path + ": changed while planner ran: another program created it after planner found no file there; nothing was written"
	}
	savesBy(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "new.xlsx")
		if err := os.WriteFile(path, theirs, 0o644); err != nil {
			t.Fatal(err)
		}
		err := Save(path, []byte("planner's results"), Original{}, Options{})
		if err == nil || err.Error() != want(path) {
			t.Errorf("got %v\nwant %s", err, want(path))
		}
		leftAlone(t, path, theirs)
	})
	if !canSwap(t) {
		return
	}
	path := filepath.Join(t.TempDir(), "new.xlsx")
	beforeReplace = func() { _ = os.WriteFile(path, theirs, 0o644) }
	defer func() { beforeReplace = func() {} }()
	err := Save(path, []byte("planner's results"), Original{}, Options{})
	if err == nil || err.Error() != want(path) {
		t.Errorf("at the rename: got %v\nwant %s", err, want(path))
	}
	leftAlone(t, path, theirs)
}

// A file unchanged since planner read it is replaced, and one that was
// not there is created; nothing else is left in the folder.
func TestSaveReplacesTheFileItRead(t *testing.T) {
	savesBy(t, func(t *testing.T) {
		path := existing(t, asRead)
		if err := Save(path, []byte("planner's results"), readOriginal(t, path), Options{}); err != nil {
			t.Fatal(err)
		}
		leftAlone(t, path, []byte("planner's results"))
		fresh := filepath.Join(t.TempDir(), "new.xlsx")
		if err := Save(fresh, []byte("planner's results"), Original{}, Options{}); err != nil {
			t.Fatal(err)
		}
		leftAlone(t, fresh, []byte("planner's results"))
	})
}

// Two planners that read one file where locks do not work (where Lock
// lets both go on): the second save is refused, the first one's file kept.
func TestSaveRefusesTheSecondOfTwoRunsWithoutLocks(t *testing.T) {
	savesBy(t, func(t *testing.T) {
		path := existing(t, []byte("the file both read"))
		first, second := readOriginal(t, path), readOriginal(t, path)
		if err := Save(path, []byte("the first run's results"), first, Options{}); err != nil {
			t.Fatal(err)
		}
		err := Save(path, []byte("the second run's results"), second, Options{})
		if want := changedAfterRead(path); err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
		leftAlone(t, path, []byte("the first run's results"))
	})
}

// Through a symbolic link, Save checks the file the link leads to, which
// is the file it replaces: that file saved over, or the link pointed at
// another file, and nothing is written.
func TestSaveThroughALinkChecksTheFileItLeadsTo(t *testing.T) {
	savesBy(t, func(t *testing.T) {
		for _, tc := range []struct {
			what   string
			change func(link, real string) error
			holds  string // the file that must be left as it is
		}{
			{"the file saved over", func(link, real string) error { return otherPrograms[0].save(real, theirs) }, "real"},
			{"the link pointed elsewhere", func(link, real string) error {
				other := filepath.Join(filepath.Dir(link), "other.xlsx")
				if err := os.WriteFile(other, theirs, 0o644); err != nil {
					return err
				}
				if err := os.Remove(link); err != nil {
					return err
				}
				return os.Symlink(other, link)
			}, "other.xlsx"},
		} {
			t.Run(tc.what, func(t *testing.T) {
				real := existing(t, asRead)
				link := filepath.Join(t.TempDir(), "plan.xlsx")
				if err := os.Symlink(real, link); err != nil {
					t.Fatal(err)
				}
				was := readOriginal(t, link)
				time.Sleep(10 * time.Millisecond)
				if err := tc.change(link, real); err != nil {
					t.Fatal(err)
				}
				err := Save(link, []byte("planner's results"), was, Options{})
				if want := changedAfterRead(link); err == nil || err.Error() != want {
					t.Errorf("got %v\nwant %s", err, want)
				}
				if tc.holds == "real" {
					leftAlone(t, real, theirs)
				} else {
					leftAlone(t, real, asRead)
					leftAlone(t, filepath.Join(filepath.Dir(link), tc.holds), theirs, "plan.xlsx")
				}
			})
		}
	})
}
