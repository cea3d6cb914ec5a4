package workbooks

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"testing"
)

// smallZip is a package of two parts, small enough to flip every byte of.
func smallZip(t *testing.T, value, comment string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types/>`},
		{"xl/worksheets/sheet1.xml", `<worksheet><sheetData><row r="1"><c r="A1"><v>` + value + `</v></c></row></sheetData></worksheet>`},
	} {
		f, err := w.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, p.body)
	}
	if comment != "" {
		w.SetComment(comment)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The stamp is the digest, under the key, of every byte but the comment,
// in the zip comment archive/zip reads; it holds for that key and those
// bytes only: a flip of any byte, another key or another comment, and it
// does not.
func TestStampVouchesForEveryByte(t *testing.T) {
	plain := smallZip(t, "285000", "")
	stamped := Stamp(plain, "planner v1 samples 200")
	h := sha256.New()
	h.Write([]byte("planner v1 samples 200\x00"))
	h.Write(plain[:len(plain)-2]) // all but the comment's length, 0
	want := "planner up to date, sha256 " + hex.EncodeToString(h.Sum(nil))
	r, err := zip.NewReader(bytes.NewReader(stamped), int64(len(stamped)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Comment != want {
		t.Fatalf("comment %q, want %q", r.Comment, want)
	}
	if !bytes.Equal(stamped[:len(plain)-2], plain[:len(plain)-2]) {
		t.Error("stamping changed a byte before the comment")
	}
	if !Stamped(stamped, "planner v1 samples 200") {
		t.Fatal("a stamped package is not stamped")
	}
	if Stamped(stamped, "planner v1 samples 300") || Stamped(stamped, "") || Stamped(plain, "planner v1 samples 200") {
		t.Error("the stamp holds for another key, for no key, or without a comment")
	}
	if got := Stamp(plain, ""); !bytes.Equal(got, plain) {
		t.Error("a build that vouches for nothing stamped")
	}
	if Stamped(smallZip(t, "320000", want), "planner v1 samples 200") {
		t.Error("a comment copied onto other bytes holds")
	}
	for i := range stamped {
		flipped := bytes.Clone(stamped)
		flipped[i] ^= 0x10
		if Stamped(flipped, "planner v1 samples 200") {
			t.Fatalf("the stamp holds with byte %d of %d flipped", i, len(stamped))
		}
	}
	if Stamped([]byte("not a zip"), "planner v1") || !bytes.Equal(Stamp([]byte("not a zip"), "k"), []byte("not a zip")) {
		t.Error("bytes that are no zip are stamped")
	}
}
