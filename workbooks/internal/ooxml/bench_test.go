package ooxml

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// benchPackage is a zip of parts, stored in name order.
func benchPackage(b *testing.B, parts map[string]string) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, name := range []string{StylesPart, "xl/sharedStrings.xml"} {
		f, err := w.Create(name)
		if err == nil {
			_, err = f.Write([]byte(parts[name]))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

var benchStyles = `<styleSheet xmlns="` + MainNamespace + `"><fonts count="1"><font/></fonts>` +
	`<cellXfs>` + strings.Repeat(`<xf numFmtId="0" fontId="0"><alignment vertical="top"/></xf>`, 5000) + `</cellXfs></styleSheet>`

func benchParts(b *testing.B) []byte {
	return benchPackage(b, map[string]string{
		StylesPart:             benchStyles,
		"xl/sharedStrings.xml": `<sst xmlns="` + MainNamespace + `">` + strings.Repeat(`<si><t>a cost line</t></si>`, 200000) + `</sst>`,
	})
}

func BenchmarkCountStrings(b *testing.B) {
	data := benchParts(b)
	zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	for b.Loop() {
		if n, err := countStrings(zr.File[1]); err != nil || n != 200000 {
			b.Fatal(n, err)
		}
	}
}

func BenchmarkFixStyleCounts(b *testing.B) {
	data := benchParts(b)
	for b.Loop() {
		if _, err := fixStyleCounts(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseStyles(b *testing.B) {
	for b.Loop() {
		if _, err := parseXML([]byte(benchStyles)); err != nil {
			b.Fatal(err)
		}
	}
}
