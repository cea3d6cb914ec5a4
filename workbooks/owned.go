package workbooks

import (
	"fmt"
	"strconv"

	"planner/engine"
	"planner/units"
)

// sizingGrid is the Sizing sheet: every catalog model on every catalog GPU,
// model by model.
func sizingGrid(out Output) *grid {
	g := &grid{sheet: SheetSizing, owned: true, freezeRows: headerRow, freezeCols: 1,
		widths: []float64{40, 10, 12, 11, 10, 10, 10, 11, 12, 9, 90}}
	provenance(g, "Sizing: how many cards one replica needs", out)
	g.line(headerRow, headers("model", "precision", "GPU", "weights GB", "min cards", "min cards (TP)",
		"usual cards", "KV reserve GB", "KV GB per replica", "fits one node", "note")...)
	g.wrapHeight(headerRow, 10, "KV GB per replica")
	if len(out.Sizing) == 0 {
		g.line(headerRow+1, text("There is no GPUs or Models sheet, so nothing is sized.", styleNote))
		return g
	}
	catalog := map[string]engine.ModelSpec{}
	for _, m := range out.Plan.Model().Catalog {
		catalog[m.Name] = m
	}
	for i, s := range out.Sizing {
		row := headerRow + 1 + i
		m := catalog[s.Model]
		g.line(row, text(s.Model, styleLabel), text(m.Precision, styleLabel), text(s.GPU, styleLabel),
			number(s.WeightsGB, withFormat(styleResult, "#,##0.#")), number(float64(s.MinCards), withFormat(styleResult, "#,##0")))
		for j, n := range []int{s.MinCardsTP, s.UsualCards} {
			if n > 0 {
				g.set(6+j, row, number(float64(n), withFormat(styleResult, "#,##0")))
			} else {
				g.set(6+j, row, text("> 16", styleError))
			}
		}
		g.set(8, row, number(s.KVGB, withFormat(styleResult, "#,##0.#")))
		if s.MinCardsTP > 0 {
			g.set(9, row, number(s.KVGBPerReplica, withFormat(styleResult, "#,##0.#")))
		}
		fits := text("no", styleRent)
		if s.FitsNode {
			fits = text("yes", styleBuy)
		}
		g.set(10, row, fits)
		g.set(11, row, text(s.Note, styleNote))
	}
	return g
}

// costsGrid is the Deployment costs sheet: each deployment rented and owned.
func costsGrid(out Output) *grid {
	g := &grid{sheet: SheetCosts, owned: true, freezeRows: headerRow, freezeCols: 1,
		widths: []float64{36, 36, 11, 9, 9, 17, 44, 10, 12, 14, 14, 8, 10, 13, 10, 8, 120}}
	provenance(g, "Deployment costs: renting replicas against owning nodes", out)
	g.line(headerRow, headers("deployment", "model", "GPU", "cards per replica", "replicas", "usage", "offer",
		"$/GPU-hour", "rent per replica-hour", "rent per month", "own: scenario", "nodes", "node busy",
		"own per month", "break-even", "verdict", "in words")...)
	g.wrapHeight(headerRow, 9, "cards per replica")
	if len(out.Deployments) == 0 {
		g.line(headerRow+1, text("There is no Deployments sheet, or it has no rows.", styleNote))
		return g
	}
	for i, d := range out.Deployments {
		row := headerRow + 1 + i
		g.line(row, text(d.Name, styleLabel), text(d.Model, styleLabel), text(d.GPU, styleLabel))
		if d.Cards == 0 {
			g.set(17, row, text(d.Words, styleError))
			continue
		}
		money := withFormat(styleResult, units.ExcelFormat("$/h"))
		g.set(4, row, number(float64(d.Cards), withFormat(styleResult, "#,##0")))
		g.set(5, row, number(float64(d.Replicas), withFormat(styleResult, "#,##0")))
		g.set(6, row, text(d.Usage, styleLabel))
		g.set(7, row, text(d.Offer.Label(), styleLabel))
		// Renting is live: the price links to Cloud, the rest is arithmetic
		// on it, as engine.Deploy computes it.
		g.set(8, row, linked(number(d.Offer.Price, money), priceLink(d.Offer)))
		g.set(9, row, linked(number(d.RentPerReplicaHour, money), fmt.Sprintf("%s*%s", cellName(4, row), cellName(8, row))))
		g.set(10, row, linked(number(d.RentPerMonth, money),
			fmt.Sprintf("%s*%s*%s", cellName(9, row), strconv.FormatFloat(d.HoursPerMonth, 'g', -1, 64), cellName(5, row))))
		if o := d.Own; o != nil {
			g.set(11, row, text(o.Scenario, styleLabel))
			g.set(12, row, number(float64(o.Nodes), withFormat(styleResult, "#,##0")))
			g.set(13, row, number(o.Busy, withFormat(styleResult, "0.0%")))
			g.set(14, row, number(o.CostPerMonth, money))
			if o.Breakeven > 0 {
				g.set(15, row, number(o.Breakeven, withFormat(styleResult, "0.0%")))
			}
		}
		verdict := text(d.Verdict, styleRent)
		if d.Verdict == engine.Buy {
			verdict = text(d.Verdict, styleBuy)
		}
		g.set(16, row, verdict)
		g.set(17, row, text(d.Words, styleLabel))
	}
	return g
}

// linked gives a value cell the formula that computes it.
func linked(c cell, formula string) cell {
	c.formula = formula
	return c
}

// priceLink refers to an offer's price cell in Cloud; "" when unknown.
func priceLink(o engine.Offer) string {
	if o.PriceAt.Sheet == "" {
		return ""
	}
	return priceRef(o)
}
