package ooxml

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"sort"
	"strings"
)

// ReadView is the part of a package planner reads, in planner's form (see
// normal.go): the workbook, its relationships and content types, the
// document properties, shared strings and styles (which say how a number
// shows: a date is a number too), and the named sheets (the input sheets,
// planner's own). excelize
// holds whatever it opens in memory; the user's other sheets, pictures and
// caches need not be there. Of a sheet only heads name, the view holds
// only its first rows (see Head). It also returns the size of every sheet's part
// unpacked, as the package declares it, by the sheet's name in lower case.
func ReadView(path string, data []byte, sheets []string, heads ...Head) ([]byte, map[string]uint64, error) {
	n, err := normalise(path, data)
	if err != nil {
		return nil, nil, err
	}
	data = n.data
	ps, err := openParts(data)
	if err != nil {
		return nil, nil, damagedZip(path, err)
	}
	if err := smallWorkbookParts(path, ps, cannotRead); err != nil {
		return nil, nil, err
	}
	keep := map[string]bool{}
	for name := range ps.files {
		switch c := Canonical(name); {
		case c == themePart:
		case slices.Contains(viewParts, c), strings.EqualFold(name, "xl/sharedStrings.xml"), name == "docProps/core.xml":
			keep[name] = true
		}
	}
	sizes, headRows := map[string]uint64{}, map[string]int{}
	for have, p := range SheetParts(ps.get) {
		f := ps.files[p]
		if f == nil {
			continue
		}
		sizes[strings.ToLower(have)] = f.UncompressedSize64
		for _, h := range heads {
			if strings.EqualFold(have, h.Sheet) {
				keep[p], headRows[p] = true, h.Rows
			}
		}
		for _, s := range sheets {
			if strings.EqualFold(have, s) {
				keep[p], headRows[p] = true, 0 // asked for whole
			}
		}
	}
	// The parts read to their end go into the view stored, as read:
	// excelize then copies them instead of inflating them again.
	drop, put := map[string]bool{}, map[string][]byte{}
	for name, f := range ps.files {
		switch {
		case !keep[name]:
			drop[name] = true
		case strings.EqualFold(name, "xl/sharedStrings.xml") && f.UncompressedSize64 > 5*MaxSharedStrings:
			// Small enough a part holds fewer strings, even as <si/>.
			n, err := countStrings(f)
			if err != nil {
				return nil, nil, unreadable(path, f, err)
			}
			if n > MaxSharedStrings {
				return nil, nil, fmt.Errorf("%s: %s holds %d strings, more than the %d planner reads, so planner cannot read this workbook: keep its sheets in a workbook of their own (planner init plan.xlsx)",
					path, name, n, MaxSharedStrings)
			}
		case headRows[name] > 0:
			if part, ok := sheetHead(f, headRows[name]); ok {
				put[name] = part
				break
			}
			part, err := readable(path, f)
			if err != nil {
				return nil, nil, err
			}
			if part != nil {
				put[name] = part
			}
		default:
			part, err := readable(path, f)
			if err != nil {
				return nil, nil, err
			}
			if part != nil {
				put[name] = part
			}
		}
	}
	out, err := viewZip(ps, keep, put)
	if err != nil {
		return nil, nil, damagedZip(path, err)
	}
	return out, sizes, nil
}

// viewZip is the zip excelize opens for a view: the parts kept, those in
// put stored as given, the rest copied compressed. Only excelize reads it,
// so it skips what rewrite does for a package a user keeps: the parts are
// in name order but their content types as the package wrote them
// (checked to read as XML, as rewrite would), and a part read whole keeps
// its checksum instead of summing it again.
func viewZip(ps *lazyParts, keep map[string]bool, put map[string][]byte) ([]byte, error) {
	var names []string
	room := 64 << 10
	for name, f := range ps.files {
		if keep[name] || name == ContentTypes {
			names = append(names, name)
			room += int(min(f.CompressedSize64, maxUnzippedBytes))
		}
	}
	for _, part := range put {
		room += len(part)
	}
	sort.Slice(names, func(i, j int) bool { return entryLess(names[i], names[j]) })
	var out bytes.Buffer
	out.Grow(min(room, maxUnzippedBytes))
	zw := newZipWriter(&out)
	for _, name := range names {
		if err := viewEntry(zw, ps, name, put); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// viewEntry writes one part of the view: stored as put gives it, or copied
// compressed; the content types only when they read as XML.
func viewEntry(zw *zip.Writer, ps *lazyParts, name string, put map[string][]byte) error {
	f := ps.files[name]
	part, ok := put[name]
	if name == ContentTypes {
		if !ok {
			part = ps.get(name)
		}
		if err := xml.Unmarshal(part, new(types)); err != nil {
			return err
		}
	}
	if ok {
		return storeEntry(zw, f, part)
	}
	return copyEntry(zw, f)
}

// storeEntry writes part stored under f's name. A part as long as f
// unpacked is f whole (a head is shorter), read through the zip reader,
// which held it to f's checksum: that checksum is f's.
func storeEntry(zw *zip.Writer, f *zip.File, part []byte) error {
	sum := f.CRC32
	if uint64(len(part)) != f.UncompressedSize64 || sum == 0 {
		sum = crc32.ChecksumIEEE(part)
	}
	size := uint64(len(part))
	w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: zip.Store, CRC32: sum, CompressedSize64: size, UncompressedSize64: size})
	if err != nil {
		return err
	}
	_, err = w.Write(part)
	return err
}

// countStrings counts the strings of a shared-strings part, a block at a
// time, reading it to its end. It counts <si> start tags, whatever their
// prefix, in the bytes: the guard runs on parts of up to a gigabyte before
// anything reads them as XML, and the decoder takes half as long again.
func countStrings(f *zip.File) (int, error) {
	rc, err := f.Open()
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	n := 0
	buf := make([]byte, 256<<10)
	carry := 0 // bytes kept from the block before: a start split between blocks
	for {
		got, err := rc.Read(buf[carry:])
		block := buf[:carry+got]
		found, last := stringStarts(block)
		n += found
		keep := min(len(block), 64)
		if found > 0 {
			keep = min(keep, len(block)-last)
		}
		carry = copy(buf, block[len(block)-keep:])
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// stringStarts counts the whole <si> start tags in block, <si>, <si/> or
// <x:si ...>, and says where the last one's name ends.
func stringStarts(block []byte) (n, last int) {
	for i := 0; ; {
		j := bytes.IndexByte(block[i:], '<')
		if j < 0 {
			return n, last
		}
		at := i + j
		i = at + 1
		if at+1 < len(block) && block[at+1] == '/' {
			continue
		}
		name := tagName(block[at:])
		if end := at + 1 + len(name); end < len(block) {
			if _, local := splitName(name); local == "si" {
				n, last = n+1, end+1
			}
		}
	}
}

// Head asks ReadView for a sheet of which only the first rows are read:
// the view holds the sheet cut after them, and no more of it is inflated.
type Head struct {
	Sheet string
	Rows  int
}

// sheetHead is the sheet part f cut after its first rows row elements,
// which hold every row numbered up to rows, and closed as the part closes
// its sheetData and root, with their prefixes. ok is false when the part
// holds no more rows than that, or cannot be read as XML that far: the
// whole part is then read, and checked, as any other.
func sheetHead(f *zip.File, rows int) (part []byte, ok bool) {
	// Go's inflater fills a 32 KB window before it gives a byte; given only
	// the part's first compressed bytes, it gives what they hold, which is
	// the head of any sheet planner writes. Else the whole part is read.
	if f.Method == zip.Deflate {
		if raw, err := f.OpenRaw(); err == nil {
			fr := inflaters.Get().(io.ReadCloser)
			defer inflaters.Put(fr)
			if fr.(flate.Resetter).Reset(io.LimitReader(raw, headCompressed), nil) == nil {
				if part, ok := cutAfterRows(fr, rows); ok {
					return part, true
				}
			}
		}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, false
	}
	defer rc.Close()
	return cutAfterRows(rc, rows)
}

// headCompressed is how many compressed bytes sheetHead tries first.
const headCompressed = 2 << 10

// cutAfterRows is sheetHead of the part r inflates.
func cutAfterRows(r io.Reader, rows int) (part []byte, ok bool) {
	var read bytes.Buffer
	// Raw tokens: an excelize sheet declares some sixty namespaces on its
	// root, and resolving them took most of the time; the names are wanted
	// as written anyway.
	d := xml.NewDecoder(io.TeeReader(r, &read))
	var root, sheetData string
	depth, seen := 0, 0
	for {
		tok, err := d.RawToken()
		if err != nil {
			return nil, false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case depth == 0:
				root = rawName(t.Name)
			case depth == 1 && t.Name.Local == "sheetData":
				sheetData = rawName(t.Name)
			}
			depth++
		case xml.EndElement:
			depth--
			switch {
			case depth == 2 && sheetData != "" && t.Name.Local == "row":
				if seen++; seen == rows {
					cut := int(d.InputOffset())
					return append(read.Bytes()[:cut:cut], "</"+sheetData+"></"+root+">"...), true
				}
			case depth == 1 && t.Name.Local == "sheetData", depth <= 0:
				return nil, false // no more rows than asked for
			}
		}
	}
}

// rawName is a name as a raw token gives it, written with its prefix.
func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// readable fails for a part that cannot be read to its end: excelize
// takes what it could read, and would work on half a part. It gives the
// part's content when it is at most maxStoredInView, else nil.
func readable(path string, f *zip.File) ([]byte, error) {
	var part []byte
	rc, err := f.Open()
	if err == nil {
		if f.UncompressedSize64 <= maxStoredInView {
			part, err = io.ReadAll(rc)
		} else {
			_, err = io.Copy(io.Discard, rc)
		}
		rc.Close()
	}
	if err != nil {
		return nil, unreadable(path, f, err)
	}
	return part, nil
}

// unreadable is the error of a part the zip cannot give back.
func unreadable(path string, f *zip.File, err error) error {
	return fmt.Errorf("%s: its part %s cannot be read (%v); the workbook is damaged: open it in Excel or LibreOffice and save it again", path, f.Name, err)
}

// maxStoredInView is the largest part the view holds uncompressed; a
// larger one stays compressed, and excelize spools it to disk as it reads.
const maxStoredInView = 4 << 20
