package workbooks

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Asking excelize of one cell's formula, type or style parses the whole
// sheet into its structures, which costs more than the rest of reading the
// sheet. Most input sheets hold no formula and no cell shown as a date, and
// one scan of a sheet's XML says so of all its cells at once; only a sheet
// the scan cannot clear is asked cell by cell.

// mayBeFormula reports whether x holds an element named f, with or without
// a prefix: a formula. Elements that merely begin with f (firstHeader) do
// not count; anything it cannot tell from a formula counts.
func mayBeFormula(x []byte) bool {
	for i := bytes.IndexByte(x, '<'); i >= 0; {
		name := x[i+1:]
		if colon := bytes.IndexAny(name, ": \t\r\n>/"); colon >= 0 && name[colon] == ':' {
			name = name[colon+1:]
		}
		if len(name) > 1 && name[0] == 'f' && strings.IndexByte(" \t\r\n>/", name[1]) >= 0 {
			return true
		}
		next := bytes.IndexByte(x[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// styleIndices are the style indices x names, each once: a cell's and a
// row's s, a column's style. An index it cannot read is -1.
func styleIndices(x []byte) []int {
	var out []int
	seen := map[string]bool{}
	for rest := x; ; {
		at := bytes.Index(rest, []byte(`="`))
		if at < 0 {
			return out
		}
		before, value := rest[:at], rest[at+2:]
		rest = value
		name := before[bytes.LastIndexFunc(before, func(r rune) bool { return r > 0x7f || !isNameByte(byte(r)) })+1:]
		if string(name) != "s" && string(name) != "style" || len(before) == len(name) || !isSpace(before[len(before)-len(name)-1]) {
			continue // another attribute: spans, cols, r
		}
		end := bytes.IndexByte(value, '"')
		if end < 0 || seen[string(value[:end])] {
			continue
		}
		seen[string(value[:end])] = true
		idx, err := strconv.Atoi(string(value[:end]))
		if err != nil {
			idx = -1
		}
		out = append(out, idx)
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b == ':' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// stringCells are the cells x types as text (t="s" or t="inlineStr"), by
// reference, as excelize's GetCellType tells them. ok is false when the
// scan cannot tell of every cell as excelize would: a cell without its
// reference or with one not written as Excel writes it (B6), a start tag it
// cannot read, merged cells (excelize answers for a merge's first cell), or
// a comment or CDATA section, which may hide what looks like markup.
func stringCells(x []byte) (cells map[string]bool, ok bool) {
	for _, unsure := range []string{"<!--", "<![CDATA[", "mergeCell"} {
		if bytes.Contains(x, []byte(unsure)) {
			return nil, false
		}
	}
	cells = map[string]bool{}
	for i := bytes.IndexByte(x, '<'); i >= 0; {
		tag := x[i+1:]
		name := tag[:max(0, bytes.IndexAny(tag, " \t\r\n>/"))]
		if _, local := splitTagName(name); local == "c" && len(name) < len(tag) && isSpace(tag[len(name)]) {
			attrs, good := startTagAttrs(tag[len(name):])
			if !good || !cellReference.MatchString(attrs["r"]) {
				return nil, false
			}
			if t := attrs["t"]; t == "s" || t == "inlineStr" {
				cells[attrs["r"]] = true
			}
		}
		next := bytes.IndexByte(x[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return cells, true
}

// cellReference is a cell's reference as Excel writes it.
var cellReference = regexp.MustCompile(`^[A-Z]{1,3}[1-9][0-9]{0,6}$`)

// splitTagName is an element's name split at its prefix's colon.
func splitTagName(name []byte) (prefix, local string) {
	if p, l, found := bytes.Cut(name, []byte(":")); found {
		return string(p), string(l)
	}
	return "", string(name)
}

// startTagAttrs reads the attributes of a start tag from after its name to
// its end; good is false for anything else than name="value" or
// name='value' pairs up to > or />.
func startTagAttrs(x []byte) (attrs map[string]string, good bool) {
	attrs = map[string]string{}
	for i := 0; ; {
		for i < len(x) && isSpace(x[i]) {
			i++
		}
		switch {
		case i >= len(x):
			return nil, false
		case x[i] == '>' || x[i] == '/' && i+1 < len(x) && x[i+1] == '>':
			return attrs, true
		}
		from := i
		for i < len(x) && isNameByte(x[i]) {
			i++
		}
		name := string(x[from:i])
		for i < len(x) && isSpace(x[i]) {
			i++
		}
		if name == "" || i >= len(x) || x[i] != '=' {
			return nil, false
		}
		for i++; i < len(x) && isSpace(x[i]); i++ {
		}
		if i >= len(x) || x[i] != '"' && x[i] != '\'' {
			return nil, false
		}
		end := bytes.IndexByte(x[i+1:], x[i])
		if end < 0 {
			return nil, false
		}
		attrs[name] = string(x[i+1 : i+1+end])
		i += end + 2
	}
}

// sheetFacts are what the scan of one sheet's XML found.
type sheetFacts struct {
	scanned  bool  // the XML was there to scan; else nothing is cleared
	formulas bool  // some element may be a formula
	merges   bool  // some range of cells may be merged
	styles   []int // the style indices named, each once
	// texts are the cells typed as text, when the scan could tell of
	// every cell; else nil.
	texts map[string]bool
}

// factsOf scans the sheet's XML once per read.
func (r *reader) factsOf(sheet string) sheetFacts {
	key := strings.ToLower(sheet)
	if got, ok := r.facts[key]; ok {
		return got
	}
	var got sheetFacts
	if x := r.sheetXML(sheet); x != nil {
		got = sheetFacts{scanned: true, formulas: mayBeFormula(x), merges: bytes.Contains(x, []byte("mergeCell")), styles: styleIndices(x)}
		if texts, ok := stringCells(x); ok {
			got.texts = texts
		}
	}
	if r.facts == nil {
		r.facts = map[string]sheetFacts{}
	}
	r.facts[key] = got
	return got
}

// mayHoldFormulas reports whether any cell of the sheet may hold a formula:
// false only when its XML was scanned and holds none.
func (r *reader) mayHoldFormulas(sheet string) bool {
	got := r.factsOf(sheet)
	return !got.scanned || got.formulas
}

// mayMerge reports whether the sheet may hold merged cells: false only
// when its XML was scanned and names none.
func (r *reader) mayMerge(sheet string) bool {
	got := r.factsOf(sheet)
	return !got.scanned || got.merges
}

// mayShowDates reports whether any cell of the sheet may be shown as a
// date or time: false only when its XML was scanned and none of the styles
// it names has such a number format in f.
func (r *reader) mayShowDates(f *excelize.File, sheet string) bool {
	got := r.factsOf(sheet)
	if !got.scanned {
		return true
	}
	for _, idx := range got.styles {
		if idx < 0 || r.formatOf(f, idx).kind != "" {
			return true
		}
	}
	return false
}

// mayShareFormulas reports whether the sheet's XML may hold a formula
// filled across cells, before the search for which cells do.
func mayShareFormulas(x []byte) bool { return bytes.Contains(x, []byte(`"shared"`)) }
