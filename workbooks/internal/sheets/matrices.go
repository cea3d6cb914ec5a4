package sheets

import (
	"fmt"

	"planner/domain"
	"planner/finance"
	"planner/formulas"
	"planner/units"
	"planner/workbooks/internal/grid"
)

// The NPV and the payback of every offer in every scenario whose GPU it is
// for, as the break-even matrix gives the break-even: the offers section
// shows the base's only, and a verdict of another scenario is worth its
// money too. Each cell is live: the per-offer formulas it reads are
// written out inside it, over the scenario's column and the offer's
// Cloud price.

// scenarioMatrices writes the NPV and payback matrices.
func scenarioMatrices(g *grid.Grid, out Output, lay *resultsLayout) {
	if len(out.Plan.Model().Offers) == 0 || !hasOfferValue(out, domain.NPVSaving) {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Net present value of owning by offer and scenario, and the payback: owning instead of renting the used hours, in today's money", grid.StyleSection))
	row++
	scenarioHeader(g, row, out.Results, 0, "", "Offer", "GPU", "Figure")
	g.Table(row-1, row, row)
	money := grid.WithFormat(grid.StyleResult, out.currency().ExcelFormat(units.Money))
	for j, o := range out.Plan.Model().Offers {
		if !comparedAnywhere(out, j) {
			continue
		}
		row++
		first := row
		g.Line(row, grid.Text(o.Label(), grid.StyleLabel), grid.Text(o.GPU, grid.StyleLabel), grid.Text("NPV", grid.StyleLabel))
		for i, r := range out.Results {
			if or := r.Offers[j]; or.Compared {
				if v, ok := or.Values[domain.NPVSaving]; ok {
					g.Set(firstValue+i, row, grid.Number(v, money))
				} else {
					g.Set(firstValue+i, row, valueCell(out.currency(), or.Values, or.Errors, domain.NPVSaving, units.Money))
				}
			}
		}
		row++
		g.Line(row, grid.Text("", grid.StyleLabel), grid.Text("", grid.StyleLabel), grid.Text("payback", grid.StyleLabel))
		paybacks := false
		for i, r := range out.Results {
			if or := r.Offers[j]; or.Compared {
				if b := finance.PaybackOf(r, or); b.Known() {
					paybacks = true
					g.Set(firstValue+i, row, paybackCell(b))
				}
			}
		}
		moved := g.Fit(first)
		row += moved
		lay.npvRow[j] = first + moved
		if paybacks {
			lay.paybackMatrixRow[j] = row
		}
	}
}

// paybackCell is a payback as a cell: its months, or its words.
func paybackCell(b *finance.Payback) grid.Cell {
	if b.Months > 0 && !b.WithSale {
		return grid.Number(float64(b.Months), grid.WithFormat(grid.StyleResult, `0 "months"`))
	}
	return grid.Text(b.Words(), grid.StyleLabel)
}

// hasOfferValue says whether some scenario's offer has the named value.
func hasOfferValue(out Output, name string) bool {
	for _, r := range out.Results {
		for _, or := range r.Offers {
			if _, ok := or.Values[name]; ok {
				return true
			}
		}
	}
	return false
}

// comparedAnywhere says whether some scenario compares model offer j.
func comparedAnywhere(out Output, j int) bool {
	for _, r := range out.Results {
		if r.Offers[j].Compared {
			return true
		}
	}
	return false
}

// scenarioMatrices links scenario i's NPV and payback against every offer
// it compares, the per-offer formulas written out over its column.
func (l linker) scenarioMatrices(i int) {
	checked := map[string]*formulas.Checked{}
	for _, c := range l.out.Plan.Checked() {
		checked[c.Name] = c
	}
	npv, ok := checked[domain.NPVSaving]
	if !ok {
		return
	}
	for j, o := range l.out.Plan.Model().Offers {
		row, ok := l.lay.npvRow[j]
		if !ok || o.PriceAt.Sheet == "" || !l.out.Results[i].Offers[j].Compared {
			continue
		}
		price := priceRef(o)
		if l.lay.effectiveRow > 0 {
			s, ok := l.effectivePrice(o, price, i)
			if !ok {
				continue
			}
			price = "(" + s + ")"
		}
		resolve := l.inlined(checked, l.refs(i, price), o)
		if s, err := l.excel(npv, resolve); err == nil {
			l.g.Link(firstValue+i, row, s)
		}
		prow, ok := l.lay.paybackMatrixRow[j]
		saving, err := resolve(domain.CashSaving)
		if !ok || err != nil || !finance.PaybackOf(l.out.Results[i], l.out.Results[i].Offers[j]).Known() {
			continue
		}
		if s, ok := l.matrixPayback(l.refs(i, price), resolve, saving, o); ok {
			l.g.Link(firstValue+i, prow, s)
		}
	}
}

// matrixPayback is a scenario's payback against offer o, the per-offer
// formulas written out by resolve: along the paths over the term when
// either may change.
func (l linker) matrixPayback(refs, resolve func(string) (string, error), saving string, o domain.Offer) (string, bool) {
	flat, ok := paybackFormula(refs, saving)
	if !ok {
		return "", false
	}
	rent, err := resolve(domain.RentUsed)
	if err != nil {
		return flat, true
	}
	p, ok := pathRefsOf(rent, o, refs)
	along, ok2 := pathPaybackFormula(refs, saving, p)
	if !ok || !ok2 {
		return flat, true
	}
	return spliced("IF(AND(%s=0,%s=0),%s,%s)", p.rent, p.power, flat, along), true
}

// inlined resolves a per-offer formula's name to its own formula, in
// parentheses, offer_renewal_months to offer o's, and every other name by
// refs.
func (l linker) inlined(checked map[string]*formulas.Checked, refs func(string) (string, error), o domain.Offer) func(string) (string, error) {
	renewal := renewalRef(o)
	var resolve func(string) (string, error)
	resolve = func(name string) (string, error) {
		if name == domain.OfferRenewalMonths {
			return renewal, nil
		}
		c, ok := checked[name]
		if !ok || !l.out.Plan.PerOffer(name) {
			return refs(name)
		}
		s, err := l.excel(c, resolve)
		if err != nil {
			return "", fmt.Errorf("%s: %v", name, err)
		}
		return "(" + s + ")", nil
	}
	return resolve
}
