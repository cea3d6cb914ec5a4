package ooxml

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// rewritten are the parts excelize re-serialises on every save, and the
// calculation chain planner prunes. They are compared by meaning; every
// other part of the user's must come back byte for byte. (The theme, the
// document properties and the shared strings never pass through excelize:
// they are copied.)
var rewritten = map[string]bool{
	"[Content_Types].xml":        true,
	"_rels/.rels":                true,
	"xl/workbook.xml":            true,
	"xl/_rels/workbook.xml.rels": true,
	"xl/styles.xml":              true,
	"xl/calcChain.xml":           true,
}

// Rewritten reports whether excelize rewrites the part on every save (or
// planner prunes it), so that Verify compares it by meaning: every other
// part of the user's comes back byte for byte.
func Rewritten(name string) bool { return rewritten[Canonical(name)] }

// damaged is what Verify reports: planner found that saving would have
// changed something of the user's, and wrote nothing.
type damaged struct {
	path string
	part string
	what string
}

func (d *damaged) Error() string {
	return fmt.Sprintf("%s: saving would change %s (%s), which belongs to you, not to planner; nothing was written. "+
		"planner cannot add its sheets to this workbook without that change, in place or in a copy: please report it, with the file if you can share it", d.path, d.part, d.what)
}

// Verify compares the workbook planner is about to write with the original:
// every part outside planner's own sheets must be unchanged, byte for byte
// or, for the parts excelize always rewrites, in meaning.
// managed are the defined names planner writes, which it may change.
func Verify(file string, old, new []byte, owned, managed map[string]bool) error {
	before, err := openParts(old)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	after, err := openParts(new)
	if err != nil {
		return fmt.Errorf("%s: the workbook planner built cannot be read back (%v); nothing was written", file, err)
	}
	// A part is planner's if it belonged to planner's sheets before, or is
	// new. A part of the user's that a new sheet of planner's would land on
	// stays the user's, and any change to it is caught below.
	mine := ownedParts(before, owned)
	for p := range ownedParts(after, owned) {
		if before.files[p] == nil {
			mine[p] = true
		}
	}
	for _, p := range sortedNames(before.files) {
		a, b := before.files[p], after.files[p]
		switch {
		case mine[p]:
		case p == CalcChainPart && b == nil:
			// A cache of formula cells Excel rebuilds; see pruneCalcChain.
		case b == nil:
			return &damaged{file, p, "it would be missing"}
		default:
			same, err := sameEntry(a, b)
			switch {
			case err != nil:
				return fmt.Errorf("%s: %s cannot be read (%v); it may be damaged: open the workbook in Excel or LibreOffice and save it again", file, p, err)
			case same:
			case !rewritten[Canonical(p)]:
				return &damaged{file, p, "its bytes would differ"}
			default:
				if what := sameMeaning(Canonical(p), before.get(p), after.get(p), managed, mine, owned); what != "" {
					return &damaged{file, p, what}
				}
			}
		}
	}
	// In name order, so that of several parts planner would add, the
	// message names the same one on every run.
	for _, p := range sortedNames(after.files) {
		switch {
		case before.files[p] != nil:
		case Canonical(p) == StylesPart:
			if what := PlannersStyles(after.get(p)); what != "" {
				return &damaged{file, p, what}
			}
		case !mine[p] && !rewritten[Canonical(p)]:
			return &damaged{file, p, "planner would add a part it does not own"}
		}
	}
	return nil
}

// sortedNames are the part names of files, sorted.
func sortedNames(files map[string]*zip.File) []string {
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	sort.Strings(names)
	return names
}

// sameEntry reports whether two zip entries hold the same bytes, reading
// them a block at a time: compressed, when both were compressed alike,
// else inflated.
func sameEntry(a, b *zip.File) (bool, error) {
	if a.UncompressedSize64 != b.UncompressedSize64 || a.CRC32 != b.CRC32 {
		return false, nil
	}
	if a.Method == b.Method && a.CompressedSize64 == b.CompressedSize64 {
		ra, err1 := a.OpenRaw()
		rb, err2 := b.OpenRaw()
		if err1 == nil && err2 == nil {
			if same, err := sameStream(ra, rb); err == nil && same {
				return true, nil
			}
		}
	}
	ra, err := a.Open()
	if err != nil {
		return false, err
	}
	defer ra.Close()
	rb, err := b.Open()
	if err != nil {
		return false, err
	}
	defer rb.Close()
	return sameStream(ra, rb)
}

// streamBuffers are the room sameStream reads two parts into, a block
// at a time: a package is verified part by part.
var streamBuffers = sync.Pool{New: func() any { return &[2][]byte{make([]byte, 64<<10), make([]byte, 64<<10)} }}

func sameStream(a, b io.Reader) (bool, error) {
	bufs := streamBuffers.Get().(*[2][]byte)
	defer streamBuffers.Put(bufs)
	bufA, bufB := bufs[0], bufs[1]
	for {
		n, errA := io.ReadFull(a, bufA)
		m, errB := io.ReadFull(b, bufB)
		if !bytes.Equal(bufA[:n], bufB[:m]) {
			return false, nil
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		switch {
		case errA != nil && !endA:
			return false, errA
		case errB != nil && !endB:
			return false, errB
		case endA || endB:
			return endA && endB, nil
		}
	}
}

// PlannersStyles checks a style part planner gave a workbook that had none
// (or an empty one): it must begin with the default styles, so that cells
// without a style of their own look as they did.
func PlannersStyles(part []byte) string {
	b, err := parseXML(part)
	if err != nil {
		return "it would not be valid XML: " + err.Error()
	}
	a, _ := parseXML(MinimalStyles())
	a, b = a.normal(), b.normal()
	for _, list := range a.Kids {
		if what := keptPrefix(list, b.Child(list.Local)); what != "" {
			return "planner's own style part would not begin with the default styles: " + list.Local + ": " + what
		}
	}
	return ""
}

// ownedParts finds the parts of planner's sheets: the worksheet part, its
// relationships, and whatever those point at (drawings, charts).
func ownedParts(ps *lazyParts, owned map[string]bool) map[string]bool {
	out := map[string]bool{}
	targets := SheetParts(ps.get)
	for sheet := range owned {
		if p, ok := targets[sheet]; ok {
			for q := range reachable(ps, p) {
				out[q] = true
			}
		}
	}
	return out
}

// SheetParts maps each sheet name to its part, from workbook.xml and its
// relationships.
func SheetParts(part func(name string) []byte) map[string]string {
	wbXML, relsXML := part("xl/workbook.xml"), part("xl/_rels/workbook.xml.rels")
	if got, ok := sheetPartsSeen.get(wbXML, relsXML); ok {
		return got
	}
	out := sheetParts(wbXML, relsXML)
	sheetPartsSeen.put(wbXML, relsXML, out)
	return maps.Clone(out)
}

// SheetPartsOf is SheetParts of the package data as it is, not in
// planner's form; none when it is no zip.
func SheetPartsOf(data []byte) map[string]string {
	ps, err := openParts(data)
	if err != nil {
		return nil
	}
	return SheetParts(ps.get)
}

// sheetPartsSeen remembers the last few answers of SheetParts: one eval
// asks it a dozen times of the same two parts, and reading a workbook part
// with thousands of defined names as XML each time cost more than the
// rest of the question.
var sheetPartsSeen sheetPartsMemo

// sheetPartsMemo is SheetParts' answers for the last parts it was asked
// of, by their digest: the parts themselves may be megabytes.
type sheetPartsMemo struct {
	mu   sync.Mutex
	seen []sheetPartsAnswer // the latest last
}

type sheetPartsAnswer struct {
	of    [sha256.Size]byte
	parts map[string]string
}

// sheetPartsKept is how many answers the memo keeps.
const sheetPartsKept = 4

// digestOf is the digest of a workbook part and its relationships.
func digestOf(wb, rels []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(wb))))
	h.Write(wb)
	h.Write(rels)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

func (m *sheetPartsMemo) get(wb, rels []byte) (map[string]string, bool) {
	of := digestOf(wb, rels)
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.seen {
		if a.of == of {
			return maps.Clone(a.parts), true
		}
	}
	return nil, false
}

func (m *sheetPartsMemo) put(wb, rels []byte, parts map[string]string) {
	of := digestOf(wb, rels)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.seen) == sheetPartsKept {
		m.seen = m.seen[1:]
	}
	m.seen = append(m.seen, sheetPartsAnswer{of, parts})
}

// sheetParts is SheetParts of a workbook part and its relationships.
func sheetParts(wbXML, relsXML []byte) map[string]string {
	out := map[string]string{}
	wb, err1 := parseXML(wbXML)
	rels, err2 := parseXML(relsXML)
	if err1 != nil || err2 != nil {
		return out
	}
	target := map[string]string{}
	for _, r := range rels.Kids {
		target[r.attr("Id")] = resolve("xl", r.attr("Target"))
	}
	if sheets := wb.Child("sheets"); sheets != nil {
		for _, s := range sheets.Kids {
			out[s.attr("name")] = target[s.attr("id")]
		}
	}
	return out
}

func resolve(dir, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return path.Join(dir, target)
}

// sameMeaning compares a part excelize rewrites with its original and says
// what changed that matters, or "". The content types of planner's own
// parts are planner's to change.
func sameMeaning(name string, old, new []byte, managed, mine, owned map[string]bool) string {
	if new == nil {
		return "it would be missing"
	}
	a, err := parseXML(old)
	if err != nil {
		if name == StylesPart {
			return PlannersStyles(new) // planner's, in place of an empty part
		}
		return "" // the original was not readable XML; nothing to keep
	}
	b, err := parseXML(new)
	if err != nil {
		return "it would not be valid XML: " + err.Error()
	}
	switch name {
	case "[Content_Types].xml":
		var users []*Element
		for _, n := range a.Kids {
			part := strings.TrimPrefix(n.attr("PartName"), "/")
			if !mine[part] && part != CalcChainPart {
				users = append(users, n)
			}
		}
		return keptAll(users, b.Kids, func(n *Element) string { return n.Local + " " + n.attr("PartName") + n.attr("Extension") })
	case "xl/_rels/workbook.xml.rels", "_rels/.rels":
		// The relationships of planner's own sheets are planner's: a sheet
		// of planner's moved out of a new one's way points elsewhere.
		dir := path.Dir(path.Dir(name))
		var users []*Element
		for _, n := range a.Kids {
			if !strings.HasSuffix(n.attr("Type"), "/calcChain") && !mine[resolve(dir, n.attr("Target"))] {
				users = append(users, n)
			}
		}
		return keptAll(users, b.Kids, func(n *Element) string { return n.attr("Id") })
	case "xl/workbook.xml":
		return sameWorkbook(a, b, managed, owned)
	case "xl/styles.xml":
		a, b = a.normal(), b.normal()
		for _, list := range []string{"numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "extLst"} {
			if what := keptPrefix(a.Child(list), b.Child(list)); what != "" {
				return list + ": " + what
			}
		}
	}
	return ""
}

// keptAll checks that every element of old is in new, unchanged, matching
// elements by key.
func keptAll(old, new []*Element, key func(*Element) string) string {
	byKey := map[string]*Element{}
	for _, n := range numbered(new, key) {
		byKey[n.key] = n.node
	}
	for _, k := range numbered(old, key) {
		n, m := k.node, byKey[k.key]
		if m == nil {
			return key(n) + " would be missing"
		}
		if m.normal().canonical() != n.normal().canonical() {
			return key(n) + " would change"
		}
	}
	return ""
}

// keptPrefix checks that new's children begin with old's, unchanged: style
// and string tables may only grow at the end, since cells refer to them by
// position.
func keptPrefix(old, new *Element) string {
	if old == nil {
		return ""
	}
	if new == nil || len(new.Kids) < len(old.Kids) {
		return "entries would be lost"
	}
	for i, k := range old.Kids {
		if k.canonical() != new.Kids[i].canonical() {
			return fmt.Sprintf("entry %d would change", i+1)
		}
	}
	return ""
}

// sameWorkbook checks the user's sheets, defined names and protection.
// Workbook-scoped names planner manages are planner's to change.
func sameWorkbook(a, b *Element, managed, owned map[string]bool) string {
	if what := keptAll(kids(a, "sheets"), kids(b, "sheets"), func(n *Element) string { return n.attr("name") }); what != "" {
		return "sheet " + what
	}
	var users []*Element
	for _, n := range kids(a, "definedNames") {
		if local := n.attr("localSheetId"); local != "" {
			// The rows and columns a sheet of planner's prints, and those
			// it prints on every page, are planner's, as the sheet is.
			if name := n.attr("name"); !((name == PrintTitles || name == PrintArea) && owned[sheetAt(a, local)]) {
				users = append(users, n)
			}
		} else if !managed[n.attr("name")] {
			users = append(users, n)
		}
	}
	names := func(n *Element) string { return n.attr("name") + " " + n.attr("localSheetId") }
	if what := keptAll(users, kids(b, "definedNames"), names); what != "" {
		return "defined name " + what
	}
	for _, el := range []string{"workbookPr", "workbookProtection", "fileSharing", "externalReferences", "pivotCaches", "extLst"} {
		x, y := a.Child(el), b.Child(el)
		if x != nil && (y == nil || x.normal().canonical() != y.normal().canonical()) {
			return el + " would change"
		}
	}
	return ""
}

// PrintTitles is the name of the rows and columns a sheet prints on every
// page, one per sheet.
const PrintTitles = "_xlnm.Print_Titles"

// PrintArea is the name of the rows and columns a sheet prints, one per
// sheet.
const PrintArea = "_xlnm.Print_Area"

// sheetAt is the name of the sheet a localSheetId points at: its position
// among the workbook's sheets, from 0.
func sheetAt(workbook *Element, localSheetID string) string {
	i, err := strconv.Atoi(localSheetID)
	sheets := kids(workbook, "sheets")
	if err != nil || i < 0 || i >= len(sheets) {
		return ""
	}
	return sheets[i].attr("name")
}

func kids(n *Element, local string) []*Element {
	if c := n.Child(local); c != nil {
		return c.Kids
	}
	return nil
}

type keyed struct {
	key  string
	node *Element
}

// numbered keys nodes, telling apart the second and later nodes with the
// same key (some programs write a defined name twice).
func numbered(nodes []*Element, key func(*Element) string) []keyed {
	seen := map[string]int{}
	out := make([]keyed, len(nodes))
	for i, n := range nodes {
		k := key(n)
		if seen[k]++; seen[k] > 1 {
			k += fmt.Sprintf(" (#%d)", seen[k])
		}
		out[i] = keyed{k, n}
	}
	return out
}
