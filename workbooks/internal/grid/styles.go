package grid

import (
	"strings"

	"github.com/xuri/excelize/v2"
)

// Style keys. A key may carry a number format after a bar: "result|0.0%".
const (
	StyleTitle    = "title"    // the sheet's title
	StyleNote     = "note"     // provenance and explanations
	StyleWrapNote = "wrapnote" // an explanation wrapped in its cell
	StyleHeader   = "header"   // a table's header row
	StyleSection  = "section"  // a section title inside a sheet
	StyleLabel    = "label"    // names and other plain text
	StyleName     = "name"     // the name a formula uses, beside its label: grey
	StyleInput    = "input"    // a value the user may change: blue on light yellow
	StyleResult   = "result"   // a computed number
	StyleError    = "error"    // a formula that could not be computed
	StyleVerdict  = "verdict"  // buy or rent, coloured by a conditional format that follows it
	StyleBuy      = "buy"      // verdict: owning is cheaper
	StyleRent     = "rent"     // verdict: renting is cheaper
)

// WithFormat is the style with a number format: WithFormat(StyleResult, "0.0%").
func WithFormat(style, format string) string { return style + "|" + format }

// Wrapped is the style with its text wrapped in the cell.
func Wrapped(style string) string { return wrapPrefix + style }

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
	case StyleTitle:
		font.Bold, font.Size = true, 14
	case StyleNote:
		font.Italic, font.Color = true, "595959"
	case StyleWrapNote:
		font.Italic, font.Color = true, "595959"
		st.Alignment.WrapText, st.Alignment.Indent = true, 1
	case StyleHeader:
		font.Bold = true
		st.Alignment.WrapText = true
		st.Fill = Solid("D9D9D9")
		st.Border = []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
	case StyleSection:
		font.Bold, font.Size = true, 12
	case StyleName:
		font.Color = "595959"
	case StyleInput:
		font.Color = "0000FF"
		st.Fill = Solid("FFF2CC")
	case StyleError:
		font.Color = "C00000"
	case StyleVerdict:
		font.Bold = true
		st.Alignment.Horizontal = "center"
	case StyleBuy:
		font.Bold, font.Color = true, "006100"
		st.Fill = Solid("C6EFCE")
		st.Alignment.Horizontal = "center"
	case StyleRent:
		font.Bold, font.Color = true, "9C0006"
		st.Fill = Solid("FFC7CE")
		st.Alignment.Horizontal = "center"
	}
	// Text set to the left of its cell is indented by one, so that it
	// never prints touching a number set to the right of the cell before;
	// spreadsheets indent only text aligned left, not in general alignment.
	if kind != StyleVerdict && kind != StyleBuy && kind != StyleRent && kind != StyleResult && kind != StyleInput {
		st.Alignment.Horizontal, st.Alignment.Indent = "left", 1
	}
	if format != "" {
		st.CustomNumFmt = &format
	}
	if wrap {
		st.Alignment.WrapText = true
	}
	return st
}

// Solid is a fill of one colour (RRGGBB), for a style or a chart's series.
func Solid(color string) excelize.Fill {
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}
}
