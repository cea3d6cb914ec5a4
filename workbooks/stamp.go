package workbooks

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// A workbook planner wrote carries the proof that it is up to date in its
// zip comment: a digest of every other byte of the file together with the
// choices that decided them (planner's build, the samples, the seed, the
// targets: the caller's key). A later eval with the same key that finds
// the digest still true knows, from the file alone, that evaluating it
// again would write these same bytes (eval(eval(x)) = eval(x)), and skips
// writing. Any change to the file by any program breaks the digest, and
// LibreOffice and openpyxl save without the comment. The digest
// guards against every change made by accident, not against someone who
// forges it on purpose: --check never trusts it. It is the digest alone,
// 91 bytes: LibreOffice refuses to load a workbook whose zip comment runs
// to a few hundred bytes (400 loads, 700 does not).

// stampPrefix opens planner's comment; another layout is another prefix.
const stampPrefix = "planner up to date, sha256 "

// Stamp is data with the proof under key in its comment and, when record
// is not nil, the record with it in the entries of the sheets planner
// wrote, written (see Carried); carries says whether those entries hold
// it. It is data as it is when key is "", a build that vouches for
// nothing, and when planner cannot edit its entries' comments (a zip64
// archive): no proof may vouch for an earlier record's pieces.
func Stamp(data []byte, key string, record []byte, written []string) (stamped []byte, carries bool) {
	if key == "" {
		return data, false
	}
	data, carries, ok := withRecord(data, record, written)
	if !ok {
		return data, false
	}
	return ooxml.WithComment(data, stampPrefix+stampDigest(data, key)), carries
}

// Stamped reports whether data carries the proof under key, true of every
// byte of it.
func Stamped(data []byte, key string) bool {
	digest, ok := strings.CutPrefix(ooxml.Comment(data), stampPrefix)
	return ok && key != "" && digest == stampDigest(data, key)
}

// stampDigest is the digest of key and of every byte of data the comment
// does not hold.
func stampDigest(data []byte, key string) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write(ooxml.Uncommented(data))
	return hex.EncodeToString(h.Sum(nil))
}

// A stamped workbook may carry a record beside its proof: what planner
// computed for it that its sheets do not hold to the bit (the Monte Carlo
// results), so that an eval that finds the proof true need not compute it
// again. It rides in the comments of the zip entries of the sheets planner
// wrote, which no reader of xlsx shows and every program that saves the
// file drops: the record deflated and in base64, cut into pieces, each
// led by recordPrefix, its place and the record's id ("piece 2 of 3
// 1f2e3d4c5b6a7980 ") and at most ooxml.MaxEntryComment bytes long. The
// proof's digest covers them. A record that needs more pieces than planner
// wrote sheets is not carried, and the next eval computes it.

// recordPrefix leads every piece of a carried record; another layout is
// another prefix.
const recordPrefix = "planner record 1 "

// maxRecord bounds a record as it is inflated: a piece of a few kilobytes
// may inflate a thousandfold.
const maxRecord = 64 << 20

// Carried is the record data carries with its proof, nil for none or for
// pieces that do not make one whole. Only a package Stamped under this
// run's key carries one this run may trust.
func Carried(data []byte) []byte {
	var pieces []string
	var id string
	for _, comment := range ooxml.EntryComments(data) {
		head, piece, ok := pieceOf(comment)
		if !ok {
			continue
		}
		if pieces == nil {
			pieces, id = make([]string, head.of), head.id
		}
		if head.of != len(pieces) || head.id != id || pieces[head.n-1] != "" {
			return nil // pieces of two records, or one twice
		}
		pieces[head.n-1] = piece
	}
	text := strings.Join(pieces, "")
	if pieces == nil || slices.Contains(pieces, "") || recordID(text) != id {
		return nil
	}
	deflated, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return nil
	}
	record, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(deflated)), maxRecord+1))
	if err != nil || len(record) > maxRecord {
		return nil
	}
	return record
}

// pieceHead is what leads a piece of a record: which piece of how many
// (counted from 1), and the record's id, so that pieces of two records
// never make one.
type pieceHead struct {
	n, of int
	id    string
}

func (h pieceHead) String() string {
	return fmt.Sprintf("%spiece %d of %d %s ", recordPrefix, h.n, h.of, h.id)
}

// recordID is the id of a record's text: the start of its digest.
func recordID(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// maxPieces bounds the pieces of a record: one to each of planner's sheets.
var maxPieces = len(sheets.OwnedNames())

// pieceOf reads a piece of a record from an entry's comment; ok is false
// for a comment that is none.
func pieceOf(comment string) (head pieceHead, piece string, ok bool) {
	rest, ok := strings.CutPrefix(comment, recordPrefix)
	if !ok {
		return head, "", false
	}
	if _, err := fmt.Sscanf(rest, "piece %d of %d %16s ", &head.n, &head.of, &head.id); err != nil ||
		head.of < 1 || head.of > maxPieces || head.n < 1 || head.n > head.of {
		return head, "", false
	}
	lead := head.String()
	if !strings.HasPrefix(comment, lead) || len(comment) == len(lead) {
		return head, "", false
	}
	return head, comment[len(lead):], true
}

// withRecord is data carrying record, when it is not nil, in the comments
// of the entries of the sheets named, planner's own as this run wrote
// them, in their order, and no piece of an earlier record anywhere;
// without a record, and carries false, when those entries cannot hold it.
// ok is false, and data as it is, when its entries' comments cannot be
// edited at all.
func withRecord(data, record []byte, written []string) (out []byte, carries, ok bool) {
	comments := map[string]string{}
	for name, comment := range ooxml.EntryComments(data) {
		if strings.HasPrefix(comment, recordPrefix) {
			comments[name] = "" // an earlier record's piece, which no reader may join to this one
		}
	}
	var heads []pieceHead
	var text string
	parts := writtenParts(data, written)
	if record != nil {
		var fits bool
		if text, fits = deflated(record, base64.StdEncoding.DecodedLen(min(len(parts), maxPieces)*ooxml.MaxEntryComment)); fits {
			heads = piecesFor(text, len(parts))
		}
	}
	for i, h := range heads {
		size := min(len(text), ooxml.MaxEntryComment-len(h.String()))
		comments[parts[i]], text = h.String()+text[:size], text[size:]
	}
	out, ok = ooxml.WithEntryComments(data, comments)
	return out, ok && heads != nil, ok
}

// deflated is record deflated and in base64; fits is false when deflated
// it takes more than room bytes. Deflating stops there: a record of
// thousands of scenarios costs no more than one that fits.
func deflated(record []byte, room int) (text string, fits bool) {
	out := &capped{max: room}
	w, _ := flate.NewWriter(out, flate.DefaultCompression) // the level is valid
	_, err := w.Write(record)
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return "", false
	}
	return base64.StdEncoding.EncodeToString(out.b.Bytes()), true
}

// capped is a buffer that refuses to grow past max bytes.
type capped struct {
	b   bytes.Buffer
	max int
}

// errFull is capped's refusal.
var errFull = errors.New("the record does not fit planner's sheets")

func (c *capped) Write(p []byte) (int, error) {
	if c.b.Len()+len(p) > c.max {
		return 0, errFull
	}
	return c.b.Write(p)
}

// piecesFor is the heads of the fewest pieces that hold text, each at most
// ooxml.MaxEntryComment bytes with its head; nil when more than room
// pieces would.
func piecesFor(text string, room int) []pieceHead {
	id := recordID(text)
	for of := 1; of <= min(room, maxPieces); of++ {
		heads, holds := make([]pieceHead, of), 0
		for n := range heads {
			heads[n] = pieceHead{n + 1, of, id}
			holds += ooxml.MaxEntryComment - len(heads[n].String())
		}
		if holds >= len(text) {
			return heads
		}
	}
	return nil
}

// writtenParts are the parts of the sheets named in data, in their order.
func writtenParts(data []byte, written []string) []string {
	byName := ooxml.SheetPartsOf(data)
	var parts []string
	for _, sheet := range written {
		if part := byName[sheet]; part != "" {
			parts = append(parts, part)
		}
	}
	return parts
}
