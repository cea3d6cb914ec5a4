package evaluate

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"

	"planner/montecarlo"
)

// A workbook planner has written, or found up to date, is a fixed point:
// evaluating it again with the same choices writes the same bytes. So a
// full eval remembers, per workbook, a digest of those bytes and choices
// with the Monte Carlo results it wrote, and the next eval of the same
// bytes skips sampling and writing. Anyone can compute the digest, so each
// memory also carries an HMAC under a secret of the user's own, lives in a
// folder only the user may write (uptodate_folder.go), and is decoded
// within bounds the workbook sets (uptodate_record.go): whatever is in the
// folder, a memory that fails any check is no memory, and the run takes
// the long way. --check never uses it.

// recordMagic opens every memory; another layout is another magic.
const recordMagic = "planner up to date 2\n"

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
	fmt.Fprintf(h, "%s%s\x00%s\x00%d\x00%d\x00%d\x00%d\x00%q\x00%q\x00",
		recordMagic, r.opts.Version, exe, info.Size(), info.ModTime().UnixNano(), r.opts.Samples, r.opts.Seed,
		r.opts.Targets, r.opts.Sets)
	sum := sha256.Sum256(data)
	h.Write(sum[:])
	return hex.EncodeToString(h.Sum(nil))
}

// memoryName is the name of the file that remembers the workbook at path.
func memoryName(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:16])
}

// recall is the Monte Carlo results planner remembers of leaving these
// very bytes in the workbook at path, with this run's choices; nil when it
// remembers none it can trust, and always for --check and for a run that
// writes elsewhere or not at all.
func (r *run) recall(path string, data []byte, rep *Report) []*montecarlo.Result {
	if !r.writes() || r.target != path || r.opts.Check {
		return nil
	}
	key := r.fixedPointKey(data)
	if key == "" {
		return nil
	}
	c := openCache(false)
	if c == nil {
		return nil
	}
	defer c.close()
	name := memoryName(path)
	body := opened(c.readMemory(name), c.secret, key)
	if body == nil {
		return nil
	}
	mcs, ok := decodeResults(body, r.shapeOf(rep))
	if !ok || len(mcs) == 0 {
		return nil
	}
	c.touch(name) // eviction goes by when a memory was last of use
	return mcs
}

// remember notes that the workbook at path holds data, which this run
// wrote or found up to date, with the report's Monte Carlo results in it,
// and tidies the folder. It is best effort: a memory that cannot be
// written only means the next run takes the long way.
func (r *run) remember(path string, data []byte, rep *Report) {
	key := r.fixedPointKey(data)
	if key == "" {
		return
	}
	body := r.encode(rep)
	if body == nil {
		return
	}
	c := openCache(true)
	if c == nil {
		return
	}
	defer c.close()
	name := memoryName(path)
	if stored := sealed(c.secret, key, body); len(stored) <= maxMemory {
		c.write(name, stored)
	}
	c.tidy(name)
}

// maxMemory bounds one workbook's memory as stored.
const maxMemory = 64 << 20

// sealed is a memory as planner stores it: the magic, the key, the body,
// and an HMAC of all three under the user's secret.
func sealed(secret []byte, key string, body []byte) []byte {
	record := append([]byte(recordMagic+key+"\n"), body...)
	mac := hmac.New(sha256.New, secret)
	mac.Write(record)
	return mac.Sum(record)
}

// opened is the body of a sealed memory whose HMAC holds under the secret
// and whose key is key; nil for any other.
func opened(stored, secret []byte, key string) []byte {
	if len(stored) < sha256.Size {
		return nil
	}
	record, sum := stored[:len(stored)-sha256.Size], stored[len(stored)-sha256.Size:]
	mac := hmac.New(sha256.New, secret)
	mac.Write(record)
	head := []byte(recordMagic + key + "\n")
	if !hmac.Equal(mac.Sum(nil), sum) || !bytes.HasPrefix(record, head) {
		return nil
	}
	return record[len(head):]
}
