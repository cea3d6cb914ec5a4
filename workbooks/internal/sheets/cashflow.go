package sheets

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/engine"
	"planner/finance"
	"planner/units"
	"planner/workbooks/internal/grid"
)

// maxCashFlowMonths bounds the Cash flow sheet: a hundred years of months.
const maxCashFlowMonths = 1200

// cashFlow is the base scenario's owning and renting, month by month,
// read from the Results sheet's cells: the references its formulas use,
// and the values planner computed for them.
type cashFlow struct {
	cur                            units.Currency
	base                           *engine.Result
	months                         int
	offers                         []engine.OfferResult
	refs                           map[string]string // name -> Results cell of the base scenario
	rent                           []string          // per offer: its rent of the used hours a month, in Results
	payback                        []string          // per offer: its payback, in Results; "" when Results has none
	price                          []string          // per offer: its price, in Results
	verdict                        []string          // per offer: its verdict, in Results; "" when Results has none
	rate, capex, residual, running float64
	tax                            *cashTax // nil before tax
	paths                          bool     // Results has the paths' inputs: the months follow them
	own                            int      // the column of owning's cash
}

// cashTax is what the month table needs after tax: the rate, the
// depreciation month by month.
type cashTax struct {
	rate         float64
	depreciation finance.Depreciation
}

// cashFlowOf gathers what the Cash flow sheet needs, or says why it cannot
// be drawn.
func cashFlowOf(out Output, lay *resultsLayout) (*cashFlow, string) {
	base := out.Results[0]
	cf := &cashFlow{cur: out.currency(), base: base, offers: comparedOffers(base), refs: map[string]string{}}
	if len(cf.offers) == 0 {
		return nil, "There is no cloud offer for the base scenario's GPU to compare owning with. " + base.NoOffer
	}
	need := []struct {
		name string
		row  map[string]int
	}{{domain.Capex, lay.inputRow}, {domain.Residual, lay.inputRow}, {domain.AmortizationMonths, lay.inputRow},
		{domain.MonthlyRate, lay.formulaRow}, {domain.RunningCost, lay.formulaRow}}
	for _, n := range need {
		row, ok := n.row[n.name]
		_, has := base.Values[n.name]
		if !ok || !has {
			return nil, fmt.Sprintf("The base scenario has no value of %s, which the cash flow follows month by month.", n.name)
		}
		cf.refs[n.name] = grid.Absolute(Results, firstValue, row)
	}
	n := base.Values[domain.AmortizationMonths]
	if n < 1 || n != math.Trunc(n) || n > maxCashFlowMonths {
		return nil, fmt.Sprintf("amortization_months is %s: the cash flow needs a whole number of months from 1 to %d.", units.Format(n, ""), maxCashFlowMonths)
	}
	cf.months = int(n)
	cf.rate, cf.capex = base.Values[domain.MonthlyRate], base.Values[domain.Capex]
	cf.residual, cf.running = base.Values[domain.Residual], base.Values[domain.RunningCost]
	cf.own = cfOwn
	cf.followPaths(lay)
	if !cf.taxed(lay) {
		return nil, fmt.Sprintf("The base scenario has a tax_rate but no value of %s or %s, which the cash flow after tax follows.", domain.Depreciation, domain.DepreciationPerMonth)
	}
	row, ok := lay.offerRow[domain.RentUsed]
	for j, o := range cf.offers {
		if _, has := o.Values[domain.RentUsed]; !ok || !has {
			return nil, fmt.Sprintf("%s has no value of %s against %s.", base.Scenario, domain.RentUsed, o.Offer.Label())
		}
		cf.rent = append(cf.rent, grid.Absolute(Results, firstValue+j, row))
		p := ""
		if lay.paybackRow > 0 && finance.PaybackOf(base, o).Known() {
			p = grid.Absolute(Results, firstValue+j, lay.paybackRow)
		}
		cf.payback = append(cf.payback, p)
		cf.price = append(cf.price, grid.Absolute(Results, firstValue+j, lay.priceRow))
		v := ""
		if lay.verdictRow > 0 && o.Verdict != "" {
			v = grid.Absolute(Results, firstValue+j, lay.verdictRow)
		}
		cf.verdict = append(cf.verdict, v)
	}
	return cf, ""
}

// followPaths has the month table follow the rent's and the power's
// paths over the term when Results has their cells: the yearly changes
// and this month's power.
func (cf *cashFlow) followPaths(lay *resultsLayout) {
	need := []struct {
		name string
		row  map[string]int
	}{{domain.RentChange, lay.inputRow}, {domain.ElectricityChange, lay.inputRow}, {domain.PowerPerMonth, lay.formulaRow}}
	refs := map[string]string{}
	for _, n := range need {
		row, ok := n.row[n.name]
		if _, has := cf.base.Values[n.name]; !ok || !has {
			return
		}
		refs[n.name] = grid.Absolute(Results, firstValue, row)
	}
	maps.Copy(cf.refs, refs)
	cf.paths = true
}

// runningIn is month m's running cost, as planner computes it and as a
// formula of the month's cell: along the power's path when the table
// follows it.
func (cf *cashFlow) runningIn(m int, month string) (float64, string) {
	r := cf.refs
	if !cf.paths {
		return cf.running, r[domain.RunningCost]
	}
	p, _ := finance.PathOf(cf.base, cf.offers[0])
	return cf.running + (p.PowerIn(m) - p.Power), fmt.Sprintf("(%s+%s*((1+%s)^INT((%s-1)/12)-1))",
		r[domain.RunningCost], r[domain.PowerPerMonth], r[domain.ElectricityChange], month)
}

// rentIn is month m's rent of offer j's used hours, as planner computes
// it and as a formula: along the rent's path, renewed every
// offer_renewal_months at the price changed by then, when the table
// follows it.
func (cf *cashFlow) rentIn(j, m int, month string) (float64, string) {
	o := cf.offers[j]
	if !cf.paths {
		return o.Values[domain.RentUsed], cf.rent[j]
	}
	p, _ := finance.PathOf(cf.base, o)
	l := renewalRef(*o.Offer)
	return p.RentIn(m), fmt.Sprintf("%s*(1+%s)^(INT((%s-1)/%s)*%s/12)", cf.rent[j], cf.refs[domain.RentChange], month, l, l)
}

// taxed readies the month table after tax when the base scenario has a
// tax rate; false when it has one but Results lacks a cell it needs.
func (cf *cashFlow) taxed(lay *resultsLayout) bool {
	t := cf.base.Values[domain.TaxRate]
	if t == 0 {
		return true
	}
	for _, n := range []struct {
		name string
		row  map[string]int
	}{{domain.TaxRate, lay.inputRow}, {domain.Depreciation, lay.inputRow}, {domain.DepreciationPerMonth, lay.formulaRow}} {
		row, ok := n.row[n.name]
		if !ok {
			return false
		}
		cf.refs[n.name] = grid.Absolute(Results, firstValue, row)
	}
	d, ok := finance.DepreciationOf(cf.base)
	if !ok {
		return false
	}
	cf.tax = &cashTax{rate: t, depreciation: d}
	cf.own = cfTaxSaved + 1
	return true
}

// Columns of the month table: the month, its discount factor, after tax
// the depreciation and the tax it saves, owning's cash, cumulative and
// discounted cumulative, then the same three for renting each offer.
const (
	cfMonth        = 1
	cfDiscount     = 2
	cfDepreciation = 3
	cfTaxSaved     = 4
	cfOwn          = 3 // before tax
	cfPerSide      = 3
)

// side is the first column of a side of the month table: owning's (0),
// then renting each offer's.
func (cf *cashFlow) side(k int) int { return cf.own + cfPerSide*k }

// cashFlowGrid is the Cash flow sheet: what owning instead of renting each
// offer is worth (NPV) and when it has paid for itself, a chart of the
// cumulative cash, and the months they come from. Live: every cell is a
// formula over the base scenario's Results cells.
func cashFlowGrid(out Output, lay *resultsLayout) *grid.Grid {
	g := grid.NewOwned(CashFlow, 0, 1, cashWidth, cashWidth, cashWidth, cashWidth, cashWidth, cashWidth)
	provenance(g, "Cash flow: owning the node against renting each offer, month by month", out,
		"scenario "+out.Results[0].Scenario, "amortization_months sets the rows: run planner eval after changing it")
	cf, why := cashFlowOf(out, lay)
	if cf == nil {
		g.Line(HeaderRow, grid.Text(why, grid.StyleNote))
		return g
	}
	if cf.tax != nil {
		for c := cfDepreciation; c < cf.side(1); c++ {
			g.Width(c, cashWidth)
		}
	}
	for j := range cf.offers {
		for k := 0; k < cfPerSide; k++ {
			g.Width(cf.side(j+1)+k, cashWidth)
		}
	}
	summaryEnd := cf.summary(g)
	chartTop := summaryEnd + 2
	// Rows are sized at LibreOffice's default height, the lowest a
	// spreadsheet draws them, so that the chart never covers the table.
	chartEnd := chartTop + cashChartHeight/17
	g.KeepTogether(HeaderRow, chartEnd)
	header := chartEnd + 3
	last := cf.table(g, header)
	cf.npv(g, header, last)
	g.AddChart(grid.CellName(2, chartTop), cf.chart(g.Sheet(), header, last))
	return g
}

// cashWidth is the width of each column: a month's cumulative cash,
// -$1,255,133, fits, and the sheet fits a page's width at the default
// workbook's four offers.
const cashWidth = 11

// cashChartHeight is the chart's height in pixels.
const cashChartHeight = 440

// Columns of the summary above the chart: the offer's label across the
// first three, then its price, owning's NPV against it and the payback.
const (
	sumPrice   = 4
	sumNPV     = 5
	sumPayback = 6
	sumVerdict = 7
)

// summary lists each offer: its price, owning's NPV against it and the
// payback; it returns the last row. The NPV cells are linked once the
// month table is laid out (npv).
func (cf *cashFlow) summary(g *grid.Grid) int {
	cur := cf.cur
	g.Sentence(1, HeaderRow, sumPrice-1, "offer", grid.StyleHeader)
	for col, h := range map[int]string{sumPrice: cur.Words("$/GPU-hour"), sumNPV: "NPV of owning", sumPayback: "payback", sumVerdict: "verdict"} {
		g.Set(col, HeaderRow, grid.Text(h, grid.StyleHeader))
	}
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/GPU-h"))
	for j, o := range cf.offers {
		row := HeaderRow + 1 + j
		g.Sentence(1, row, sumPrice-1, o.Offer.Label(), grid.StyleLabel)
		g.Set(sumPrice, row, grid.Linked(grid.Number(o.Offer.Price, money), cf.price[j]))
		if cf.verdict[j] != "" {
			g.Set(sumVerdict, row, grid.Linked(grid.Text(o.Verdict, grid.StyleVerdict), cf.verdict[j]))
		}
		if b := finance.PaybackOf(cf.base, o); b.Known() {
			c := grid.Text(b.Words(), grid.Wrapped(grid.StyleLabel))
			g.WrapHeight(row, cashWidth, b.Words())
			if b.Months > 0 && !b.WithSale {
				c = grid.Number(float64(b.Months), grid.WithFormat(grid.StyleResult, `0 "months"`))
			}
			g.Set(sumPayback, row, grid.Linked(c, cf.payback[j]))
		}
	}
	shadeVerdicts(g, grid.CellName(sumVerdict, HeaderRow+1)+":"+grid.CellName(sumVerdict, HeaderRow+len(cf.offers)))
	last := HeaderRow + len(cf.offers) + 1
	g.Sentence(1, last, sumPayback+4, "NPV: owning instead of renting the used hours, in today's money at the monthly cost of capital: "+
		"owning's discounted cumulative cash less renting's at the last month. Payback: the first month in which owning's cash saving, "+
		"undiscounted, has repaid the price, as Results gives it; one repaid only with the sale for the residual at the end is the last month, with the sale."+cf.taxWords(), grid.StyleNote)
	return last
}

// taxWords say how the cash is after tax, if it is; the rate and the
// depreciation are Results' words, which follow the workbook's cells.
func (cf *cashFlow) taxWords() string {
	if cf.tax == nil {
		return ""
	}
	return " After tax, at the rate and with the depreciation Results states: rent and running costs are deducted in the month " +
		"they are paid, the depreciation saves the tax rate times itself in its month, and the sale at the residual carries no tax."
}

// table writes the months from the header row on; it returns the last row.
func (cf *cashFlow) table(g *grid.Grid, header int) int {
	cur := cf.cur
	g.Set(cf.own, header-1, grid.Text("owning", grid.StyleSection))
	for j, o := range cf.offers {
		g.Set(cf.side(j+1), header-1, grid.Text("renting "+o.Offer.Label(), grid.StyleSection))
	}
	headers := []string{"month", "discount factor", "cash", "cumulative", "discounted cumulative"}
	if cf.tax != nil {
		g.Set(cfDepreciation, header-1, grid.Text("tax", grid.StyleSection))
		headers = slices.Insert(headers, 2, "depreciation", "tax saved")
	}
	g.Line(header, grid.Headers(headers...)...)
	for j := range cf.offers {
		for k, h := range []string{"cash", "cumulative", "discounted cumulative"} {
			g.Set(cf.side(j+1)+k, header, grid.Text(h, grid.StyleHeader))
		}
	}
	g.WrapHeight(header, cashWidth, "discounted cumulative")
	g.PrintHeader(header)
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$"))
	r := cf.refs
	own := cashSide{}
	rents := make([]cashSide, len(cf.offers))
	for m := 0; m <= cf.months; m++ {
		row := header + 1 + m
		month := grid.CellName(cfMonth, row)
		// A month past the amortisation, after it is shortened in the
		// workbook, stays empty until planner eval lays the sheet out anew.
		within := func(formula string) string {
			return fmt.Sprintf(`IF(%s>%s,"",%s)`, month, r[domain.AmortizationMonths], formula)
		}
		g.Set(cfMonth, row, grid.Number(float64(m), grid.WithFormat(grid.StyleLabel, "0")))
		discount := math.Pow(1+cf.rate, -float64(m))
		g.Set(cfDiscount, row, grid.Linked(grid.Number(discount, grid.WithFormat(grid.StyleResult, "0.0000")),
			within(fmt.Sprintf("(1+%s)^(-%s)", r[domain.MonthlyRate], month))))
		runningCost, runningRef := cf.runningIn(m, month)
		cash := -runningCost
		running, kept := "-"+runningRef, 1.0
		if cf.tax != nil {
			saved := cf.taxSaved(g, row, m, money, within)
			kept = 1 - cf.tax.rate
			cash = -kept*runningCost + saved
			running = fmt.Sprintf("-(1-%s)*%s+%s", r[domain.TaxRate], runningRef, grid.CellName(cfTaxSaved, row))
		}
		formula := fmt.Sprintf("IF(%s=0,-%s,%s)+IF(%s=%s,%s*%s,0)", month, r[domain.Capex], running,
			month, r[domain.AmortizationMonths], r[domain.Residual], r[domain.Capex])
		if m == 0 {
			cash = -cf.capex
		}
		if m == cf.months {
			cash += cf.residual * cf.capex
		}
		own.write(g, cf.own, row, m, cash, discount, formula, money, within)
		for j := range cf.offers {
			rentPaid, rentRef := cf.rentIn(j, m, month)
			rent := -kept * rentPaid
			if m == 0 {
				rent = 0
			}
			paid := "-" + rentRef
			if cf.tax != nil {
				paid = fmt.Sprintf("-(1-%s)*%s", r[domain.TaxRate], rentRef)
			}
			rents[j].write(g, cf.side(j+1), row, m, rent, discount,
				fmt.Sprintf("IF(%s=0,0,%s)", month, paid), money, within)
		}
	}
	return header + 1 + cf.months
}

// taxSaved writes month m's depreciation and the tax it saves, and
// returns the tax saved: straight line, or a declining balance of the
// price less the residual at a twelfth of the yearly rate a month, the
// rest in the last month.
func (cf *cashFlow) taxSaved(g *grid.Grid, row, m int, money string, within func(string) string) float64 {
	r, month := cf.refs, grid.CellName(cfMonth, row)
	depreciation := 0.0
	if m > 0 {
		depreciation = cf.tax.depreciation.In(m)
	}
	declining := fmt.Sprintf("%s*(1-%s)*(1-%s/12)^(%s-1)*IF(%s=%s,1,%s/12)", r[domain.Capex], r[domain.Residual], r[domain.Depreciation],
		month, month, r[domain.AmortizationMonths], r[domain.Depreciation])
	formula := fmt.Sprintf("IF(%s=0,0,IF(%s=0,%s,%s))", month, r[domain.Depreciation], r[domain.DepreciationPerMonth], declining)
	g.Set(cfDepreciation, row, grid.Linked(grid.Number(depreciation, money), within(formula)))
	saved := cf.tax.rate * depreciation
	g.Set(cfTaxSaved, row, grid.Linked(grid.Number(saved, money),
		within(fmt.Sprintf("%s*%s", r[domain.TaxRate], grid.CellName(cfDepreciation, row)))))
	return saved
}

// cashSide is one side's running totals down the month table.
type cashSide struct{ cumulative, discounted float64 }

// write puts one month of a side at columns col (cash), col+1
// (cumulative) and col+2 (discounted cumulative) of row, each formula
// within the amortisation.
func (s *cashSide) write(g *grid.Grid, col, row, m int, cash, discount float64, formula, format string, within func(string) string) {
	s.cumulative += cash
	s.discounted += cash * discount
	cashCell, factor := grid.CellName(col, row), grid.CellName(cfDiscount, row)
	cumulative, discounted := cashCell, cashCell+"*"+factor
	if m > 0 {
		cumulative = grid.CellName(col+1, row-1) + "+" + cashCell
		discounted = grid.CellName(col+2, row-1) + "+" + cashCell + "*" + factor
	}
	g.Set(col, row, grid.Linked(grid.Number(cash, format), within(formula)))
	g.Set(col+1, row, grid.Linked(grid.Number(s.cumulative, format), within(cumulative)))
	g.Set(col+2, row, grid.Linked(grid.Number(s.discounted, format), within(discounted)))
}

// npv links each offer's NPV in the summary to the month table: the
// discounted cumulative cash at the last month of the amortisation, which
// is #N/A when the workbook's amortisation is no longer the table's whole
// months.
func (cf *cashFlow) npv(g *grid.Grid, header, last int) {
	cur := cf.cur
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$"))
	n := cf.refs[domain.AmortizationMonths]
	at := func(col int) string {
		return fmt.Sprintf("INDEX(%s:%s,%s+1)", grid.CellName(col, header+1), grid.CellName(col, last), n)
	}
	for j, o := range cf.offers {
		formula := fmt.Sprintf("IF(OR(%s>%d,%s<>INT(%s)),NA(),%s-%s)", n, cf.months, n, n, at(cf.own+2), at(cf.side(j+1)+2))
		c := grid.Text("no number", grid.StyleError)
		if v, ok := o.Values[domain.NPVSaving]; ok {
			c = grid.Number(v, money)
		}
		g.Set(sumNPV, HeaderRow+1+j, grid.Linked(c, formula))
	}
}

// chart draws owning's cumulative cash against renting each offer's: where
// owning's line rises above an offer's, owning has paid for itself. Each
// line is named by its side's label above the month table.
func (cf *cashFlow) chart(sheet string, header, last int) *excelize.Chart {
	cur := cf.cur
	months := grid.Span(sheet, cfMonth, header+1, last)
	line := func(col int, colour string, dash bool) excelize.ChartSeries {
		l := excelize.LineOptions{Type: excelize.LineSolid, Width: 2.25}
		if dash {
			l.Dash, l.Width = excelize.LineDashDash, 1.5
		}
		return excelize.ChartSeries{Name: grid.Absolute(sheet, col, header-1), Categories: months,
			Values: grid.Span(sheet, col+1, header+1, last), Fill: grid.Solid(colour), Line: l, Marker: excelize.ChartMarker{Symbol: "none"}}
	}
	series := []excelize.ChartSeries{line(cf.own, palette[0], false)}
	for j := range cf.offers {
		series = append(series, line(cf.side(j+1), offerPalette[j%len(offerPalette)], true))
	}
	zero, end := 0.0, float64(cf.months)
	return &excelize.Chart{
		Type:   excelize.Scatter,
		Series: series,
		Title:  grid.ChartTitle(cur.Words("Cumulative cash ($) by month: owning (solid) against renting each offer (dashed); owning has paid for itself where its line rises above an offer's")),
		Legend: grid.Legend("bottom"),
		XAxis: grid.Axis(excelize.ChartAxis{Minimum: &zero, Maximum: &end, MajorUnit: monthTicks(cf.months), MajorGridLines: true,
			TickLabelPosition: excelize.ChartTickLabelLow,
			NumFmt:            excelize.ChartNumFmt{CustomNumFmt: "0"}}, "month"),
		YAxis:     grid.Axis(excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: cur.Excel("$#,##0")}}, ""),
		Dimension: excelize.ChartDimension{Width: 960, Height: cashChartHeight},
	}
}

// monthTicks spaces the month axis's labels: every 6 months up to 5
// years, then every year, then every 5 years.
func monthTicks(months int) float64 {
	switch {
	case months <= 60:
		return 6
	case months <= 240:
		return 12
	}
	return 60
}
