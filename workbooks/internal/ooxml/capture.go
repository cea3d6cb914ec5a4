package ooxml

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"
)

// captured is what excelize writes of a package, each part as it wrote it,
// uncompressed, in the order it wrote them. Pack rewrites the sheets it
// gives their widths and compresses each part once, instead of inflating
// again a package excelize has just deflated. A part excelize writes twice
// keeps its first content, as rewrite keeps a zip's first entry of a name.
type captured struct {
	names []string
	parts map[string]*bytes.Buffer
	// odd says the package holds what only a zip made by excelize's own
	// writer gives exactly (a folder entry, parts added from a file
	// system): Pack then goes the long way, through that zip.
	odd bool
}

// capture has f write its package into a captured.
func capture(f *excelize.File) (*captured, error) {
	c := &captured{parts: map[string]*bytes.Buffer{}}
	was := f.ZipWriter
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter { return c })
	defer f.SetZipWriter(was)
	if _, err := f.WriteTo(io.Discard); err != nil {
		return nil, err
	}
	return c, nil
}

// Create starts a part.
func (c *captured) Create(name string) (io.Writer, error) {
	if strings.HasSuffix(name, "/") {
		c.odd = true
	}
	if _, ok := c.parts[name]; ok {
		return io.Discard, nil // the first of a name is the one kept
	}
	b := &bytes.Buffer{}
	c.parts[name] = b
	c.names = append(c.names, name)
	return sized{b}, nil
}

// sized is a part being captured. excelize copies a large sheet from the
// file it spooled it to; the part takes the room it needs at once, not
// twice that by doubling as it grows.
type sized struct{ *bytes.Buffer }

// ReadFrom reads r to its end, into room as large as r says it is.
func (s sized) ReadFrom(r io.Reader) (int64, error) {
	if n, ok := r.(interface{ Size() int64 }); ok && n.Size() > 0 && n.Size() <= maxUnzippedBytes {
		s.Grow(int(n.Size()))
	}
	return s.Buffer.ReadFrom(r)
}

// AddFS is not what planner's sheets need; excelize does not call it when
// it writes a workbook.
func (c *captured) AddFS(fs.FS) error {
	c.odd = true
	return errors.New("adding parts from a file system is not supported")
}

// Close ends the package.
func (c *captured) Close() error { return nil }

// part is a captured part's content; nil when it is missing or past the
// package limit, as lazyParts.get gives it.
func (c *captured) part(name string) []byte {
	b, ok := c.parts[name]
	if !ok || b.Len() > maxUnzippedBytes {
		return nil
	}
	return b.Bytes()
}

// zip is the package as excelize's own writer would have made it.
func (c *captured) zip() ([]byte, error) {
	var buf bytes.Buffer
	zw := newZipWriter(&buf)
	for _, name := range c.names {
		w, err := zw.Create(name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(c.parts[name].Bytes()); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pack is rewrite of the package excelize would have made, with the parts
// put in place (Pack neither drops nor renames any), each given as the
// pieces it is made of: every part deflated once, in rewrite's order, but
// those stored, left as they are for a later step to deflate. A part
// excelize deflated and rewrite copied has the bytes of the same part
// deflated afresh, and deflating gives the same bytes however its input
// is cut.
func (c *captured) pack(put map[string][]piece, stored map[string]bool) ([]byte, error) {
	names := slices.Clone(c.names)
	for name := range put {
		if _, ok := c.parts[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return entryLess(names[i], names[j]) })
	// Room for the package at once: the parts stored whole, the others as
	// a spreadsheet's XML deflates, to about a tenth.
	size := 64 << 10
	for _, name := range names {
		pieces, ok := put[name]
		if !ok {
			pieces = []piece{{bytes: c.parts[name].Bytes()}}
		}
		for _, p := range pieces {
			if stored[name] {
				size += len(p.bytes)
			} else {
				size += len(p.bytes) / 8
			}
		}
	}
	var out bytes.Buffer
	out.Grow(min(size, maxUnzippedBytes))
	zw := newZipWriter(&out)
	for _, name := range names {
		pieces, ok := put[name]
		if !ok {
			pieces = []piece{{bytes: c.parts[name].Bytes()}}
		}
		var err error
		switch {
		case name == ContentTypes:
			var types []byte
			if types, err = joined(pieces); err == nil {
				err = writeContentTypes(zw, nil, types, nil)
			}
		case stored[name]:
			err = putPieces(zw, name, zip.Store, pieces) // stored as it is, to be rewritten
		default:
			err = putPieces(zw, name, zip.Deflate, pieces)
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
