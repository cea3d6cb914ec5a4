package ooxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/cols"
)

// Job is what Build writes into a package: planner's sheets, written by
// Write on excelize's handle on a view of the package.
type Job struct {
	Names  []string // planner's sheets, in the order Write writes them
	Adding int      // how many of them the package does not have yet
	// Check, when not nil, runs on excelize's handle before anything is
	// written; its error is Build's.
	Check func(*excelize.File) error
	// Write writes the sheets and returns them, in the order of Names,
	// with the defined names planner manages, which it may change; every
	// other name is the user's.
	Write func(*excelize.File) (sheets []Sheet, managed map[string]bool, err error)
}

// Sheet is one of planner's sheets, with the charts drawn on it afresh. A
// chart's size is in pixels, its anchor in cells: the sheet's column widths
// (which Pack writes) and row heights (points) say where its corners fall.
type Sheet struct {
	Name    string
	Charts  []Chart
	Widths  []float64
	Heights map[int]float64
	Used    string // the range its cells take ("A1:K145"), for its <dimension>; "" leaves that as written
	// Rows, when not nil, writes the sheet's <row> elements its part was
	// written without (nothing, for a part that holds its rows): packing
	// streams them into the part's zip entry after <sheetData>, so the
	// rows are never held whole as XML.
	Rows func(io.Writer) error
}

// Build writes the job's sheets into the workbook data, read from path,
// and returns the package to save, verified against data (see Verify), with
// what it changed of the user's package besides planner's sheets, in words
// for the user: that a Strict package is Transitional now, or which parts
// stored as UTF-16 are UTF-8 (see normal.go).
func Build(path string, data []byte, job Job) ([]byte, []string, error) {
	n, err := normalise(path, data)
	if err != nil {
		return nil, nil, err
	}
	out, err := build(path, n.data, job)
	if err != nil {
		return nil, nil, err
	}
	return n.restore(path, out)
}

// build is Build on a package in planner's form. excelize sees only a view
// of it (see view.go).
func build(path string, data []byte, job Job) ([]byte, error) {
	sheets := job.Names
	v, err := makeView(path, data, sheets)
	if err != nil {
		return nil, err
	}
	if v.data, err = stripDrawings(v.data, sheets); err != nil {
		return nil, fmt.Errorf("%s: taking out planner's old charts: %w", path, err)
	}
	if v.data, err = prepare(path, v.data); err != nil {
		return nil, err
	}
	if err := moveAside(v, data, job.Adding); err != nil {
		return nil, fmt.Errorf("%s: making room for planner's sheets: %w", path, err)
	}
	f, err := Open(path, v.data, false)
	if err != nil {
		return nil, err
	}
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	if job.Check != nil {
		if err := job.Check(f.File); err != nil {
			return nil, err
		}
	}
	written, managed, err := job.Write(f.File)
	if err != nil {
		return nil, fmt.Errorf("%s: writing planner's sheets: %w", path, err)
	}
	if !slices.EqualFunc(written, sheets, func(s Sheet, name string) bool { return s.Name == name }) {
		return nil, fmt.Errorf("%s: writing planner's sheets: wrote other sheets than it was to write", path)
	}
	c, err := capture(f.File)
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, Unlaid("its sheets", err))
	}
	// excelize's own copy of every sheet it wrote is garbage from here on.
	f.Close()
	f = nil
	drawings := map[string]string{}
	out, err := packCaptured(path, c, written, drawings)
	if err != nil {
		return nil, err
	}
	if out, err = mergeBack(path, data, out, v, written, drawings); err != nil {
		var d *damaged
		if errors.As(err, &d) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	owned := map[string]bool{}
	for _, s := range sheets {
		owned[s] = true
	}
	if err := Verify(path, data, out, owned, managed); err != nil {
		return nil, err
	}
	return out, nil
}

// mergeBack turns out, what excelize wrote from the view v, into the
// package to save: the user's styles and protection as they wrote them,
// planner's sheets off the names of the user's parts, the charts drawn,
// the calculation chain pruned, and every part the view did not hold
// copied from data.
func mergeBack(path string, data, out []byte, v *view, sheets []Sheet, drawings map[string]string) ([]byte, error) {
	var names []string
	for _, s := range sheets {
		names = append(names, s.Name)
	}
	out, err := keepStyles(v.data, out)
	if err != nil {
		return nil, err
	}
	if out, err = keepProtection(v.data, out); err != nil {
		return nil, err
	}
	if out, err = relocate(path, v, data, out); err != nil {
		return nil, err
	}
	if out, err = drawCharts(out, sheets, v.outside, drawings); err != nil {
		return nil, err
	}
	out, put, drop, err := pruneCalcChain(path, out, data, names)
	if err != nil {
		return nil, err
	}
	return merge(path, data, out, v, put, drop)
}

// Pack serialises f with its zip entries in a fixed order (see rewrite),
// the sheets given their column widths (see cols.Splice).
func Pack(path string, f *excelize.File, sheets []Sheet) ([]byte, error) {
	c, err := capture(f)
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, Unlaid("its sheets", err))
	}
	return packCaptured(path, c, sheets, nil)
}

// packCaptured is Pack of what excelize wrote. A sheet's widths and
// dimension go before its data: only the part up to <sheetData> is
// rewritten, its rows (Sheet.Rows) are written into the deflater after it,
// and the rest is deflated from where excelize wrote it. With drawings
// (nil for none), a sheet with charts gets its <drawing> element as it is
// packed, under the relationship id drawings then gives by its name, which
// drawCharts adds; a sheet it cannot place one in is stored, not deflated,
// for drawCharts to give it one and deflate it then.
func packCaptured(path string, c *captured, sheets []Sheet, drawings map[string]string) ([]byte, error) {
	get, packed := c.part, c.pack
	if c.odd {
		zipped, err := c.zip()
		if err != nil {
			return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
		}
		ps, err := openParts(zipped)
		if err != nil {
			return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
		}
		get = ps.get
		packed = func(put map[string][]piece, _ map[string]bool) ([]byte, error) {
			e := edits{put: map[string][]byte{}}
			for name, pieces := range put {
				var err error
				if e.put[name], err = joined(pieces); err != nil {
					return nil, err
				}
			}
			return rewrite(zipped, e)
		}
	}
	put, stored, where := map[string][]piece{}, map[string]bool{}, SheetParts(get)
	for _, s := range sheets {
		p := where[s.Name]
		pieces, err := sheetPieces(get(p), s)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, s.Name, err)
		}
		if drawings != nil && len(s.Charts) > 0 && p != "" {
			id := newRelationshipID(get(RelsOf(p)))
			if drawn, ok := withDrawing(pieces, get(p), id); ok {
				pieces, drawings[s.Name] = drawn, id
			} else {
				stored[p] = true // drawCharts gives it its drawing
			}
		}
		if pieces != nil {
			put[p] = pieces
		}
	}
	data, err := packed(put, stored)
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	return data, nil
}

// sheetPieces are the pieces a sheet's part is packed as: its head with
// the sheet's widths and dimension, its rows, and the rest as excelize
// wrote it; nil leaves the part as it is. Rows are streamed only into a
// head rewritten at a clean split; else (a sheet without cells, or a part
// whose text holds <sheetData> before its data, which excelize's stream
// writer does not write) they are written out here first.
func sheetPieces(part []byte, s Sheet) ([]piece, error) {
	edited := len(s.Widths) > 0 || s.Used != ""
	head, data := splitData(part)
	rows := piece{rows: s.Rows}
	if s.Rows != nil && (data == nil || !edited) {
		var written bytes.Buffer
		if err := s.Rows(&written); err != nil {
			return nil, err
		}
		rows = piece{bytes: written.Bytes()}
		if written.Len() > 0 && data == nil {
			var err error
			if head, err = insertRows(part, written.Bytes()); err != nil {
				return nil, err
			}
			rows = piece{}
		}
		if written.Len() > 0 && !edited {
			return []piece{{bytes: head}, rows, {bytes: data}}, nil
		}
	}
	if !edited {
		return nil, nil
	}
	head, err := cols.Splice(head, s.Widths)
	if err != nil {
		return nil, err
	}
	if s.Used != "" {
		head = withDimension(head, s.Used)
	}
	return []piece{{bytes: head}, rows, {bytes: data}}, nil
}

// withDrawing is a sheet's pieces (nil: the part as it is) with the
// <drawing> of the relationship id put where addDrawingElement puts it:
// after the sheet's data, whose end the last piece holds, so the rows need
// not be written out to find the place. ok is false when the pieces
// are cut otherwise; drawCharts then draws on the part.
func withDrawing(pieces []piece, part []byte, id string) (drawn []piece, ok bool) {
	if pieces == nil {
		whole, err := addDrawingElement(part, id)
		return []piece{{bytes: whole}}, err == nil
	}
	last := pieces[len(pieces)-1]
	if last.rows != nil || !bytes.Contains(last.bytes, []byte("</sheetData>")) {
		return nil, false
	}
	tail, err := addDrawingElement(last.bytes, id)
	if err != nil {
		return nil, false
	}
	return append(slices.Clone(pieces[:len(pieces)-1]), piece{bytes: tail}), true
}

// insertRows puts rows into the empty <sheetData> excelize's stream writer
// wrote, wherever its text stands.
func insertRows(part, rows []byte) ([]byte, error) {
	at := sheetDataStart(part)
	const start = "<sheetData>"
	if at < 0 || !bytes.HasPrefix(part[at:], []byte(start+"</sheetData>")) {
		return nil, errors.New("the sheet has no empty <sheetData> to put its rows in")
	}
	at += len(start)
	return slices.Concat(part[:at], rows, part[at:]), nil
}

// piece is part of a part as it is packed: bytes, or rows written
// straight into the entry (see Sheet.Rows).
type piece struct {
	bytes []byte
	rows  func(io.Writer) error
}

func (p piece) writeTo(w io.Writer) error {
	if p.rows != nil {
		return p.rows(w)
	}
	_, err := w.Write(p.bytes)
	return err
}

// joined is the pieces as one, their rows written out.
func joined(pieces []piece) ([]byte, error) {
	var b bytes.Buffer
	for _, p := range pieces {
		if err := p.writeTo(&b); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// sheetDataStart is where the worksheet's own <sheetData> element starts,
// as the XML reads (not text that merely looks like it); -1 for none.
func sheetDataStart(part []byte) int {
	at := -1
	_ = walk(bytes.NewReader(part), func(tok xml.Token, from, _, depth int) error {
		if t, ok := tok.(xml.StartElement); ok && depth == 1 && t.Name.Local == "sheetData" {
			at = from
			return errStop
		}
		return nil
	})
	return at
}

// splitData splits a sheet part after the start tag of its <sheetData>,
// where cols.Splice and withDimension read no further, when that is the
// first <sheetData> its text holds (cols.Splice looks for that text);
// else the whole part comes first.
func splitData(part []byte) (head, data []byte) {
	k := bytes.Index(part, []byte("<sheetData>"))
	if k < 0 {
		return part, nil
	}
	if sheetDataStart(part) != k {
		return part, nil
	}
	end := k + len("<sheetData>")
	return part[:end:end], part[end:]
}

// withDimension gives a sheet part the used range its cells take, which
// readers that stream a sheet trust to know how far to read. It replaces
// the <dimension> excelize's stream writer wrote before the sheet's data
// (A1 for a sheet of its own, or what the sheet said before it was
// rewritten), reading no further.
func withDimension(part []byte, used string) []byte {
	from, to := -1, -1
	_ = walk(bytes.NewReader(part), func(tok xml.Token, at, end, depth int) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 1 && t.Name.Local == "sheetData" {
				return errStop
			}
			if depth == 1 && t.Name.Local == "dimension" {
				from = at
			}
		case xml.EndElement:
			if depth == 1 && from >= 0 {
				to = end
				return errStop
			}
		}
		return nil
	})
	if to < 0 {
		return part
	}
	return slices.Concat(part[:from], []byte(`<dimension ref="`+used+`"></dimension>`), part[to:])
}
