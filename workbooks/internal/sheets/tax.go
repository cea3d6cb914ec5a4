package sheets

import (
	"fmt"

	"planner/domain"
	"planner/engine"
	"planner/units"
	"planner/workbooks/internal/grid"
)

// taxWords say whether the NPV and the payback of a scenario's result are
// before or after tax, and with which depreciation.
func taxWords(r *engine.Result) string {
	t := r.Values[domain.TaxRate]
	if t == 0 {
		return "NPV and payback are before tax: tax_rate is 0."
	}
	return "NPV and payback are after tax at " + units.Format(t, units.Share) + ", " + depreciationWords(r.Values[domain.Depreciation]) +
		"; the break-even utilisation and the verdicts compare costs before tax."
}

// excelTaxWords are taxWords as a live formula over the cells of the tax
// rate and the depreciation.
func excelTaxWords(rate, depreciation string) string {
	return fmt.Sprintf(`IF(%s=0,"NPV and payback are before tax: tax_rate is 0.","NPV and payback are after tax at "&%s&", "&%s&"; the break-even utilisation and the verdicts compare costs before tax.")`,
		rate, excelPercent(rate), excelDepreciationWords(depreciation))
}

// depreciationWords name the depreciation: straight line, or a declining
// balance at its rate a year.
func depreciationWords(rate float64) string {
	if rate == 0 {
		return "straight-line depreciation"
	}
	return "declining-balance depreciation at " + units.Format(rate, units.Share) + " a year"
}

func excelDepreciationWords(rate string) string {
	return fmt.Sprintf(`IF(%s=0,"straight-line depreciation","declining-balance depreciation at "&%s&" a year")`, rate, excelPercent(rate))
}

// taxLine writes, below the offers, whether their NPV and payback are
// before or after tax; its row is kept for its live formula.
func taxLine(g *grid.Grid, r *engine.Result, lay *resultsLayout) {
	if _, ok := r.Values[domain.TaxRate]; !ok {
		return
	}
	lay.taxRow = g.Next()
	g.Sentence(1, lay.taxRow, 0, taxWords(r), grid.StyleNote)
}

// taxLine links the words of taxLine to the base scenario's tax rate and
// depreciation.
func (l linker) taxLine() {
	refs := l.refs(0, "")
	rate, err1 := refs(domain.TaxRate)
	depreciation, err2 := refs(domain.Depreciation)
	if l.lay.taxRow == 0 || err1 != nil || err2 != nil {
		return
	}
	l.g.Link(1, l.lay.taxRow, excelTaxWords(rate, depreciation))
}
