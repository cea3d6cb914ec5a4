package sheets

import (
	"strings"

	"github.com/xuri/excelize/v2"
)

// Style keys. A key may carry a number format after a bar: "result|0.0%".
const (
	styleTitle    = "title"    // the sheet's title
	styleNote     = "note"     // provenance and explanations
	styleWrapNote = "wrapnote" // an explanation wrapped in its cell
	styleHeader   = "header"   // a table's header row
	styleSection  = "section"  // a section title inside a sheet
	styleLabel    = "label"    // names and other plain text
	styleName     = "name"     // the name a formula uses, beside its label: grey
	styleInput    = "input"    // a value the user may change: blue on light yellow
	styleResult   = "result"   // a computed number
	styleError    = "error"    // a formula that could not be computed
	styleVerdict  = "verdict"  // buy or rent, coloured by a conditional format that follows it
	styleBuy      = "buy"      // verdict: owning is cheaper
	styleRent     = "rent"     // verdict: renting is cheaper
)

func withFormat(style, format string) string { return style + "|" + format }

// wrapped is the style with its text wrapped in the cell.
func wrapped(style string) string { return wrapPrefix + style }

const wrapPrefix = "wrap:"

// styles creates each style once per file; excelize gives equal styles equal
// ids, so rewriting a sheet never grows the style table.
type styles struct {
	f    *excelize.File
	ids  map[string]int
	dxfs []string // conditional styles, canonical; nil until needed
}

func newStyles(f *excelize.File) *styles { return &styles{f: f, ids: map[string]int{}} }

func (s *styles) id(key string) (int, error) {
	if key == "" {
		return 0, nil
	}
	if id, ok := s.ids[key]; ok {
		return id, nil
	}
	id, err := s.f.NewStyle(styleFor(key))
	if err != nil {
		return 0, err
	}
	s.ids[key] = id
	return id, nil
}

func styleFor(key string) *excelize.Style {
	kind, format, _ := strings.Cut(key, "|")
	kind, wrap := strings.CutPrefix(kind, wrapPrefix)
	// Every font names its family and size: a font with only a colour
	// makes LibreOffice fall back to a serif face.
	font := &excelize.Font{Family: "Calibri", Size: 11}
	st := &excelize.Style{Font: font, Alignment: &excelize.Alignment{Vertical: "top"}}
	switch kind {
	case styleTitle:
		font.Bold, font.Size = true, 14
	case styleNote:
		font.Italic, font.Color = true, "595959"
	case styleWrapNote:
		font.Italic, font.Color = true, "595959"
		st.Alignment.WrapText, st.Alignment.Indent = true, 1
	case styleHeader:
		font.Bold = true
		st.Alignment.WrapText = true
		st.Fill = solid("D9D9D9")
		st.Border = []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
	case styleSection:
		font.Bold, font.Size = true, 12
	case styleName:
		font.Color = "595959"
	case styleInput:
		font.Color = "0000FF"
		st.Fill = solid("FFF2CC")
	case styleError:
		font.Color = "C00000"
	case styleVerdict:
		font.Bold = true
		st.Alignment.Horizontal = "center"
	case styleBuy:
		font.Bold, font.Color = true, "006100"
		st.Fill = solid("C6EFCE")
		st.Alignment.Horizontal = "center"
	case styleRent:
		font.Bold, font.Color = true, "9C0006"
		st.Fill = solid("FFC7CE")
		st.Alignment.Horizontal = "center"
	}
	if format != "" {
		st.CustomNumFmt = &format
	}
	if wrap {
		st.Alignment.WrapText = true
	}
	return st
}

func solid(color string) excelize.Fill {
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}
}
