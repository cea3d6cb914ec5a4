package workbooks

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
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
var viewParts = []string{contentTypes, "_rels/.rels", workbookPart, workbookRels, stylesPart, themePart}

// canonical is excelize's spelling of one of the view's parts, or name.
func canonical(name string) string {
	for _, p := range viewParts {
		if strings.EqualFold(name, p) {
			return p
		}
	}
	return name
}

// makeView is the view of data for writing the named sheets of planner's.
// A part it holds that unpacks past maxPartInMemory is refused: excelize
// would parse it whole.
func makeView(path string, data []byte, sheets []string) (*view, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, damagedZip(path, err)
	}
	v := &view{names: map[string]bool{}, user: names{}}
	e := edits{put: map[string][]byte{}, drop: map[string]bool{}}
	for name := range ps.files {
		v.user[strings.ToLower(name)] = name
		if canonical(name) != name || slices.Contains(viewParts, name) {
			v.names[name] = true
		}
	}
	where := sheetParts(ps.get)
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
		case f.UncompressedSize64 > maxPartInMemory:
			return nil, tooLarge(path, name, f.UncompressedSize64)
		default:
			if err := readable(path, f); err != nil {
				return nil, err
			}
			if c := canonical(name); c != name {
				e.put[c], e.drop[name] = ps.get(name), true
			}
		}
	}
	if v.data, err = rewrite(data, e); err != nil {
		return nil, damagedZip(path, err)
	}
	return v, nil
}

// stringStart is the start of a shared string, <si> or <x:si ...>.
var stringStart = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?si[\s/>]`)

// countStrings counts the strings of a shared-strings part, a block at a
// time, reading it to its end.
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
		matches := stringStart.FindAllIndex(block, -1)
		n += len(matches)
		keep := min(len(block), 64)
		if len(matches) > 0 {
			keep = min(keep, len(block)-matches[len(matches)-1][1])
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

// readable fails for a part that cannot be read to its end: excelize
// takes what it could read, and would work on half a part.
func readable(path string, f *zip.File) error {
	rc, err := f.Open()
	if err == nil {
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
	}
	if err != nil {
		return fmt.Errorf("%s: its part %s cannot be read (%v); the workbook is damaged: open it in Excel or LibreOffice and save it again", path, f.Name, err)
	}
	return nil
}

func tooLarge(path, part string, size uint64) error {
	return fmt.Errorf("%s: %s unpacks to %d MB, more than the %d MB planner reads of one part, so planner cannot add its sheets to this workbook: keep them in a workbook of their own (planner init plan.xlsx)",
		path, part, (size+1<<20-1)>>20, maxPartInMemory>>20)
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
		rels := relsOf(p)
		if ps.files[rels] == nil {
			return
		}
		out[rels] = true
		root, err := parseXML(ps.get(rels))
		if err != nil {
			return
		}
		for _, r := range root.kids {
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

// names is a case-insensitive set of a package's entry names (zip part
// names compare without case) and of the parts its content types declare.
type names map[string]string

func packageNames(datas ...[]byte) (names, error) {
	n := names{}
	for _, data := range datas {
		ps, err := openParts(data)
		if err != nil {
			return nil, err
		}
		for name := range ps.files {
			n[strings.ToLower(name)] = name
		}
		var t types
		if xml.Unmarshal(ps.get(contentTypes), &t) == nil {
			for _, o := range t.Overrides {
				p := strings.TrimPrefix(o.PartName, "/")
				n[strings.ToLower(p)] = p
			}
		}
	}
	return n, nil
}

func (n names) taken(p string) bool { _, ok := n[strings.ToLower(p)]; return ok }

// freeSheetPart is the first worksheet part name nothing takes, with its
// relationships' name free too.
func freeSheetPart(taken func(string) bool) string {
	return free("xl/worksheets/sheet%d.xml", func(p string) bool { return taken(p) || taken(relsOf(p)) })
}

// moveSheet renames the worksheet part from to the name to in data, with its
// relationships part, and points the workbook's relationships with the given
// ids at it. The content type of from is renamed when rename is true, else
// one for to is added (from then stays the user's part, declared as it was).
func moveSheet(data []byte, from, to string, ids map[string]bool, rename bool) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	e := edits{put: map[string][]byte{to: ps.get(from)}, drop: map[string]bool{from: true}}
	if rels := ps.get(relsOf(from)); rels != nil {
		e.put[relsOf(to)], e.drop[relsOf(from)] = rels, true
	}
	root, err := parseXML(ps.get(workbookRels))
	if err != nil {
		return nil, err
	}
	rels := ps.get(workbookRels)
	for _, r := range root.kids {
		if ids[r.attr("Id")] && resolve("xl", r.attr("Target")) == from {
			rels = retarget(rels, r.attr("Id"), strings.TrimPrefix(to, "xl/"))
		}
	}
	e.put[workbookRels] = rels
	e.types = func(t *types) {
		for i, o := range t.Overrides {
			if rename && strings.EqualFold(o.PartName, "/"+from) {
				t.Overrides[i].PartName = "/" + to
				return
			}
		}
		if !rename {
			t.Overrides = append(t.Overrides, typeOverride{PartName: "/" + to, ContentType: worksheetType})
		}
	}
	return rewrite(data, e)
}

const worksheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"

// retarget sets the Target of the relationship with the given id.
func retarget(rels []byte, id, target string) []byte {
	re := regexp.MustCompile(`(<(?:[A-Za-z_][\w.-]*:)?Relationship\b[^>]*?)\bTarget="[^"]*"([^>]*>)`)
	return re.ReplaceAllFunc(rels, func(m []byte) []byte {
		if !bytes.Contains(m, []byte(`Id="`+id+`"`)) {
			return m
		}
		sub := re.FindSubmatch(m)
		return []byte(string(sub[1]) + `Target="` + target + `"` + string(sub[2]))
	})
}

// relationshipIDs are the ids of a relationships part.
func relationshipIDs(rels []byte) map[string]bool {
	out := map[string]bool{}
	if root, err := parseXML(rels); err == nil {
		for _, r := range root.kids {
			out[r.attr("Id")] = true
		}
	}
	return out
}

// moveAside moves planner's own sheets out of the way of the parts
// excelize will give its new sheets, in the view, before excelize opens it.
func moveAside(v *view, original []byte, adding int) error {
	ps, err := openParts(v.data)
	if err != nil {
		return err
	}
	for _, p := range newSheetParts(ps.get(workbookPart), adding) {
		if ps.files[p] == nil {
			continue
		}
		taken, err := packageNames(original, v.data)
		if err != nil {
			return err
		}
		for _, q := range newSheetParts(ps.get(workbookPart), adding) {
			taken[strings.ToLower(q)] = q
		}
		if v.data, err = moveSheet(v.data, p, freeSheetPart(taken.taken), relationshipIDs(ps.get(workbookRels)), true); err != nil {
			return err
		}
		if ps, err = openParts(v.data); err != nil {
			return err
		}
	}
	return nil
}

// relocate moves each sheet excelize added onto the name of one of the
// user's parts outside the view to a free name, in out, what excelize
// wrote from the view.
func relocate(path string, v *view, original, out []byte) ([]byte, error) {
	op, err := openParts(out)
	if err != nil {
		return nil, err
	}
	bp, err := openParts(original)
	if err != nil {
		return nil, err
	}
	user := map[string]string{}
	for name := range bp.files {
		user[strings.ToLower(name)] = name
	}
	clashes := func(p string) bool {
		have, ok := user[strings.ToLower(p)]
		return ok && !v.names[have]
	}
	oldIDs := relationshipIDs(bp.get(workbookRels))
	newIDs := map[string]bool{}
	for id := range relationshipIDs(op.get(workbookRels)) {
		if !oldIDs[id] {
			newIDs[id] = true
		}
	}
	var added []string
	for name := range op.files {
		sheet := strings.HasPrefix(name, "xl/worksheets/sheet") && strings.HasSuffix(name, ".xml")
		switch {
		case sheet && (clashes(name) || clashes(relsOf(name)) && op.files[relsOf(name)] == nil):
			added = append(added, name)
		case clashes(name) && !strings.HasPrefix(name, "xl/worksheets/_rels/"):
			return nil, &damaged{path, user[strings.ToLower(name)], "planner's sheets would be written over it"}
		}
	}
	sort.Strings(added)
	for _, p := range added {
		taken, err := packageNames(original, out)
		if err != nil {
			return nil, err
		}
		if out, err = moveSheet(out, p, freeSheetPart(taken.taken), newIDs, false); err != nil {
			return nil, err
		}
	}
	return out, nil
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
		case !v.names[f.Name] || canonical(f.Name) == themePart:
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
	zw := zip.NewWriter(&buf)
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
	_, err = io.Copy(w, raw)
	return err
}

// readView is the part of a package planner reads: the workbook, its
// relationships and content types, the document properties and shared
// strings, and the named sheets (the input sheets, planner's own). excelize
// holds whatever it opens in memory; the user's other sheets, pictures and
// caches need not be there. It also returns each named sheet's size
// unpacked, as the package declares it.
func readView(path string, data []byte, sheets []string) ([]byte, map[string]uint64, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, nil, damagedZip(path, err)
	}
	keep := map[string]bool{}
	for name := range ps.files {
		switch c := canonical(name); {
		case c == stylesPart || c == themePart:
		case slices.Contains(viewParts, c), strings.EqualFold(name, "xl/sharedStrings.xml"), name == "docProps/core.xml":
			keep[name] = true
		}
	}
	sizes := map[string]uint64{}
	for have, p := range sheetParts(ps.get) {
		for _, s := range sheets {
			if f := ps.files[p]; f != nil && strings.EqualFold(have, s) {
				keep[p], sizes[have] = true, f.UncompressedSize64
			}
		}
	}
	drop := map[string]bool{}
	for name, f := range ps.files {
		switch {
		case !keep[name]:
			drop[name] = true
		case strings.EqualFold(name, "xl/sharedStrings.xml") && f.UncompressedSize64 > 5*maxSharedStrings:
			// Small enough a part holds fewer strings, even as <si/>.
			n, err := countStrings(f)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: its part %s cannot be read (%v); the workbook is damaged: open it in Excel or LibreOffice and save it again", path, name, err)
			}
			if n > maxSharedStrings {
				return nil, nil, fmt.Errorf("%s: %s holds %d strings, more than the %d planner reads, so planner cannot read this workbook: keep its sheets in a workbook of their own (planner init plan.xlsx)",
					path, name, n, maxSharedStrings)
			}
		default:
			if err := readable(path, f); err != nil {
				return nil, nil, err
			}
		}
	}
	out, err := rewrite(data, edits{drop: drop})
	if err != nil {
		return nil, nil, damagedZip(path, err)
	}
	return out, sizes, nil
}
