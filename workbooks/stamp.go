package workbooks

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io"
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
// is not nil, the record with it (see Carried); data as it is when key is
// "", a build that vouches for nothing.
func Stamp(data []byte, key string, record []byte) []byte {
	if key == "" {
		return data
	}
	if record != nil {
		data = withRecord(data, record)
	}
	return ooxml.WithComment(data, stampPrefix+stampDigest(data, key))
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
// again. It rides in the comments of the zip entries of planner's own
// sheets, which no reader of xlsx shows and every program that saves the
// file drops: the words of recordPrefix, then the record deflated and in
// base64, cut into pieces of ooxml.MaxEntryComment bytes, one to each of
// planner's sheets in the order sheets.OwnedNames gives. The proof's
// digest covers them; a record that needs more pieces than the workbook
// has planner's sheets is not carried, and the next eval computes it.

// recordPrefix opens a carried record; another layout is another prefix.
const recordPrefix = "planner record 1 "

// maxRecord bounds a record as it is inflated: a piece of a few kilobytes
// may inflate a thousandfold.
const maxRecord = 64 << 20

// Carried is the record data carries with its proof, nil for none. Only
// a package Stamped under this run's key carries one this run may trust.
func Carried(data []byte) []byte {
	var text strings.Builder
	for _, part := range recordParts(data) {
		piece := ooxml.EntryComment(data, part)
		if piece == "" {
			break
		}
		text.WriteString(piece)
	}
	encoded, ok := strings.CutPrefix(text.String(), recordPrefix)
	if !ok {
		return nil
	}
	deflated, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil
	}
	record, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(deflated)), maxRecord+1))
	if err != nil || len(record) > maxRecord {
		return nil
	}
	return record
}

// withRecord is data carrying record in the comments of its entries of
// planner's sheets; data as it is when they cannot hold it.
func withRecord(data, record []byte) []byte {
	var deflated bytes.Buffer
	w, _ := flate.NewWriter(&deflated, flate.DefaultCompression)
	w.Write(record)
	w.Close()
	text := recordPrefix + base64.StdEncoding.EncodeToString(deflated.Bytes())
	parts := recordParts(data)
	pieces := map[string]string{}
	for i := 0; len(text) > 0; i++ {
		if i == len(parts) {
			return data
		}
		n := min(len(text), ooxml.MaxEntryComment)
		pieces[parts[i]], text = text[:n], text[n:]
	}
	out, _ := ooxml.WithEntryComments(data, pieces)
	return out
}

// recordParts are the parts of planner's sheets in data, in the order
// sheets.OwnedNames gives.
func recordParts(data []byte) []string {
	byName := ooxml.SheetPartsOf(data)
	var parts []string
	for _, owned := range sheets.OwnedNames() {
		for name, part := range byName {
			if strings.EqualFold(name, owned) && part != "" {
				parts = append(parts, part)
			}
		}
	}
	return parts
}
