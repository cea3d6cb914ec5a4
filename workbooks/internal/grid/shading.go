package grid

import (
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
)

// shading colours a range by its values, as a conditional format Excel and
// LibreOffice keep live: green for good news, red for bad.
type shading struct {
	ref       string
	kind      shadeKind
	goodHigh  bool    // byScale, byThreshold: green at the high end, red at the low
	threshold float64 // byThreshold: where green turns red
	good, bad string  // byFormula: the rules, for the range's first cell
}

type shadeKind int

const (
	byScale shadeKind = iota
	byThreshold
	byFormula
)

// ShadeScale colours ref on Excel's green-yellow-red scale, green at the
// high end when highIsGood, else at the low end.
func (g *Grid) ShadeScale(ref string, highIsGood bool) {
	g.shading = append(g.shading, shading{ref: ref, kind: byScale, goodHigh: highIsGood})
}

// ShadeThreshold fills ref's cells below threshold green and those above
// it red, or the other way round when aboveIsGood.
func (g *Grid) ShadeThreshold(ref string, threshold float64, aboveIsGood bool) {
	g.shading = append(g.shading, shading{ref: ref, kind: byThreshold, threshold: threshold, goodHigh: aboveIsGood})
}

// ShadeByFormula fills ref's cells green where good holds and red where
// bad does: formulas written for the range's first cell and moving with
// each cell, as Excel's "use a formula" rules do.
func (g *Grid) ShadeByFormula(ref, good, bad string) {
	g.shading = append(g.shading, shading{ref: ref, kind: byFormula, good: good, bad: bad})
}

// The fills of Excel's own "Green Fill with Dark Green Text" and "Light Red
// Fill with Dark Red Text", and its green-yellow-red colour scale.
var (
	greenText = &excelize.Style{Font: &excelize.Font{Color: "006100"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"C6EFCE"}}}
	redText   = &excelize.Style{Font: &excelize.Font{Color: "9C0006"}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}}}
)

const (
	scaleGreen  = "#63BE7B"
	scaleYellow = "#FFEB84"
	scaleRed    = "#F8696B"
)

// shade replaces the sheet's conditional formats with the grid's.
func (g *Grid) shade(f *excelize.File, st *styles) error {
	old, err := f.GetConditionalFormats(g.sheet)
	if err != nil {
		return err
	}
	refs := make([]string, 0, len(old))
	for ref := range old {
		refs = append(refs, ref)
	}
	sort.Strings(refs)
	for _, ref := range refs {
		if err := f.UnsetConditionalFormat(g.sheet, ref); err != nil {
			return err
		}
	}
	for _, s := range g.shading {
		opts, err := st.conditions(s)
		if err != nil {
			return err
		}
		if err := f.SetConditionalFormat(g.sheet, s.ref, opts); err != nil {
			return err
		}
	}
	return nil
}

// conditions are the rules of one shading.
func (st *styles) conditions(sh shading) ([]excelize.ConditionalFormatOptions, error) {
	if sh.kind == byScale {
		low, high := scaleGreen, scaleRed
		if sh.goodHigh {
			low, high = scaleRed, scaleGreen
		}
		return []excelize.ConditionalFormatOptions{{Type: "3_color_scale", Criteria: "=", MinType: "min", MidType: "percentile",
			MidValue: "50", MaxType: "max", MinColor: low, MidColor: scaleYellow, MaxColor: high}}, nil
	}
	green, err := st.conditional(greenText)
	if err != nil {
		return nil, err
	}
	red, err := st.conditional(redText)
	if err != nil {
		return nil, err
	}
	if sh.kind == byFormula {
		return []excelize.ConditionalFormatOptions{
			{Type: "formula", Criteria: sh.good, Format: &green},
			{Type: "formula", Criteria: sh.bad, Format: &red},
		}, nil
	}
	below, above := green, red
	if sh.goodHigh {
		below, above = red, green
	}
	value := strconv.FormatFloat(sh.threshold, 'g', -1, 64)
	return []excelize.ConditionalFormatOptions{
		{Type: "cell", Criteria: "<", Value: value, Format: &below},
		{Type: "cell", Criteria: ">", Value: value, Format: &above},
	}, nil
}

// conditional is the index of a conditional-format style equal to want,
// made only when the workbook has none: otherwise every run would add one
// and the file would grow. The workbook's styles are compared as written
// (excelize's own reading of a style changes it in place).
func (st *styles) conditional(want *excelize.Style) (int, error) {
	canonical, err := dxfCanonical(want)
	if err != nil {
		return 0, err
	}
	if st.dxfs == nil {
		st.dxfs = existingDxfs(st.f)
	}
	for i, have := range st.dxfs {
		if have == canonical {
			return i, nil
		}
	}
	id, err := st.f.NewConditionalStyle(want)
	if err != nil {
		return 0, err
	}
	st.dxfs = append(st.dxfs, canonical)
	return id, nil
}

// canonicalDxfs caches dxfCanonical: the same style always writes the same.
var canonicalDxfs sync.Map // *excelize.Style -> string

// dxfCanonical is the style as excelize writes it, in canonical form.
func dxfCanonical(want *excelize.Style) (string, error) {
	if c, ok := canonicalDxfs.Load(want); ok {
		return c.(string), nil
	}
	c, err := writeDxf(want)
	if err == nil {
		canonicalDxfs.Store(want, c)
	}
	return c, err
}

func writeDxf(want *excelize.Style) (string, error) {
	scratch := excelize.NewFile()
	defer scratch.Close()
	if _, err := scratch.NewConditionalStyle(want); err != nil {
		return "", err
	}
	buf, err := scratch.WriteToBuffer()
	if err != nil {
		return "", err
	}
	ps, err := ooxml.Parts(buf.Bytes())
	if err != nil {
		return "", err
	}
	dxfs := ooxml.Dxfs(ps[ooxml.StylesPart])
	if len(dxfs) != 1 {
		return "", fmt.Errorf("a conditional style came out as %d styles", len(dxfs))
	}
	return dxfs[0], nil
}

// existingDxfs are the workbook's conditional styles as it was read.
func existingDxfs(f *excelize.File) []string {
	raw, ok := f.Pkg.Load(ooxml.StylesPart)
	if !ok {
		return []string{}
	}
	data, _ := raw.([]byte)
	return ooxml.Dxfs(data)
}
