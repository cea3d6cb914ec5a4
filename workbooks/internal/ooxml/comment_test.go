package ooxml

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// threeParts is a zip of three parts as another writer might make it: one
// with an extra field (a modification time) and a comment of its own, and
// a zip comment.
func threeParts(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, h := range []*zip.FileHeader{
		{Name: "[Content_Types].xml", Method: zip.Deflate},
		{Name: "xl/workbook.xml", Method: zip.Deflate, Modified: time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC), Comment: "the user's"},
		{Name: "xl/worksheets/sheet1.xml", Method: zip.Store},
	} {
		f, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "<part name=\""+h.Name+"\"/>")
	}
	w.SetComment("planner up to date")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// partsOf is every part of a zip (Parts) with its comment, as archive/zip
// reads them, and the zip's comment.
func partsOf(t *testing.T, data []byte) (parts map[string]string, comments map[string]string, comment string) {
	t.Helper()
	bodies, err := Parts(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	parts, comments = map[string]string{}, map[string]string{}
	for _, f := range r.File {
		parts[f.Name], comments[f.Name] = string(bodies[f.Name]), f.Comment
	}
	return parts, comments, r.Comment
}

// Setting entries' comments changes the central directory alone: every
// part reads as it did, at the same offset, the other entries' comments
// and the zip's are kept, and each comment set reads back, through
// archive/zip and through EntryComment.
func TestEntryCommentsChangeNothingElse(t *testing.T) {
	data := threeParts(t)
	wantParts, _, _ := partsOf(t, data)
	set := map[string]string{"xl/worksheets/sheet1.xml": strings.Repeat("Q", MaxEntryComment), "xl/workbook.xml": ""}
	out, ok := WithEntryComments(data, set)
	if !ok {
		t.Fatal("could not set the comments")
	}
	parts, comments, comment := partsOf(t, out)
	for name, body := range wantParts {
		if parts[name] != body {
			t.Errorf("%s reads %q, want %q", name, parts[name], body)
		}
	}
	want := map[string]string{"[Content_Types].xml": "", "xl/workbook.xml": "", "xl/worksheets/sheet1.xml": set["xl/worksheets/sheet1.xml"]}
	for name, c := range want {
		if comments[name] != c || EntryComments(out)[name] != c {
			t.Errorf("%s: comment of %d bytes (EntryComments %d), want %d", name, len(comments[name]), len(EntryComments(out)[name]), len(c))
		}
	}
	if comment != "planner up to date" || Comment(out) != comment {
		t.Errorf("the zip comment is %q", comment)
	}
	_, start, _ := centralDirectory(data)
	if !bytes.Equal(out[:start], data[:start]) {
		t.Error("a byte before the central directory changed")
	}
	back, ok := WithEntryComments(out, map[string]string{"xl/worksheets/sheet1.xml": "", "xl/workbook.xml": "the user's"})
	if !ok || !bytes.Equal(back, data) {
		t.Error("setting the comments back does not give the zip back")
	}
}

// What cannot be set leaves the zip as it was: a comment past the limit,
// an entry it does not hold, bytes that are no zip.
func TestEntryCommentsRefused(t *testing.T) {
	data := threeParts(t)
	for _, c := range []struct {
		what string
		data []byte
		set  map[string]string
	}{
		{"a comment too long", data, map[string]string{"xl/worksheets/sheet1.xml": strings.Repeat("Q", MaxEntryComment+1)}},
		{"an entry it does not hold", data, map[string]string{"xl/worksheets/sheet2.xml": "x"}},
		{"an entry it does not hold beside one it holds twice", twice(t), map[string]string{"a.xml": "x", "b.xml": "y"}},
		{"no zip", []byte("not a zip at all, not even close to one"), map[string]string{"a": "x"}},
		{"a cut zip", data[:len(data)-30], map[string]string{"xl/workbook.xml": "x"}},
	} {
		if out, ok := WithEntryComments(c.data, c.set); ok || !bytes.Equal(out, c.data) {
			t.Errorf("%s: set (%v) or changed the bytes", c.what, ok)
		}
	}
	if len(EntryComments([]byte("no zip"))) != 0 {
		t.Error("bytes that are no zip have entry comments")
	}
}

// twice is a zip that holds the entry a.xml twice, as only a hand-made
// one does.
func twice(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for range 2 {
		f, err := w.CreateHeader(&zip.FileHeader{Name: "a.xml", Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "<a/>")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
