package ooxml

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// excelize holds every part of a package it opens in memory and writes
// every part back, renaming some on the way (xl/SharedStrings.xml becomes
// xl/sharedStrings.xml) and numbering a new sheet's part after the largest
// sheetId whether or not the user has a part of that name. So excelize is
// given a view: the parts it rewrites (the workbook, its relationships,
// content types, styles and theme) and planner's own sheets with what they
// point at. merge then builds the result from the user's package, copying
// every other entry as it is, compressed bytes included, and taking the
// view's parts from what excelize wrote.

const themePart = "xl/theme/theme1.xml"

// view is the part of a package excelize is given.
type view struct {
	data  []byte          // the view's package
	names map[string]bool // the entries of the user's package it holds
	user  names           // the entries of the user's package
}

// outside reports whether the user's package has an entry of that name
// (compared without case) that the view does not hold.
func (v *view) outside(p string) bool { return v.user.taken(p) && !v.names[v.user[strings.ToLower(p)]] }

// viewParts are the parts excelize rewrites on every save, as excelize
// spells them. A package may spell them in another case (zip part names
// compare without case): the view holds them under excelize's spelling, and
// merge writes them back under the user's.
var viewParts = []string{ContentTypes, "_rels/.rels", WorkbookPart, WorkbookRels, StylesPart, themePart}

// Canonical is excelize's spelling of one of the view's parts, or name.
func Canonical(name string) string {
	for _, p := range viewParts {
		if strings.EqualFold(name, p) {
			return p
		}
	}
	return name
}

// makeView is the view of data for writing the named sheets of planner's.
// A part it holds that unpacks past MaxPartInMemory is refused: excelize
// would parse it whole.
func makeView(path string, data []byte, sheets []string) (*view, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, damagedZip(path, err)
	}
	if err := smallWorkbookParts(path, ps, cannotAdd); err != nil {
		return nil, err
	}
	v := &view{names: map[string]bool{}, user: names{}}
	e := edits{put: map[string][]byte{}, drop: map[string]bool{}, store: true}
	for name := range ps.files {
		v.user[strings.ToLower(name)] = name
		if Canonical(name) != name || slices.Contains(viewParts, name) {
			v.names[name] = true
		}
	}
	where := SheetParts(ps.get)
	rewritten := map[string]bool{} // the parts of the sheets planner writes
	for _, sheet := range sheets {
		for have, p := range where {
			if strings.EqualFold(have, sheet) {
				rewritten[p] = true
				for q := range reachable(ps, p) {
					v.names[q] = true
				}
			}
		}
	}
	for name, f := range ps.files {
		switch {
		case !v.names[name]:
			e.drop[name] = true
		default:
			read := whole
			if rewritten[name] {
				read = withoutRows
			}
			part, err := read(path, f)
			if err != nil {
				return nil, err
			}
			if c := Canonical(name); c != name {
				e.put[c], e.drop[name] = ps.get(name), true
			} else if part != nil {
				e.put[name] = part
			}
		}
	}
	if v.data, err = rewrite(data, e); err != nil {
		return nil, damagedZip(path, err)
	}
	return v, nil
}

// withoutRows is the part of a sheet planner rewrites as excelize is given
// it: every byte but its rows, which planner writes afresh and excelize
// would parse whole, though a sheet of thousands of offers holds a
// hundred megabytes of them. What is left (the sheet's views, columns,
// merges, print settings and the like) past MaxPartInMemory is refused.
func withoutRows(path string, f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, unreadable(path, f, err)
	}
	defer rc.Close()
	part, err := cutRows(rc, MaxPartInMemory)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, tooLarge(path, f.Name, f.UncompressedSize64, MaxPartInMemory, cannotAdd)
	case errors.Is(err, errNotXML):
		return whole(path, f) // for excelize to refuse in its words
	case err != nil:
		return nil, unreadable(path, f, err)
	}
	return part, nil
}

// whole is a part as the view holds it: refused past MaxPartInMemory,
// which excelize would parse whole; nil to leave one past
// maxStoredInView as it is stored.
func whole(path string, f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > MaxPartInMemory {
		return nil, tooLarge(path, f.Name, f.UncompressedSize64, MaxPartInMemory, cannotAdd)
	}
	return readable(path, f)
}

var (
	errTooLarge = errors.New("too large")
	errNotXML   = errors.New("not XML the decoder reads")
)

// cutRows is the sheet part r inflates with the content of its
// <sheetData> left out, every other byte as it was; errTooLarge once what
// it keeps passes limit, errNotXML for a part the XML decoder cannot read.
// The decoder reads up to the rows; the rows themselves are passed over by
// skipContent, many times faster than tokens.
func cutRows(r io.Reader, limit int) ([]byte, error) {
	t := &kept{r: r}
	d := xml.NewDecoder(t)
	depth := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return t.rest(t.r, limit) // no rows to leave out
		}
		if err != nil {
			if t.err != nil {
				return nil, t.err // the zip's, not the XML's
			}
			return nil, errNotXML
		}
		if len(t.buf) > limit {
			return nil, errTooLarge
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth++; depth == 2 && tok.Name.Local == "sheetData" {
				at := int(d.InputOffset())
				if bytes.HasSuffix(t.buf[:at], []byte("/>")) {
					return t.rest(t.r, limit) // <sheetData/>: no rows
				}
				return t.cut(at, rawName(tok.Name), limit)
			}
		case xml.EndElement:
			depth--
		}
	}
}

// kept is what cutRows has read of the part, from its first byte.
type kept struct {
	r   io.Reader
	buf []byte
	err error // reading r, other than its end
}

func (k *kept) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	k.buf = append(k.buf, p[:n]...)
	if err != nil && err != io.EOF {
		k.err = err
	}
	return n, err
}

// cut keeps the part up to at, the end of the start tag of its
// <sheetData> (spelled name), and from the end tag on.
func (k *kept) cut(at int, name string, limit int) ([]byte, error) {
	head := k.buf[:at:at]
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(k.buf[at:]), k.r), 64<<10)
	if err := skipContent(br, name); err != nil {
		if k.err != nil {
			return nil, k.err
		}
		return nil, errNotXML
	}
	return (&kept{buf: append(head, '<')}).rest(br, limit)
}

// rest is what was kept and all that from has left, within limit.
func (k *kept) rest(from io.Reader, limit int) ([]byte, error) {
	more, err := io.ReadAll(io.LimitReader(from, int64(limit-len(k.buf)+1)))
	if err != nil {
		return nil, err
	}
	if out := append(k.buf, more...); len(out) <= limit {
		return out, nil
	}
	return nil, errTooLarge
}

// skipContent reads br past the content of the element spelled name whose
// start tag it was just read past, and past the < of its end tag. It reads
// markup only: in XML no text or attribute holds a <, and comments, CDATA
// and processing instructions are passed over whole, so the first end tag
// of that name outside an element of that name is the element's own.
func skipContent(br *bufio.Reader, name string) error {
	depth := 0
	for {
		if err := skipTo(br, '<'); err != nil {
			return err
		}
		p, _ := br.Peek(len("![CDATA[") + len(name) + 1)
		switch {
		case bytes.HasPrefix(p, []byte("!--")):
			if err := skipPast(br, "-->"); err != nil {
				return err
			}
		case bytes.HasPrefix(p, []byte("![CDATA[")):
			if err := skipPast(br, "]]>"); err != nil {
				return err
			}
		case bytes.HasPrefix(p, []byte("?")):
			if err := skipPast(br, "?>"); err != nil {
				return err
			}
		case len(p) > 0 && p[0] == '/' && isTag(p[1:], name):
			if depth == 0 {
				return nil
			}
			depth--
		case isTag(p, name):
			closed, err := tagClosed(br)
			if err != nil {
				return err
			}
			if !closed {
				depth++
			}
		}
	}
}

// isTag reports whether p starts with the name, whole.
func isTag(p []byte, name string) bool {
	if !bytes.HasPrefix(p, []byte(name)) || len(p) == len(name) {
		return false
	}
	switch p[len(name)] {
	case '>', '/', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// skipTo reads br past the next b.
func skipTo(br *bufio.Reader, b byte) error {
	for {
		_, err := br.ReadSlice(b)
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// skipPast reads br past the next end, which ends in '>'.
func skipPast(br *bufio.Reader, end string) error {
	var last []byte // what ends what was read, up to end's length
	for {
		chunk, err := br.ReadSlice('>')
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
		last = append(last, chunk[max(0, len(chunk)-len(end)):]...)
		last = last[max(0, len(last)-len(end)):]
		if err == nil && string(last) == end {
			return nil
		}
	}
}

// tagClosed reads br past the end of the start tag it is in, reporting
// whether the tag closes its element (<sheetData/>).
func tagClosed(br *bufio.Reader) (bool, error) {
	prev := byte(0) // the byte before the '>'
	for {
		chunk, err := br.ReadSlice('>')
		switch {
		case err == nil:
			if len(chunk) >= 2 {
				prev = chunk[len(chunk)-2]
			}
			return prev == '/', nil
		case err != bufio.ErrBufferFull:
			return false, err
		}
		prev = chunk[len(chunk)-1]
	}
}

// What a part too large means, reading and writing.
const (
	cannotAdd  = "so planner cannot add its sheets to this workbook: keep them in a workbook of their own (planner init plan.xlsx)"
	cannotRead = "so planner cannot read this workbook: keep planner's sheets in a workbook of their own (planner init plan.xlsx)"
)

func tooLarge(path, part string, size, limit uint64, consequence string) error {
	return fmt.Errorf("%s: %s unpacks to %d MB, more than the %d MB planner reads of such a part, %s",
		path, part, (size+1<<20-1)>>20, limit>>20, consequence)
}

// MaxWorkbookPart bounds the workbook part, its relationships, content
// types, styles, theme and document properties, which excelize parses whole
// into a model many times their size (a workbook part of 17 MB, 250,000
// defined names, took 580 MB).
const MaxWorkbookPart = 16 << 20

// smallWorkbookParts refuses a package whose workbook-wide parts are past
// MaxWorkbookPart, before anything reads them.
func smallWorkbookParts(path string, ps *lazyParts, consequence string) error {
	for name, f := range ps.files {
		if c := Canonical(name); (slices.Contains(viewParts, c) || name == "docProps/core.xml") && f.UncompressedSize64 > MaxWorkbookPart {
			return tooLarge(path, name, f.UncompressedSize64, MaxWorkbookPart, consequence)
		}
	}
	return nil
}

// reachable is a part, its relationships, and every part they point at,
// followed on.
func reachable(ps *lazyParts, start string) map[string]bool {
	out := map[string]bool{}
	var follow func(p string)
	follow = func(p string) {
		if out[p] || ps.files[p] == nil {
			return
		}
		out[p] = true
		rels := RelsOf(p)
		if ps.files[rels] == nil {
			return
		}
		out[rels] = true
		root, err := parseXML(ps.get(rels))
		if err != nil {
			return
		}
		for _, r := range root.Kids {
			if r.attr("TargetMode") != "External" {
				follow(resolve(path.Dir(p), r.attr("Target")))
			}
		}
	}
	follow(start)
	return out
}

// newSheetParts are the parts excelize will give the sheets it adds: it
// numbers each after the largest sheetId so far.
func newSheetParts(workbook []byte, adding int) []string {
	wb, err := parseXML(workbook)
	if err != nil {
		return nil
	}
	largest := 0
	for _, s := range kids(wb, "sheets") {
		if id, err := strconv.Atoi(s.attr("sheetId")); err == nil && id > largest {
			largest = id
		}
	}
	var out []string
	for i := 1; i <= adding; i++ {
		out = append(out, fmt.Sprintf("xl/worksheets/sheet%d.xml", largest+i))
	}
	return out
}

// merge builds the package planner writes: every entry of original that
// the view did not hold, copied as it is; for those it held, what excelize
// wrote into out (under the user's spelling of the name), or nothing when
// excelize left it out (planner's old charts); the theme as the user had
// it, since planner never changes it; and out's new parts. put replaces or
// adds entries last; drop leaves entries out.
func merge(path string, original, out []byte, v *view, put map[string][]byte, drop map[string]bool) ([]byte, error) {
	br, err := zip.NewReader(bytes.NewReader(original), int64(len(original)))
	if err != nil {
		return nil, damagedZip(path, err)
	}
	or, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	if err != nil {
		return nil, err
	}
	written := map[string]*zip.File{}
	for _, f := range or.File {
		written[strings.ToLower(f.Name)] = f
	}
	type source struct {
		f       *zip.File
		content []byte
	}
	entries := map[string]source{}
	user, held := map[string]bool{}, map[string]bool{}
	for _, f := range br.File {
		low := strings.ToLower(f.Name)
		if _, dup := entries[f.Name]; dup || drop[f.Name] {
			continue
		}
		user[low], held[low] = true, v.names[f.Name]
		switch w := written[low]; {
		case !v.names[f.Name] || Canonical(f.Name) == themePart:
			entries[f.Name] = source{f: f}
		case w != nil:
			entries[f.Name] = source{f: w}
		}
	}
	for _, f := range or.File {
		switch {
		case drop[f.Name]:
		case !user[strings.ToLower(f.Name)]:
			entries[f.Name] = source{f: f}
		case !held[strings.ToLower(f.Name)]:
			return nil, &damaged{path, f.Name, "planner's sheets would be written over it"}
		}
	}
	for name, content := range put {
		entries[name] = source{content: content}
	}
	sorted := make([]string, 0, len(entries))
	for name := range entries {
		sorted = append(sorted, name)
	}
	sort.Slice(sorted, func(i, j int) bool { return entryLess(sorted[i], sorted[j]) })
	// Sized up front: a buffer that doubles as it fills holds three times a
	// large workbook at its peak.
	var buf bytes.Buffer
	buf.Grow(len(original) + len(out) + 64<<10)
	zw := newZipWriter(&buf)
	for _, name := range sorted {
		s := entries[name]
		var err error
		switch {
		case s.f == nil:
			err = writeEntry(zw, name, s.content)
		case s.f.Name != name:
			err = copyRenamed(zw, s.f, name)
		default:
			err = copyEntry(zw, s.f)
		}
		if err != nil {
			return nil, damagedZip(path, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// copyRenamed copies an entry's compressed bytes under another name.
func copyRenamed(zw *zip.Writer, f *zip.File, name string) error {
	if strings.HasSuffix(name, "/") {
		// A folder entry holds nothing; some writers deflate an empty body
		// for it, which Go's writer will not copy raw.
		_, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: f.Modified})
		return err
	}
	raw, err := f.OpenRaw()
	if err != nil {
		return err
	}
	h := f.FileHeader
	h.Name = name
	w, err := zw.CreateRaw(&h)
	if err != nil {
		return err
	}
	return copyCompressed(w, raw)
}
