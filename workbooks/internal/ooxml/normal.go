package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"slices"
	"sort"
	"strings"
)

// planner's surgery (the views excelize is given, relocating, verifying)
// works on a package in one form: its workbook part at xl/workbook.xml, its
// XML in UTF-8, in Transitional Open XML. Excel and LibreOffice open
// packages in other forms too: a workbook kept in another folder (the
// package's relationships say where), XML stored as UTF-16 (see
// encoding.go), Strict Open XML (see strict.go). normalise gives such a
// package in planner's form, and restore gives what planner built from it
// back in the user's: every part under the name the user gave it, and the
// user's bytes for every part planner did not change. A Strict package is
// the exception: it stays Transitional throughout, since a package of both
// is one Excel refuses.

// normal is a package in planner's form, and what restore needs to give
// the user's form back.
type normal struct {
	data []byte // the package in planner's form
	same bool   // the user's package is in it already: data is the user's
	user *lazyParts
	// names are the user's names of the parts whose names differ here.
	names map[string]string
	// folder is where the user keeps the workbook's parts ("" for the
	// package's root), and moved whether that is not xl/.
	folder string
	moved  bool
	// target and relID are the user's relationship to the workbook part in
	// _rels/.rels, when moved.
	target, relID string
	decoded       map[string]bool // parts (by their names here) the user stores as UTF-16
	strict        bool            // the user's package is Strict Open XML
	converted     map[string]bool // parts (by their names here) whose namespaces changed
}

// What a Strict package or a part of it stored as UTF-16 means for
// planner, when it cannot work on it.
const cannotUse = "so planner cannot work on this workbook: open it in Excel or LibreOffice, save it as .xlsx (Excel Workbook), then run planner again"

// maxRecoded bounds the XML normalise decodes or converts, all parts
// together: it holds their new forms in memory.
const maxRecoded = 256 << 20

// normalise is data in planner's form.
func normalise(file string, data []byte) (*normal, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, damagedZip(file, err)
	}
	n := &normal{data: data, user: ps, names: map[string]string{}, decoded: map[string]bool{}, converted: map[string]bool{}}
	put, err := n.recode(file, ps)
	if err != nil {
		return nil, err
	}
	get := func(name string) []byte {
		if b, ok := put[name]; ok {
			return b
		}
		return readPart(ps.files[name])
	}
	main, relID, target := mainPart(ps.files, get)
	if main == "" {
		main = entryFold(ps.files, WorkbookPart) // a package without the relationship: the part at its usual name
	}
	start := put[main]
	if start == nil && main != "" {
		start = head(ps.files[main], 64<<10)
	}
	if rootNamespace(start) == strictMain {
		n.strict = true
		if err := n.toTransitional(file, ps, put, get); err != nil {
			return nil, err
		}
	}
	// A workbook part spelled in another case is the view's to handle (see
	// Canonical).
	n.moved = main != "" && !strings.EqualFold(main, WorkbookPart)
	if len(put) == 0 && !n.moved {
		n.same = true
		return n, nil
	}
	if n.data, err = rewrite(data, edits{put: put}); err != nil {
		return nil, damagedZip(file, err)
	}
	if n.moved {
		n.target, n.relID = target, relID
		if err := n.move(file, main); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// recode decodes the XML parts stored as UTF-16, returning their UTF-8
// forms.
func (n *normal) recode(file string, ps *lazyParts) (map[string][]byte, error) {
	put := map[string][]byte{}
	var declared types
	_ = xml.Unmarshal(smallPart(ps.files[entryFold(ps.files, ContentTypes)]), &declared)
	var recoded uint64
	for _, name := range sortedNames(ps.files) {
		f := ps.files[name]
		if strings.HasSuffix(name, "/") || !utf16XML(head(f, 4)) || !declaredXML(declared, name) {
			continue
		}
		if f.UncompressedSize64 > MaxPartInMemory {
			return nil, tooLarge(file, name+" (stored as UTF-16)", f.UncompressedSize64, MaxPartInMemory, cannotUse)
		}
		if recoded += f.UncompressedSize64; recoded > maxRecoded {
			return nil, fmt.Errorf("%s: stores more than %d MB of XML as UTF-16, more than planner decodes, %s", file, maxRecoded>>20, cannotUse)
		}
		part := readPart(f)
		if part == nil {
			return nil, fmt.Errorf("%s: its part %s cannot be read; the workbook is damaged: open it in Excel or LibreOffice and save it again", file, name)
		}
		text, err := fromUTF16(part)
		if err != nil {
			return nil, fmt.Errorf("%s: its part %s is stored as UTF-16, but %v, %s", file, name, err, cannotUse)
		}
		put[name], n.decoded[name] = text, true
	}
	return put, nil
}

// toTransitional converts every part of a Strict package that names a
// Strict namespace, adding it to put, and checks that each says what it
// said (sameInTransitional).
func (n *normal) toTransitional(file string, ps *lazyParts, put map[string][]byte, get func(string) []byte) error {
	var declared types
	_ = xml.Unmarshal(get(entryFold(ps.files, ContentTypes)), &declared)
	var xmlParts []string
	var size uint64
	for _, name := range sortedNames(ps.files) {
		if f := ps.files[name]; !strings.HasSuffix(name, "/") && declaredXML(declared, name) {
			xmlParts, size = append(xmlParts, name), size+f.UncompressedSize64
		}
	}
	if size > maxRecoded {
		return fmt.Errorf("%s: is saved as Strict Open XML, which planner writes back as Transitional, and its XML unpacks to more than the %d MB planner converts, %s", file, maxRecoded>>20, cannotUse)
	}
	for _, name := range xmlParts {
		f := ps.files[name]
		if f.UncompressedSize64 > MaxPartInMemory {
			return tooLarge(file, name+" (saved as Strict Open XML)", f.UncompressedSize64, MaxPartInMemory, cannotUse)
		}
		part := get(name)
		if !bytes.Contains(part, []byte(strictMark)) {
			continue
		}
		converted, err := toTransitional(part)
		if err == nil {
			err = sameInTransitional(part, converted)
		}
		if err != nil {
			return fmt.Errorf("%s: is saved as Strict Open XML, which planner writes back as Transitional, and its part %s cannot be: %v; in Excel use File > Save As > Excel Workbook (.xlsx), then run planner again",
				file, name, err)
		}
		put[name], n.converted[name] = converted, true
	}
	return nil
}

// declaredXML reports whether a package does not declare a part to be
// other than XML: its content type ends in xml (application/xml, …+xml), is
// VML's, or is not declared.
func declaredXML(t types, name string) bool {
	declared := ""
	for _, d := range t.Defaults {
		if strings.EqualFold(d.Extension, strings.TrimPrefix(path.Ext(name), ".")) {
			declared = d.ContentType
		}
	}
	for _, o := range t.Overrides {
		if strings.EqualFold(strings.TrimPrefix(o.PartName, "/"), name) {
			declared = o.ContentType
		}
	}
	return declared == "" || strings.HasSuffix(declared, "xml") || strings.HasSuffix(declared, ".vmlDrawing")
}

// officeDocument is the type of the package's relationship to its main
// part, in Transitional and in Strict.
var officeDocument = []string{transitionalRelationship + "officeDocument", strictRelationship + "officeDocument"}

// mainPart is the package's workbook part, as its relationships name it,
// with the relationship's id and target; "" when they name none there is.
func mainPart(files map[string]*zip.File, get func(string) []byte) (main, id, target string) {
	if f := files[packageRels]; f == nil || f.UncompressedSize64 > MaxWorkbookPart {
		return "", "", ""
	}
	root, err := parseXML(get(packageRels))
	if err != nil {
		return "", "", ""
	}
	for _, r := range root.Kids {
		if r.Local == "Relationship" && slices.Contains(officeDocument, r.attr("Type")) && r.attr("TargetMode") != "External" {
			if p := entryFold(files, resolve("", r.attr("Target"))); p != "" {
				return p, r.attr("Id"), r.attr("Target")
			}
		}
	}
	return "", "", ""
}

// packageRels are the package's own relationships.
const packageRels = "_rels/.rels"

// readPart is a part's content, not kept (see lazyParts.get); nil when it
// is missing, cannot be read, or inflates past the package limit.
func readPart(f *zip.File) []byte {
	if f == nil {
		return nil
	}
	rc, err := f.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxUnzippedBytes+1))
	if err != nil || len(b) > maxUnzippedBytes {
		return nil
	}
	return b
}

// rootNamespace is the namespace of a part's root element, or "": the
// part's start is enough.
func rootNamespace(part []byte) string {
	d := xml.NewDecoder(bytes.NewReader(part))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if s, ok := tok.(xml.StartElement); ok {
			return s.Name.Space
		}
	}
}

// move gives the workbook's parts the names planner works on them under:
// the workbook part xl/workbook.xml, its relationships
// xl/_rels/workbook.xml.rels, every other part of its folder the same name
// under xl/. The parts the package's other relationships reach (its
// document properties) stay. A name two parts would take, or a
// relationship that would then point elsewhere, is refused.
func (n *normal) move(file, main string) error {
	ps, err := openParts(n.data)
	if err != nil {
		return damagedZip(file, err)
	}
	if n.folder = path.Dir(main) + "/"; n.folder == "./" {
		n.folder = ""
	}
	stays := packageLevel(ps, n.relID)
	ours := reachable(ps, main)
	toNormal := func(p string) string {
		switch {
		case strings.EqualFold(p, main):
			return WorkbookPart
		case strings.EqualFold(p, RelsOf(main)):
			return WorkbookRels
		case strings.EqualFold(p, ContentTypes) || strings.EqualFold(p, packageRels) || stays[p] && !ours[p]:
			return p
		case len(p) >= len(n.folder) && strings.EqualFold(p[:len(n.folder)], n.folder):
			return "xl/" + p[len(n.folder):]
		}
		return p
	}
	e := edits{rename: map[string]string{}, put: map[string][]byte{}}
	taken := map[string]string{}
	for _, name := range sortedNames(ps.files) {
		to := toNormal(name)
		if other, dup := taken[strings.ToLower(to)]; dup {
			return fmt.Errorf("%s: keeps its workbook in %s, and planner works on a workbook's parts under xl/, where %s and %s would both be %s, %s",
				file, main, other, name, to, cannotUse)
		}
		taken[strings.ToLower(to)] = name
		if to != name {
			e.rename[name], n.names[to] = to, name
		}
	}
	if err := keptRelationships(file, main, ps, n.relID, toNormal); err != nil {
		return err
	}
	e.put[packageRels] = retarget(ps.get(packageRels), n.relID, WorkbookPart)
	e.types = func(t *types) {
		for i, o := range t.Overrides {
			t.Overrides[i].PartName = "/" + toNormal(strings.TrimPrefix(o.PartName, "/"))
		}
	}
	if n.data, err = rewrite(n.data, e); err != nil {
		return damagedZip(file, err)
	}
	moved, err := openParts(n.data)
	if err != nil {
		return damagedZip(file, err)
	}
	if p, _, _ := mainPart(moved.files, moved.get); p != WorkbookPart {
		return fmt.Errorf("%s: keeps its workbook in %s, and planner could not point its package's relationship at the workbook where planner works on it, %s", file, main, cannotUse)
	}
	n.decoded, n.converted = renamed(n.decoded, toNormal), renamed(n.converted, toNormal)
	return nil
}

// renamed is a set of part names under their new names.
func renamed(set map[string]bool, to func(string) string) map[string]bool {
	out := map[string]bool{}
	for p := range set {
		out[to(p)] = true
	}
	return out
}

// packageLevel are the parts the package's relationships other than the
// one to its workbook reach: its document properties and thumbnail.
func packageLevel(ps *lazyParts, workbookRel string) map[string]bool {
	out := map[string]bool{}
	root, err := parseXML(ps.get(packageRels))
	if err != nil {
		return out
	}
	for _, r := range root.Kids {
		if r.attr("Id") != workbookRel && r.attr("TargetMode") != "External" {
			for p := range reachable(ps, resolve("", r.attr("Target"))) {
				out[p] = true
			}
		}
	}
	return out
}

// keptRelationships fails when a relationship of the package would point
// at another part once the parts are renamed by to, or its part would no
// longer be its source's. The package's relationship to its workbook is
// pointed anew by move.
func keptRelationships(file, main string, ps *lazyParts, workbookRel string, to func(string) string) error {
	for _, rels := range sortedNames(ps.files) {
		source, ok := sourceOf(rels)
		if !ok {
			continue
		}
		root, err := parseXML(ps.get(rels))
		if err != nil {
			continue // not read by planner, and copied as it is
		}
		if source != "" && to(rels) != RelsOf(to(source)) {
			return fmt.Errorf("%s: keeps its workbook in %s, and its relationships part %s would no longer belong to %s while planner adds its sheets, %s", file, main, rels, source, cannotUse)
		}
		for _, r := range root.Kids {
			if r.attr("TargetMode") == "External" || rels == packageRels && r.attr("Id") == workbookRel {
				continue
			}
			was := resolve(path.Dir(source), r.attr("Target"))
			if now := resolve(path.Dir(to(source)), r.attr("Target")); now != to(was) {
				return fmt.Errorf("%s: keeps its workbook in %s, and the relationship %s in %s points at %s in a way planner cannot keep while it adds its sheets (by an absolute path, or from outside the workbook's folder), %s",
					file, main, r.attr("Id"), rels, was, cannotUse)
			}
		}
	}
	return nil
}

// sourceOf is the part a relationships part belongs to ("" for the
// package's own), and false for a part that is not one.
func sourceOf(rels string) (string, bool) {
	if rels == packageRels {
		return "", true
	}
	dir, base := path.Split(rels)
	if !strings.HasSuffix(dir, "_rels/") || !strings.HasSuffix(base, ".rels") || base == ".rels" {
		return "", false
	}
	return path.Join(strings.TrimSuffix(dir, "_rels/"), strings.TrimSuffix(base, ".rels")), true
}

// restore is out, which planner built from n.data, in the user's form,
// and what it changed of the user's package that was not planner's to
// change, in words for the user.
func (n *normal) restore(file string, out []byte) ([]byte, []string, error) {
	if n.same {
		return out, nil, nil
	}
	op, err := openParts(out)
	if err != nil {
		return nil, nil, err
	}
	np, err := openParts(n.data)
	if err != nil {
		return nil, nil, err
	}
	userName := func(p string) string {
		if u, ok := n.names[p]; ok {
			return u
		}
		if n.moved && np.files[p] == nil && strings.HasPrefix(p, "xl/") {
			return n.folder + strings.TrimPrefix(p, "xl/")
		}
		return p
	}
	type source struct {
		f       *zip.File
		content []byte
	}
	entries, from := map[string]source{}, map[string]string{}
	var utf8 []string
	kept := 0
	for _, p := range sortedNames(op.files) {
		u := userName(p)
		if other, dup := from[strings.ToLower(u)]; dup {
			return nil, nil, &damaged{file, u, "planner's parts " + other + " and " + p + " would both take its name"}
		}
		from[strings.ToLower(u)] = p
		f := op.files[p]
		switch {
		case n.decoded[p] && !n.converted[p] && unchanged(f, np.files[p]):
			entries[u] = source{f: n.user.files[u]}
		case p == packageRels && n.moved:
			entries[u] = source{content: retarget(op.get(p), n.relID, n.target)}
		default:
			entries[u] = source{f: f}
		}
		switch {
		case !n.decoded[p]:
		case entries[u].f == n.user.files[u]:
			kept++
		default:
			utf8 = append(utf8, u)
		}
	}
	names := make([]string, 0, len(entries))
	for u := range entries {
		names = append(names, u)
	}
	sort.Slice(names, func(i, j int) bool { return entryLess(names[i], names[j]) })
	var buf bytes.Buffer
	zw := newZipWriter(&buf)
	for _, u := range names {
		s := entries[u]
		var err error
		switch {
		case u == ContentTypes && n.moved && s.f != n.user.files[u]:
			err = writeContentTypes(zw, s.f, s.content, func(t *types) {
				for i, o := range t.Overrides {
					t.Overrides[i].PartName = "/" + userName(strings.TrimPrefix(o.PartName, "/"))
				}
			})
		case s.f == nil:
			err = writeEntry(zw, u, s.content)
		case s.f.Name != u:
			err = copyRenamed(zw, s.f, u)
		default:
			err = copyEntry(zw, s.f)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, nil, err
	}
	final := buf.Bytes()
	if again, err := normalise(file, final); err != nil || !Same(again.data, out) {
		return nil, nil, &damaged{file, "the package", "planner could not give it back in the form you keep it in"}
	}
	return final, n.notes(utf8, kept), nil
}

// unchanged reports whether two entries hold the same bytes.
func unchanged(a, b *zip.File) bool {
	if a == nil || b == nil {
		return false
	}
	same, err := sameEntry(a, b)
	return err == nil && same
}

// notes say what restore changed of the user's package besides planner's
// sheets: a Strict package is Transitional now; the parts stored as UTF-16
// that planner rewrote are UTF-8 (kept is how many others it did not).
func (n *normal) notes(utf8 []string, kept int) []string {
	var out []string
	if n.strict {
		var parts []string
		for p := range n.converted {
			parts = append(parts, userNameOf(n, p))
		}
		sort.Strings(parts)
		out = append(out, fmt.Sprintf("was saved as Strict Open XML; planner saved it as Transitional Open XML, the usual form of an .xlsx, which Excel and LibreOffice open as before: "+
			"%s now name their namespaces and relationship types the Transitional way, and the workbook no longer says conformance=\"strict\"; nothing else of yours changed", partList(parts)))
	}
	if len(utf8) > 0 {
		it, its := "them", "their XML declarations"
		if len(utf8) == 1 {
			it, its = "it", "its XML declaration"
		}
		note := fmt.Sprintf("stored %s as UTF-16; planner rewrote %s in UTF-8, the encoding Excel writes, %s saying so", partList(utf8), it, its)
		switch {
		case kept == 1:
			note += "; the other part stored as UTF-16 is byte for byte as it was"
		case kept > 1:
			note += fmt.Sprintf("; the %d other parts stored as UTF-16 are byte for byte as they were", kept)
		}
		out = append(out, note)
	}
	return out
}

func userNameOf(n *normal, p string) string {
	if u, ok := n.names[p]; ok {
		return u
	}
	return p
}

// partList names parts as a sentence does, the first few of many.
func partList(parts []string) string {
	const shown = 6
	if len(parts) > shown {
		return fmt.Sprintf("%d parts (%s, …)", len(parts), strings.Join(parts[:shown], ", "))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Normalised is data in planner's form, with the name each part has there
// by the user's name (where the two differ), and whether the user's
// package is Strict Open XML.
func Normalised(file string, data []byte) (normal []byte, names map[string]string, strict bool, err error) {
	n, err := normalise(file, data)
	if err != nil {
		return nil, nil, false, err
	}
	names = map[string]string{}
	for to, from := range n.names {
		names[from] = to
	}
	return n.data, names, n.strict, nil
}
