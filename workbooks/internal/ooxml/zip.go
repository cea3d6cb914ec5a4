package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
)

// edits change a package as rewrite copies it.
type edits struct {
	put map[string][]byte // entries to replace or add
	// make are entries to replace or add made as they are written, one at
	// a time: a large sheet inflated, edited and deflated again is not
	// held in memory beside the others. A make's error is rewrite's.
	make   map[string]func() ([]byte, error)
	drop   map[string]bool   // entries to leave out
	rename map[string]string // entries to copy under another name
	types  func(*types)      // changes to [Content_Types].xml
	store  bool              // put's entries are stored, not deflated
}

// rewrite copies a zip with the edits applied and its entries in a fixed
// order ([Content_Types].xml first, then by name): excelize writes streamed
// sheets in map order; without it, two runs over the same inputs could give
// files that differ only in entry order. Entries it does not edit keep their
// compressed bytes.
func rewrite(data []byte, e edits) ([]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	var names []string
	entries := map[string]*zip.File{}
	for _, f := range zr.File {
		name := f.Name
		if to, ok := e.rename[name]; ok {
			name = to
		}
		if !e.drop[f.Name] && entries[name] == nil {
			entries[name] = f
			names = append(names, name)
		}
	}
	for name := range e.put {
		if entries[name] == nil {
			names = append(names, name)
		}
	}
	for name := range e.make {
		if _, put := e.put[name]; !put && entries[name] == nil {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return entryLess(names[i], names[j]) })
	var out bytes.Buffer
	room := len(data) // about as large as the package it copies
	if e.store {
		for _, content := range e.put {
			room += len(content)
		}
	}
	out.Grow(room)
	zw := newZipWriter(&out)
	for _, name := range names {
		var err error
		switch content, put := e.put[name]; {
		case name == ContentTypes:
			err = writeContentTypes(zw, entries[name], content, e.types)
		case put && e.store:
			err = putEntry(zw, name, zip.Store, content)
		case put:
			err = writeEntry(zw, name, content)
		case e.make[name] != nil:
			if content, err = e.make[name](); err == nil {
				err = writeEntry(zw, name, content)
			}
		case entries[name].Name != name:
			err = copyRenamed(zw, entries[name], name)
		default:
			err = copyEntry(zw, entries[name])
		}
		if err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// copyEntry copies an entry's compressed bytes as they are.
func copyEntry(zw *zip.Writer, f *zip.File) error { return copyRenamed(zw, f, f.Name) }

// writeEntry deflates a part made of the pieces given, in order.
func writeEntry(zw *zip.Writer, name string, content ...[]byte) error {
	return putEntry(zw, name, zip.Deflate, content...)
}

// putEntry writes a part made of the pieces given, in order, by method.
func putEntry(zw *zip.Writer, name string, method uint16, content ...[]byte) error {
	pieces := make([]piece, len(content))
	for i, b := range content {
		pieces[i] = piece{bytes: b}
	}
	return putPieces(zw, name, method, pieces)
}

// putPieces writes a part made of the pieces given, in order, by method:
// rows are written straight into the entry.
func putPieces(zw *zip.Writer, name string, method uint16, pieces []piece) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	if err != nil {
		return err
	}
	for _, p := range pieces {
		if err := p.writeTo(w); err != nil {
			return err
		}
	}
	return nil
}

// ContentTypes is the part that declares every other part's type.
const ContentTypes = "[Content_Types].xml"

func entryLess(a, b string) bool {
	if (a == ContentTypes) != (b == ContentTypes) {
		return a == ContentTypes
	}
	return a < b
}

// types is [Content_Types].xml.
type types struct {
	XMLName   xml.Name       `xml:"http://schemas.openxmlformats.org/package/2006/content-types Types"`
	Defaults  []typeDefault  `xml:"Default"`
	Overrides []typeOverride `xml:"Override"`
}

type typeDefault struct {
	Extension   string `xml:",attr"`
	ContentType string `xml:",attr"`
}

type typeOverride struct {
	PartName    string `xml:",attr"`
	ContentType string `xml:",attr"`
}

// writeContentTypes writes the content types, changed by fix when it is
// not nil, and sorted: excelize lists the image extensions a chart brings in
// map order, different on every run.
// The content types are those put in place of the package's own, or its
// own (f).
func writeContentTypes(zw *zip.Writer, f *zip.File, put []byte, fix func(*types)) error {
	data := put
	if put == nil && f != nil {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	var t types
	if err := xml.Unmarshal(data, &t); err != nil {
		return err
	}
	if fix != nil {
		fix(&t)
	}
	sort.SliceStable(t.Defaults, func(i, j int) bool { return t.Defaults[i].Extension < t.Defaults[j].Extension })
	sort.SliceStable(t.Overrides, func(i, j int) bool { return t.Overrides[i].PartName < t.Overrides[j].PartName })
	out, err := xml.Marshal(t)
	if err != nil {
		return err
	}
	return writeEntry(zw, ContentTypes, append([]byte(xml.Header), out...))
}

// Header is how every package planner writes begins: the local header of
// [Content_Types].xml as rewrite writes it first, with no time and its
// sizes in a data descriptor, so the same bytes whatever it holds.
func Header() []byte {
	var buf bytes.Buffer
	zw := newZipWriter(&buf)
	if err := writeEntry(zw, ContentTypes, []byte("<Types/>")); err != nil || zw.Close() != nil {
		panic("planner's header: " + fmt.Sprint(err)) // writing to memory; a failure is a bug
	}
	return buf.Bytes()[:30+len(ContentTypes)]
}

// Same reports whether two packages hold the same parts with the same
// contents, whatever their compression, reading a block at a time.
func Same(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	pa, err1 := openParts(a)
	pb, err2 := openParts(b)
	if err1 != nil || err2 != nil || len(pa.files) != len(pb.files) {
		return false
	}
	for name, f := range pa.files {
		g := pb.files[name]
		if g == nil {
			return false
		}
		if same, err := sameEntry(f, g); err != nil || !same {
			return false
		}
	}
	return true
}

// Package is a package whose parts are inflated when first asked for.
type Package struct{ ps *lazyParts }

// ReadPackage opens data as a package, in planner's form (see normal.go).
func ReadPackage(data []byte) (*Package, error) {
	n, err := normalise("", data)
	if err != nil {
		return nil, err
	}
	ps, err := openParts(n.data)
	if err != nil {
		return nil, err
	}
	return &Package{ps}, nil
}

// Part is the part's content; nil when it is missing, unreadable, or
// inflates past the package limit.
func (p *Package) Part(name string) []byte { return p.ps.get(name) }

// lazyParts reads a package's entries only when asked for them: adding
// charts needs a handful of parts, not every sheet inflated.
type lazyParts struct {
	files map[string]*zip.File
	cache map[string][]byte
}

func openParts(data []byte) (*lazyParts, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	l := &lazyParts{files: map[string]*zip.File{}, cache: map[string][]byte{}}
	for _, f := range zr.File {
		if l.files[f.Name] == nil {
			l.files[f.Name] = f
		}
	}
	return l, nil
}

// get is the entry's content; nil when it is missing, unreadable, or
// inflates past the package limit.
func (l *lazyParts) get(name string) []byte {
	if b, ok := l.cache[name]; ok {
		return b
	}
	b := l.read(name)
	if b != nil {
		l.cache[name] = b
	}
	return b
}

// read is get without keeping the content: a part read once, to be
// edited and written, is not held after.
func (l *lazyParts) read(name string) []byte {
	if b, ok := l.cache[name]; ok {
		return b
	}
	f := l.files[name]
	if f == nil {
		return nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	var buf bytes.Buffer
	buf.Grow(sizeHint(f) + bytes.MinRead) // ReadFrom grows a buffer with less room than MinRead
	if _, err := buf.ReadFrom(io.LimitReader(rc, maxUnzippedBytes+1)); err != nil || buf.Len() > maxUnzippedBytes {
		return nil
	}
	return buf.Bytes()
}

// sizeHint is the room to make for an entry inflated: the size its header
// declares (which the zip reader holds it to), but no more than deflate
// can inflate its compressed bytes to, nor the package limit, so that a
// header cannot make planner claim memory the entry does not fill.
func sizeHint(f *zip.File) int {
	const deflateRatio = 1032 // deflate's largest expansion
	return int(min(f.UncompressedSize64, f.CompressedSize64*deflateRatio+64, maxUnzippedBytes+1))
}

// Parts maps every zip entry of data to its uncompressed content. Total
// size is bounded like excelize's own reading.
func Parts(data []byte) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(zr.File))
	var total int64
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, maxUnzippedBytes-total+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		total += int64(len(b))
		if total > maxUnzippedBytes {
			return nil, fmt.Errorf("inflates to more than %d MB", maxUnzippedBytes>>20)
		}
		out[f.Name] = b
	}
	return out, nil
}
