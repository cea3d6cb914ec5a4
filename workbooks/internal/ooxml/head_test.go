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
