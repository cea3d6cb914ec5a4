package ooxml

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestHeadIsThePartsPrefix holds head, which inflates only the first
// compressed bytes of a part, to the prefix a full read gives: for text
// that compresses well, bytes that do not (stored blocks), a part shorter
// than asked, and parts stored uncompressed.
func TestHeadIsThePartsPrefix(t *testing.T) {
	var text bytes.Buffer
	for i := 0; text.Len() < 300<<10; i++ {
		fmt.Fprintf(&text, `<row r="%d"><c r="A%d" s="3"><v>%d.25</v></c></row>`, i+1, i+1, i*i)
	}
	noise := make([]byte, 200<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	parts := map[string][]byte{
		"text.xml":  text.Bytes(),
		"noise.bin": noise,
		"short.xml": []byte("<a/>"),
		"empty.xml": nil,
	}
	for _, method := range []uint16{zip.Deflate, zip.Store} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, name := range []string{"empty.xml", "noise.bin", "short.xml", "text.xml"} {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(parts[name])
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			for _, n := range []int{4, 4096, 64 << 10} {
				want := parts[f.Name][:min(n, len(parts[f.Name]))]
				if got := head(f, n); !bytes.Equal(got, want) {
					t.Errorf("method %d, head(%s, %d): %d bytes %.20q, want %d bytes %.20q", method, f.Name, n, len(got), got, len(want), want)
				}
			}
		}
	}
}

// TestSheetHeadCutsAfterTheRowsAsked holds sheetHead to the bytes of the
// part up to the end of its n-th row, closed with the part's own names.
func TestSheetHeadCutsAfterTheRowsAsked(t *testing.T) {
	start := `<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:dimension ref="A1:B9"/><x:sheetData>`
	rows := `<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Results</x:t></x:is></x:c></x:row><x:row r="2"/>`
	for _, tc := range []struct {
		name, part string
		want       string // "" when the whole part is to be read
	}{
		{"more rows", start + rows + `<x:row r="9"><x:c r="B9"><x:v>1</x:v></x:c></x:row></x:sheetData><x:mergeCells/></x:worksheet>`,
			start + rows + `</x:sheetData></x:worksheet>`},
		{"just the rows", start + rows + `</x:sheetData></x:worksheet>`, start + rows + `</x:sheetData></x:worksheet>`},
		{"fewer rows", start + `<x:row r="1"/></x:sheetData></x:worksheet>`, ""},
		{"no rows", `<worksheet><sheetData/></worksheet>`, ""},
		{"not XML", start + `<x:row r="1"></x:c>`, ""},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, _ := zw.Create("sheet.xml")
		w.Write([]byte(tc.part))
		zw.Close()
		zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := sheetHead(zr.File[0], 2)
		if want := tc.want; ok != (want != "") || string(got) != want {
			t.Errorf("%s: sheetHead = %q, %v; want %q", tc.name, got, ok, want)
		}
	}
}
