package sheets

import (
	"fmt"
	"strconv"

	"planner/deploy"
	"planner/engine"
	"planner/sizing"
	"planner/units"
)

// sizingGrid is the Sizing sheet: every catalog model on every catalog GPU,
// model by model.
func sizingGrid(out Output) *Grid {
	g := &Grid{sheet: Sizing, owned: true, freezeRows: HeaderRow, freezeCols: 1, printRow: HeaderRow,
		widths: []float64{40, 10, 12, 11, 10, 10, 10, 11, 12, 9, 50}}
	provenance(g, "Sizing: how many cards one replica needs", out)
	g.line(HeaderRow, headers("model", "precision", "GPU", "weights GB", "min cards", "min cards (TP)",
		"usual cards", "KV reserve GB", "KV GB per replica", "fits one node", "note")...)
	g.wrapHeight(HeaderRow, 10, "KV GB per replica")
	if len(out.Sizing) == 0 {
		g.line(HeaderRow+1, text("There is no GPUs or Models sheet, so nothing is sized.", styleNote))
		return g
	}
	catalog := map[string]sizing.ModelSpec{}
	for _, m := range out.Plan.Model().Catalog {
		catalog[m.Name] = m
	}
	for i, s := range out.Sizing {
		row := HeaderRow + 1 + i
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
		g.note(11, row, s.Note)
	}
	return g
}

// costsGrid is the Deployment costs sheet: each deployment rented and
// owned. It is live: cards typed in Deployments, replicas and hours link
// there, prices to Cloud, the owning side to the owning scenario's column
// of Results, and the verdict and its words follow them. Cards planner
// sized from the catalogs stay values, as the Sizing sheet does.
func costsGrid(out Output, lay *resultsLayout) *Grid {
	g := &Grid{sheet: DeploymentCosts, owned: true, freezeRows: HeaderRow, freezeCols: 1, printRow: HeaderRow,
		widths: []float64{36, 36, 11, 9, 9, 17, 44, 10, 12, 14, 14, 8, 10, 13, 10, 8, 60}}
	provenance(g, "Deployment costs: renting replicas against owning nodes", out,
		"cards sized from the GPUs and Models sheets, and the model, GPU, offer and scenario each row names, are read by planner eval: run it after changing them")
	g.line(HeaderRow, headers("deployment", "model", "GPU", "cards per replica", "replicas", "usage", "offer",
		"$/GPU-hour", "rent per replica-hour", "rent per month", "own: scenario", "nodes", "node busy",
		"own per month", "break-even", "verdict", "in words")...)
	g.wrapHeight(HeaderRow, 9, "cards per replica")
	if len(out.Deployments) == 0 {
		g.line(HeaderRow+1, text("There is no Deployments sheet, or it has no rows.", styleNote))
		return g
	}
	for i, d := range out.Deployments {
		costRow(g, out, lay, d, HeaderRow+1+i)
	}
	g.shading = append(g.shading, verdictShading(fmt.Sprintf("P%d:P%d", HeaderRow+1, HeaderRow+len(out.Deployments))))
	return g
}

// costRow writes one deployment's row of Deployment costs.
func costRow(g *Grid, out Output, lay *resultsLayout, d deploy.Result, row int) {
	g.line(row, text(d.Name, styleLabel), text(d.Model, styleLabel), text(d.GPU, styleLabel))
	if d.Cards == 0 {
		g.set(17, row, text(d.Words, wrapped(styleError)))
		g.wrapHeight(row, g.widths[16], d.Words)
		return
	}
	money := withFormat(styleResult, units.ExcelFormat("$/h"))
	in := deploymentRefs(d)
	g.set(4, row, linked(number(float64(d.Cards), withFormat(styleResult, "#,##0")), in.cards))
	g.set(5, row, linked(number(float64(d.Replicas), withFormat(styleResult, "#,##0")), in.replicas))
	g.set(6, row, linked(text(d.Usage, styleLabel), in.usage))
	g.set(7, row, text(d.Offer.Label(), styleLabel))
	cards, replicas, hours := cellName(4, row), cellName(5, row), in.hours
	if hours == "" {
		hours = num(d.HoursPerMonth)
	}
	g.set(8, row, linked(number(d.Offer.Price, money), priceLink(d.Offer)))
	g.set(9, row, linked(number(d.RentPerReplicaHour, money), cards+"*"+cellName(8, row)))
	g.set(10, row, linked(number(d.RentPerMonth, money), fmt.Sprintf("%s*%s*%s", cellName(9, row), hours, replicas)))
	refs := map[string]string{deploy.QuantityRent: cellName(10, row)}
	if o := d.Own; o != nil {
		own := ownRefs(out, lay, d)
		g.set(11, row, text(o.Scenario, styleLabel))
		nodes := ""
		if own.gpus != "" {
			nodes = fmt.Sprintf("ROUNDUP(%s*%s/%s,0)", cards, replicas, own.gpus)
		}
		g.set(12, row, linked(number(float64(o.Nodes), withFormat(styleResult, "#,##0")), nodes))
		busy := ""
		if nodes != "" && own.hours != "" {
			busy = fmt.Sprintf("MIN(1,%s*%s*%s/(%s*%s*%s))", cards, replicas, hours, cellName(12, row), own.gpus, own.hours)
		}
		g.set(13, row, linked(number(o.Busy, withFormat(styleResult, "0.0%")), busy))
		perMonth := ""
		if own.nodeCost != "" {
			perMonth = cellName(12, row) + "*" + own.nodeCost
		}
		g.set(14, row, linked(number(o.CostPerMonth, money), perMonth))
		if o.Breakeven > 0 {
			g.set(15, row, linked(number(o.Breakeven, withFormat(styleResult, breakevenFormat)), own.breakeven))
		}
		g.set(16, row, linked(text(d.Verdict, styleVerdict), excelVerdict(cellName(14, row)+"<="+cellName(10, row))))
		refs[engine.QuantityVerdict], refs[deploy.QuantityNodes], refs[deploy.QuantityBusy] = cellName(16, row), cellName(12, row), cellName(13, row)
		refs[deploy.QuantityOwn], refs[engine.QuantityBreakeven] = cellName(14, row), cellName(15, row)
		if own.gpus != "" {
			refs[deploy.QuantityNodeGPUs] = own.gpus
		}
	}
	words := excelPhrase(d.Phrase, refs)
	if buy, rent := d.Phrases(); buy != nil {
		// The sentence is built otherwise for the other verdict.
		words = fmt.Sprintf(`IF(%s="buy",%s,%s)`, refs[engine.QuantityVerdict], excelPhrase(buy, refs), excelPhrase(rent, refs))
	}
	g.set(17, row, linked(text(d.Words, wrapped(styleLabel)), words))
	g.wrapHeight(row, g.widths[16], d.Words)
}

// deploymentInputs are the Deployments cells a costs row reads, as formula
// text; "" where planner's own value stands (cards it sized).
type deploymentInputs struct{ cards, replicas, hours, usage string }

func deploymentRefs(d deploy.Result) deploymentInputs {
	ref := func(key string) string {
		at, ok := d.Where[key]
		if !ok || at.Sheet == "" {
			return ""
		}
		if d.Texts[key] {
			return "VALUE(" + cellRef(at) + ")"
		}
		return cellRef(at)
	}
	var in deploymentInputs
	// Cards typed in Deployments win; an empty cell means sizing's count,
	// as planner reads it.
	if c := ref("cards"); c != "" {
		sized := "NA()"
		if d.SizedCards > 0 {
			sized = strconv.Itoa(d.SizedCards)
		}
		in.cards = fmt.Sprintf("IF(%s>0,%s,%s)", c, c, sized)
	}
	if r := ref("replicas"); r != "" {
		in.replicas = "MAX(1," + r + ")"
	}
	perDay, days, perMonth := ref("hoursday"), ref("days"), ref("hoursmonth")
	if perDay != "" && days != "" && perMonth != "" {
		in.hours = fmt.Sprintf("IF(%s>0,%s,%s*%s)", perMonth, perMonth, perDay, days)
		in.usage = fmt.Sprintf(`IF(%s>0,%s&" h a month",%s&" h × "&%s&" days")`, perMonth, perMonth, perDay, days)
	}
	return in
}

// ownSide are the Results cells of the scenario that owns a deployment's
// nodes; "" where Results does not have one.
type ownSide struct{ gpus, hours, nodeCost, breakeven string }

func ownRefs(out Output, lay *resultsLayout, d deploy.Result) ownSide {
	col := 0
	for i, r := range out.Results {
		if r.Scenario == d.Own.Scenario {
			col = firstValue + i
		}
	}
	at := func(row int, ok bool) string {
		if !ok || col == 0 {
			return ""
		}
		return absolute(Results, col, row)
	}
	var s ownSide
	row, ok := lay.inputRow[engine.GPUs]
	s.gpus = at(row, ok)
	row, ok = lay.inputRow[engine.HoursPerMonth]
	s.hours = at(row, ok)
	row, ok = lay.formulaRow[engine.NodeCostPerMonth]
	s.nodeCost = at(row, ok)
	for j, o := range out.Plan.Model().Offers {
		if o.Label() == d.Offer.Label() {
			row, ok = lay.matrixRow[j]
			s.breakeven = at(row, ok)
		}
	}
	return s
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
