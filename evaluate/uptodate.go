package evaluate

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"

	"planner/internal/safefile"
	"planner/montecarlo"
)

// Proving a workbook up to date without writing it again.
//
// A workbook planner has just written, or found up to date, is a fixed
// point: evaluating it again with the same options writes the same bytes
// (eval(eval(x)) = eval(x), which the corpus tests hold for every workbook
// they keep). Writing planner's sheets again in memory, only to find them
// equal, is most of a re-eval's time. So planner remembers, per workbook,
// a digest of the bytes it left there and of everything else that decides
// what it would write: planner's version and its executable, the Monte
// Carlo samples and seed, the tornado's targets. A run that reads the same
// bytes with the same digest knows the file is up to date; any edit, in
// any sheet, changes the bytes and the digest, and the workbook is written
// again in memory and compared as before.
//
// planner remembers the workbook's Monte Carlo runs with it (see
// remembered): they are most of the rest of a run's time.
//
// The memory is one small file per workbook in the user's cache folder
// (planner/up-to-date under os.UserCacheDir). Without one, or when it
// cannot be read or written, every run compares the long way.

// upToDateDir is where the memory lives; "" when the user has no cache
// folder.
func upToDateDir() string {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		return ""
	}
	return filepath.Join(dir, "planner", "up-to-date")
}

// fixedPointKey is the digest of the workbook's bytes and of the run's
// choices that decide what planner writes into it. It is "" when planner
// cannot tell which executable it is, so that a rebuilt planner of the
// same version never trusts what an older build remembered.
func (r *run) fixedPointKey(data []byte) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	info, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	h := sha256.New()
	// The build's own account of itself too (its module versions, revision
	// and settings): packagers give every build one modification time.
	if bi, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(h, "%s\x00", bi)
	}
	// The overrides too, though a run with them never writes in place: a
	// what-if's sheets are never the workbook's own.
	fmt.Fprintf(h, "planner up to date 1\x00%s\x00%s\x00%d\x00%d\x00%d\x00%d\x00%q\x00%q\x00",
		r.opts.Version, exe, info.Size(), info.ModTime().UnixNano(), r.opts.Samples, r.opts.Seed,
		r.opts.Targets, r.opts.Sets)
	sum := sha256.Sum256(data)
	h.Write(sum[:])
	return hex.EncodeToString(h.Sum(nil))
}

// memoryOf is the file that remembers the workbook at path.
func memoryOf(dir, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(sum[:16]))
}

// remembered is what planner remembers of a workbook it left up to date:
// the Monte Carlo runs it wrote there, which the same bytes and choices
// give again to the last bit, so that a run proving the file up to date
// need not sample it again to print them.
type remembered struct {
	MonteCarlo []*montecarlo.Result
}

// recall is what planner remembers of leaving these very bytes in the
// workbook at path, with this run's choices; nil when it does not, and
// always for a run that writes elsewhere or not at all.
func (r *run) recall(path string, data []byte) *remembered {
	dir := upToDateDir()
	if dir == "" || !r.writes() || r.target != path || r.opts.Check {
		return nil
	}
	key := r.fixedPointKey(data)
	if key == "" {
		return nil
	}
	got, err := safefile.Read(memoryOf(dir, path), maxMemory)
	head, body, ok := strings.Cut(string(got), "\n")
	if err != nil || !ok || head != key {
		return nil
	}
	var m remembered
	if gob.NewDecoder(strings.NewReader(body)).Decode(&m) != nil || len(m.MonteCarlo) == 0 {
		return nil
	}
	return &m
}

// maxMemory bounds what planner reads back of one workbook's memory.
const maxMemory = 64 << 20

// remember notes that the workbook at path holds data, which this run
// wrote or found up to date, with the Monte Carlo runs in it. It is best
// effort: a cache folder that cannot be written only means the next run
// compares the long way.
func (r *run) remember(path string, data []byte, m remembered) {
	dir := upToDateDir()
	if dir == "" {
		return
	}
	key := r.fixedPointKey(data)
	if key == "" || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	var buf bytes.Buffer
	buf.WriteString(key + "\n")
	if gob.NewEncoder(&buf).Encode(m) != nil || buf.Len() > maxMemory {
		return
	}
	// gob leaves out a field that equals zero, and -0 does: it would come
	// back as 0, and a report print "base": 0 where a full run prints -0.
	// Only what comes back bit for bit is remembered.
	var back remembered
	if gob.NewDecoder(bytes.NewReader(buf.Bytes()[len(key)+1:])).Decode(&back) != nil ||
		!exactly(reflect.ValueOf(m), reflect.ValueOf(back)) {
		return
	}
	// A temporary file renamed into place, so that a reader never sees half
	// a memory; not synced, since one lost in a crash costs one long run.
	tmp, err := os.CreateTemp(dir, ".remembering-*")
	if err != nil {
		return
	}
	_, err = tmp.Write(buf.Bytes())
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), memoryOf(dir, path))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
}

// exactly reports whether a and b hold the same values to the bit: floats
// by their bits (-0 is not 0, a NaN is itself), every field, exported or
// not. An empty slice or map is the same as none, which gob gives back for
// it; planner only ranges over them.
func exactly(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return exactly(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !exactly(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if v := b.MapIndex(k); !v.IsValid() || !exactly(a.MapIndex(k), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !exactly(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return false // a func or a channel, which gob does not keep
}
