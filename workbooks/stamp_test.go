package workbooks

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"planner/units"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
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
	stamped := stampedOnly(plain, "planner v1 samples 200", nil, nil)
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
	if got := stampedOnly(plain, "", nil, nil); !bytes.Equal(got, plain) {
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
	if Stamped([]byte("not a zip"), "planner v1") || !bytes.Equal(stampedOnly([]byte("not a zip"), "k", nil, nil), []byte("not a zip")) {
		t.Error("bytes that are no zip are stamped")
	}
}

// withSheets is a package of three sheets, two of them planner's, named
// as workbook.xml and its relationships name them.
func withSheets(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range []struct{ name, body string }{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types/>`},
		{"xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` +
			`<sheet name="Mine" sheetId="1" r:id="rId1"/><sheet name="MonteCarlo" sheetId="2" r:id="rId2"/><sheet name="Results" sheetId="3" r:id="rId3"/></sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Target="/xl/worksheets/sheet3.xml"/></Relationships>`},
		{"xl/worksheets/sheet1.xml", `<worksheet/>`},
		{"xl/worksheets/sheet2.xml", `<worksheet/>`},
		{"xl/worksheets/sheet3.xml", `<worksheet/>`},
	} {
		f, err := w.Create(p.name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, p.body)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// entryComments is each entry's comment, as archive/zip reads it.
func entryComments(t *testing.T, data []byte) map[string]string {
	t.Helper()
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range r.File {
		out[f.Name] = f.Comment
	}
	return out
}

// A record stamped with the proof is carried back to the bit, in the
// entries of the sheets planner wrote alone, in the order written; the
// proof covers it, and a record larger than those entries hold is not
// carried at all.
func TestStampCarriesARecord(t *testing.T) {
	plain := withSheets(t)
	written := []string{"Results", "MonteCarlo"}
	record := noise(30_000, 1) // incompressible: two pieces
	stamped, carries := Stamp(plain, "k", record, written)
	if !Stamped(stamped, "k") || !carries {
		t.Fatalf("a package stamped with a record: stamped %v, carries %v", Stamped(stamped, "k"), carries)
	}
	if got := Carried(stamped); !bytes.Equal(got, record) {
		t.Fatalf("carried %d bytes, want the %d stamped", len(got), len(record))
	}
	comments := entryComments(t, stamped)
	results, monteCarlo := comments["xl/worksheets/sheet3.xml"], comments["xl/worksheets/sheet2.xml"]
	if !strings.HasPrefix(results, "planner record 1 piece 1 of 2 ") || len(results) != 32_000 || !strings.HasPrefix(monteCarlo, "planner record 1 piece 2 of 2 ") ||
		results[30:47] != monteCarlo[30:47] {
		t.Errorf("Results carries %d bytes (%.47q), MonteCarlo %d (%.47q)", len(results), results, len(monteCarlo), monteCarlo)
	}
	for _, other := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml"} {
		if comments[other] != "" {
			t.Errorf("%s, not a sheet planner wrote, carries %d bytes", other, len(comments[other]))
		}
	}
	at := bytes.Index(stamped, []byte("planner record 1 "))
	flipped := bytes.Clone(stamped)
	flipped[at+100] ^= 1
	if Stamped(flipped, "k") {
		t.Error("the proof holds with the record changed")
	}
	if Carried(plain) != nil || Carried(stampedOnly(plain, "k", nil, written)) != nil {
		t.Error("a package stamped without a record carries one")
	}
	large := noise(60_000, 2) // three pieces, for two sheets
	if s, carries := Stamp(plain, "k", large, written); !Stamped(s, "k") || Carried(s) != nil || carries {
		t.Error("a record too large for planner's sheets: not stamped, or carried")
	}
	if s := stampedOnly(plain, "k", record, []string{"Results"}); Carried(s) != nil || entryComments(t, s)["xl/worksheets/sheet2.xml"] != "" {
		t.Error("a record went into a sheet planner did not write")
	}
}

// A record's pieces make one record or none: a piece missing, one twice
// or pieces of two records carry nothing. Stamping again removes every
// piece of the record before, wherever it was, and keeps the user's
// comments.
func TestCarriedPiecesMakeOneRecord(t *testing.T) {
	plain := withSheets(t)
	record := noise(30_000, 1)
	stamped := stampedOnly(plain, "k", record, []string{"Results", "MonteCarlo"})
	comments := entryComments(t, stamped)
	first, second := comments["xl/worksheets/sheet3.xml"], comments["xl/worksheets/sheet2.xml"]
	other := entryComments(t, stampedOnly(plain, "k", noise(30_000, 9), []string{"Results", "MonteCarlo"}))["xl/worksheets/sheet2.xml"]
	for _, c := range []struct {
		what string
		set  map[string]string
	}{
		{"a piece missing", map[string]string{"xl/worksheets/sheet2.xml": ""}},
		{"a piece twice", map[string]string{"xl/worksheets/sheet1.xml": first}},
		{"pieces of two records", map[string]string{"xl/worksheets/sheet2.xml": other}},
		{"a piece that says it is one of one", map[string]string{"xl/worksheets/sheet2.xml": "", "xl/worksheets/sheet3.xml": strings.Replace(first, "piece 1 of 2", "piece 1 of 1", 1)}},
	} {
		changed, ok := ooxml.WithEntryComments(stamped, c.set)
		if !ok {
			t.Fatalf("%s: could not set the comments", c.what)
		}
		if Carried(changed) != nil {
			t.Errorf("%s: carried a record", c.what)
		}
	}
	// A piece left in a user's sheet, and a comment of the user's: the
	// next stamp removes the one and keeps the other.
	leftover, _ := ooxml.WithEntryComments(plain, map[string]string{"xl/worksheets/sheet1.xml": second, "xl/workbook.xml": "the user's"})
	again := stampedOnly(leftover, "k", record, []string{"Results", "MonteCarlo"})
	if got := entryComments(t, again); got["xl/worksheets/sheet1.xml"] != "" || got["xl/workbook.xml"] != "the user's" {
		t.Errorf("stamped again: the user's sheet carries %d bytes, the workbook part %q", len(got["xl/worksheets/sheet1.xml"]), got["xl/workbook.xml"])
	}
	if !bytes.Equal(Carried(again), record) {
		t.Error("stamped again, the record does not come back")
	}
	if got := entryComments(t, stampedOnly(leftover, "k", nil, []string{"Results"})); got["xl/worksheets/sheet1.xml"] != "" || got["xl/workbook.xml"] != "the user's" {
		t.Errorf("stamped without a record: the user's sheet carries %d bytes, the workbook part %q", len(got["xl/worksheets/sheet1.xml"]), got["xl/workbook.xml"])
	}
}

// LibreOffice opens an evaluated workbook whose record fills its pieces
// to the limit, and reads planner's sheets as written.
func TestCarriedRecordOpensInLibreOffice(t *testing.T) {
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("no soffice: install libreoffice-calc-nogui")
	}
	slow(t, "opens a workbook in LibreOffice")
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.xlsx")
	in, err := Init(path, units.USD)
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, in.Data, in.Original); err != nil {
		t.Fatal(err)
	}
	_, evaluated := evaluate(t, path)
	record := noise(50_000, 3) // three pieces, two of them full
	stamped := stampedOnly(evaluated, "k", record, sheets.OwnedNames())
	if !bytes.Equal(Carried(stamped), record) {
		t.Fatal("the evaluated workbook does not carry the record")
	}
	full := 0
	for _, c := range entryComments(t, stamped) {
		if len(c) == 32_000 {
			full++
		}
	}
	if full != 2 {
		t.Fatalf("%d entries carry a full piece, want 2", full)
	}
	if err := os.WriteFile(path, stamped, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--headless", "--convert-to",
		"csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", "--outdir", dir, path}
	if out, err := exec.Command("soffice", args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	results := readCSV(t, filepath.Join(dir, "plan-Results.csv"))
	if len(results) < 3 || !strings.HasPrefix(results[1][0], "planner test · inputs ") {
		t.Errorf("LibreOffice reads Results as %q", results[:min(len(results), 3)])
	}
}

// noise is n bytes no compressor shrinks, the same for the same seed.
func noise(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// stampedOnly is Stamp's package alone.
func stampedOnly(data []byte, key string, record []byte, written []string) []byte {
	out, _ := Stamp(data, key, record, written)
	return out
}

// A zip of more entries than its end record counts (a zip64 archive),
// whose entries' comments planner does not edit, gets no proof: none may
// vouch for what they hold.
func TestZip64GetsNoStamp(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range 0x10000 {
		if _, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("p/%d", i), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	out, carries := Stamp(data, "k", []byte("a record"), []string{"Results"})
	if !bytes.Equal(out, data) || carries || Stamped(out, "k") {
		t.Errorf("a zip64 archive was stamped (carries %v)", carries)
	}
}
