package ooxml

import (
	"archive/zip"
	"bytes"
	"fmt"
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
	for _, sheet := range sheets {
		for have, p := range where {
			if strings.EqualFold(have, sheet) {
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
		case f.UncompressedSize64 > MaxPartInMemory:
			return nil, tooLarge(path, name, f.UncompressedSize64, MaxPartInMemory, cannotAdd)
		default:
			part, err := readable(path, f)
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
