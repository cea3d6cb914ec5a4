package sheets

import (
	"strings"

	"planner/domain"
	"planner/finance"
	"planner/workbooks/internal/grid"
)

// pathCells are the Results cells a payback along the paths over the term
// reads: the yearly changes, this month's power and the offer's rent of
// its used hours and how long its price holds.
type pathCells struct{ rent, power, powerMonth, running, rentMonth, renewal string }

// pathRefs finds the path cells of offer o in column col; false when
// Results lacks one, as a workbook whose own formulas leave them out does.
func (l linker) pathRefs(col int, o domain.Offer, refs func(string) (string, error)) (pathCells, bool) {
	row, ok := l.lay.offerRow[domain.RentUsed]
	if !ok {
		return pathCells{}, false
	}
	return pathRefsOf(grid.CellName(col, row), o, refs)
}

// pathRefsOf is pathRefs with the rent of the used hours given, a cell or
// a formula in parentheses.
func pathRefsOf(rentMonth string, o domain.Offer, refs func(string) (string, error)) (pathCells, bool) {
	p := pathCells{rentMonth: rentMonth, renewal: renewalRef(o)}
	for _, c := range []struct {
		name string
		ref  *string
	}{{domain.RentChange, &p.rent}, {domain.ElectricityChange, &p.power}, {domain.PowerPerMonth, &p.powerMonth}, {domain.RunningCost, &p.running}} {
		ref, err := refs(c.name)
		if err != nil {
			return pathCells{}, false
		}
		*c.ref = ref
	}
	return p, true
}

// stepped is what a price of 1 a month comes to over months 1 to m (an
// array of months), when it holds for blocks of length months and grows
// by factor at each block: length × (factor^B − 1) ÷ (factor − 1) over the
// B whole blocks, and the months left, MOD(m, length), at factor^B. Where
// the change is 0 (flat) the factor is 1 and the blocks are length × B,
// guarded without IF so that the array stays one.
func stepped(m, length, factor, flat string) string {
	blocks := spliced("INT(%s/%s)", m, length)
	return spliced("(%s*(%s^%s-1)/(%s-1+%s)+%s*%s*%s+MOD(%s,%s)*%s^%s)",
		length, factor, blocks, factor, flat, flat, length, blocks, m, length, factor, blocks)
}

// pathPaybackFormula is the payback along the paths p of the monthly cash
// saving saving, with the other names resolved by refs; false when Results
// lacks a cell it needs.
func pathPaybackFormula(refs func(string) (string, error), saving string, p pathCells) (string, bool) {
	capex, err1 := refs(domain.Capex)
	n, err2 := refs(domain.AmortizationMonths)
	if err1 != nil || err2 != nil {
		return "", false
	}
	var t *taxCells
	if tax, ok := taxRefs(refs); ok {
		t = &tax
	}
	sold := "0"
	if residual, err := refs(domain.Residual); err == nil {
		sold = capex + "*" + residual
	}
	return pathPayback(capex, saving, n, sold, p, t), true
}

// pathPayback is the payback along the paths: the first month m whose
// cash saving so far has repaid the price, over the months 1 to n, the
// saving so far being m months of this month's saving, the rent's and
// the power's steps beyond it, after tax with the tax the depreciation
// saved so far (straight line, or a declining balance written off to the
// residual in the last month); else the last month if the sale for the
// residual, sold, repays the rest (finance.SaleWords). SUMPRODUCT has the
// spreadsheet evaluate the months as one array, as the declining
// balance's payback does.
func pathPayback(capex, saving, n, sold string, p pathCells, tax *taxCells) string {
	m := spliced(`ROW(INDIRECT("1:"&%s))`, n)
	first := spliced("SUMPRODUCT(MIN(%s+(%s<%s)*(%s+1)))", m, savedThrough(m, capex, saving, n, p, tax), capex, n)
	within := spliced(`IF(%s=1,"1 month",%s&" months")`, n, n)
	none := `"no payback within "&` + within
	late := spliced(`IF(AND(%s>0,%s+%s>=%s),%s&"%s",%s)`, sold, savedThrough(n, capex, saving, n, p, tax), sold, capex, within, finance.SaleWords, none)
	// The month itself within 1 to n, else (INDEX past the months) late:
	// the long sum is written once.
	return spliced("IFERROR(INDEX(%s,%s),%s)", m, first, late)
}

// savedThrough is the cash saving of months 1 to m (a month or an array
// of months) along the paths, after tax with the depreciation's tax saved;
// the saving read is the built-in's, the rent less the running cost.
func savedThrough(m, capex, saving, n string, p pathCells, tax *taxCells) string {
	// The built-in saving, the rent less the running cost, with the rent
	// and the power along their paths; written so, the cell says each once.
	rentFactor := spliced("(1+%s)^(%s/12)", p.rent, p.renewal)
	cash := spliced("(%s*%s-%s*%s-%s*(%s-%s))", p.rentMonth, stepped(m, p.renewal, rentFactor, "("+p.rent+"=0)"), p.running, m,
		p.powerMonth, stepped(m, "12", "(1+"+p.power+")", "("+p.power+"=0)"), m)
	if tax == nil {
		return cash
	}
	amount := spliced("%s*(1-%s)", capex, tax.residual)
	q := spliced("(1-%s/12)", tax.depreciation)
	through := spliced("((%s=0)*%s*%s+(%s<>0)*(%s*(1-%s^%s)+(%s>=%s)*%s*%s^%s))", tax.depreciation, tax.perMonth, m,
		tax.depreciation, amount, q, m, m, n, amount, q, m)
	return spliced("((1-%s)*%s+%s*%s)", tax.rate, cash, tax.rate, through)
}

// spliced is template with each %s replaced by the next of parts, as
// fmt.Sprintf would put strings in, in one allocation: the payback and
// NPV formulas written out over a thousand scenarios' columns are
// megabytes of text, spliced level by level.
func spliced(template string, parts ...string) string {
	n := len(template) - 2*len(parts)
	for _, p := range parts {
		n += len(p)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range parts {
		i := strings.Index(template, "%s")
		b.WriteString(template[:i])
		b.WriteString(p)
		template = template[i+2:]
	}
	b.WriteString(template)
	return b.String()
}
