package workbooks

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
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
	stamped := Stamp(plain, "planner v1 samples 200", nil)
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
	if carried, ok := Stamped(stamped, "planner v1 samples 200"); !ok || carried != nil {
		t.Fatalf("a stamped package: stamped %v, carrying %q", ok, carried)
	}
	if holds(stamped, "planner v1 samples 300") || holds(stamped, "") || holds(plain, "planner v1 samples 200") {
		t.Error("the stamp holds for another key, for no key, or without a comment")
	}
	if got := Stamp(plain, "", []byte("results")); !bytes.Equal(got, plain) {
		t.Error("a build that vouches for nothing stamped")
	}
	if holds(smallZip(t, "320000", want), "planner v1 samples 200") {
		t.Error("a comment copied onto other bytes holds")
	}
	for i := range stamped {
		flipped := bytes.Clone(stamped)
		flipped[i] ^= 0x10
		if holds(flipped, "planner v1 samples 200") {
			t.Fatalf("the stamp holds with byte %d of %d flipped", i, len(stamped))
		}
	}
	if holds([]byte("not a zip"), "planner v1") || !bytes.Equal(Stamp([]byte("not a zip"), "k", nil), []byte("not a zip")) {
		t.Error("bytes that are no zip are stamped")
	}
}

// holds reports whether data's stamp holds under key.
func holds(data []byte, key string) bool {
	_, ok := Stamped(data, key)
	return ok
}

// A stamp carries what it is given, base64 after the digest, which then
// vouches for it too; what does not fit in a zip comment is left out, and
// the stamp vouches for the bytes alone.
func TestStampCarriesTheResults(t *testing.T) {
	plain := smallZip(t, "285000", "")
	results := []byte("\x00\x01 the Monte Carlo results, as evaluate encodes them \xff")
	stamped := Stamp(plain, "planner v1", results)
	text := base64.StdEncoding.EncodeToString(results)
	h := sha256.New()
	h.Write([]byte("planner v1\x00" + text + "\x00"))
	h.Write(plain[:len(plain)-2])
	want := "planner up to date, sha256 " + hex.EncodeToString(h.Sum(nil)) + "\n" + text
	if got := ooxmlComment(t, stamped); got != want {
		t.Fatalf("comment %q, want %q", got, want)
	}
	if carried, ok := Stamped(stamped, "planner v1"); !ok || !bytes.Equal(carried, results) {
		t.Fatalf("stamped %v, carrying %q; want %q", ok, carried, results)
	}
	for i := range stamped {
		flipped := bytes.Clone(stamped)
		flipped[i] ^= 0x01
		if carried, ok := Stamped(flipped, "planner v1"); ok {
			t.Fatalf("the stamp holds with byte %d of %d flipped, carrying %q", i, len(stamped), carried)
		}
	}
	big := Stamp(plain, "planner v1", bytes.Repeat([]byte("r"), 50000))
	if carried, ok := Stamped(big, "planner v1"); !ok || carried != nil {
		t.Errorf("results past the comment's room: stamped %v, carrying %d bytes; want a stamp carrying nothing", ok, len(carried))
	}
}

// ooxmlComment is the zip comment archive/zip reads of data.
func ooxmlComment(t *testing.T, data []byte) string {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return r.Comment
}
