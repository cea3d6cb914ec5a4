package workbooks

import (
	"archive/zip"
	"bytes"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planner/workbooks/internal/ooxml"
)

// excelize spools a sheet larger than ooxml.MaxPartInMemory to a temporary file.
// Reading such workbooks, whether the read succeeds or fails and wherever
// it fails, leaves nothing in the temporary folder.
func TestReadsLeaveNoTemporaryFiles(t *testing.T) {
	slow(t, "reads workbooks past the in-memory limit")
	plan := planBytes(t)
	// Assumptions padded past the in-memory limit with whitespace, which
	// XML ignores: a workbook that reads and evaluates as the default one.
	padding := bytes.Repeat([]byte(" "), ooxml.MaxPartInMemory+1<<20)
	big := rezip(t, plan, func(ps map[string][]byte) {
		ps["xl/worksheets/sheet1.xml"] = bytes.Replace(ps["xl/worksheets/sheet1.xml"], []byte("</worksheet>"), append(padding, "</worksheet>"...), 1)
	})
	spilled := filepath.Join(t.TempDir(), "big.xlsx")
	if err := os.WriteFile(spilled, big, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	// Succeeding: read, evaluate and write, check for staleness.
	b, data := evaluate(t, spilled)
	if _, err := b.Stale(data); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckOutput(spilled); err == nil {
		t.Error("CheckOutput took a workbook without planner's Results for planner's")
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		// The big sheet is spooled, then excelize fails to read the
		// workbook part into its model (a sheetId that is not a number).
		{"later.xlsx", rezip(t, big, func(ps map[string][]byte) {
			ps["xl/workbook.xml"] = regexp.MustCompile(`(name="Scenarios" sheetId=")\d+`).ReplaceAll(ps["xl/workbook.xml"], []byte("${1}x"))
		}), "cannot be read as a workbook"},
		// The big sheet itself cannot be inflated: planner finds it before
		// excelize spools it.
		{"spooled.xlsx", withBadPart(t, big, "", "xl/worksheets/sheet1.xml", true), "its part xl/worksheets/sheet1.xml cannot be read (zip: unsupported compression algorithm)"},
		// A part planner does not read cannot be inflated: the workbook
		// reads, and the part would be copied as it is.
		{"unread.xlsx", withBadPart(t, big, "xl/worksheets/sheet1.xml", "docProps/zz.xml", false), ""},
		// The package reads, the model does not.
		{"noassumptions.xlsx", rezip(t, big, func(ps map[string][]byte) {
			ps["xl/workbook.xml"] = bytes.Replace(ps["xl/workbook.xml"], []byte(`name="Assumptions"`), []byte(`name="Inputs"`), 1)
		}), "has no sheet Assumptions"},
	} {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), path+": "+tc.want)):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("left in the temporary folder: %s", e.Name())
	}
}

// withBadPart copies a workbook's entries in their order, with an entry
// called name compressed by a method no reader knows: opening it fails. It
// follows the entry after, or, with replace, takes the place of the entry
// called name, declaring its size.
func withBadPart(t *testing.T, data []byte, after, name string, replace bool) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	bad := func(content []byte) {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: 99, CRC32: crc32.ChecksumIEEE(content),
			CompressedSize64: uint64(len(content)), UncompressedSize64: uint64(len(content))})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(content)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var content bytes.Buffer
		content.ReadFrom(rc)
		rc.Close()
		if replace && f.Name == name {
			bad(content.Bytes())
			continue
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(content.Bytes())
		if !replace && f.Name == after {
			bad([]byte("<x/>"))
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
