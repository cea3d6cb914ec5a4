package sheets

import (
	"fmt"
	"strconv"
	"strings"

	"planner/deploy"
	"planner/domain"
	"planner/sizing"
	"planner/units"
	"planner/view"
	"planner/wording"
	"planner/workbooks/internal/grid"
)

// sizingGrid is the Sizing sheet: every catalog model on every catalog GPU,
// model by model.
func sizingGrid(out Output) *grid.Grid {
	g := grid.NewOwned(Sizing, HeaderRow, 1, 40, 10, 12, 11, 10, 10, 10, 11, 12, 9, 50)
	provenance(g, "Sizing: how many cards one replica needs", out)
	g.Line(HeaderRow, grid.Headers("model", "precision", "GPU", "weights GB", "min cards", "min cards (TP)",
		"usual cards", "KV reserve GB", "KV GB per replica", "fits one node", "note")...)
	g.WrapHeight(HeaderRow, 10, "KV GB per replica")
	if len(out.Sizing) == 0 {
		g.Line(HeaderRow+1, grid.Text("There is no GPUs or Models sheet, so nothing is sized.", grid.StyleNote))
		return g
	}
	catalog := map[string]sizing.ModelSpec{}
	for _, m := range out.Plan.Model().Catalog {
		catalog[m.Name] = m
	}
	for i, s := range out.Sizing {
		row := HeaderRow + 1 + i
		m := catalog[s.Model]
		g.Line(row, grid.Text(s.Model, grid.StyleLabel), grid.Text(m.Precision, grid.StyleLabel), grid.Text(s.GPU, grid.StyleLabel),
			grid.Number(s.WeightsGB, grid.WithFormat(grid.StyleResult, "#,##0.#")), grid.Number(float64(s.MinCards), grid.WithFormat(grid.StyleResult, "#,##0")))
		for j, n := range []int{s.MinCardsTP, s.UsualCards} {
			if n > 0 {
				g.Set(6+j, row, grid.Number(float64(n), grid.WithFormat(grid.StyleResult, "#,##0")))
			} else {
				g.Set(6+j, row, grid.Text("> 16", grid.StyleError))
			}
		}
		g.Set(8, row, grid.Number(s.KVGB, grid.WithFormat(grid.StyleResult, "#,##0.#")))
		if s.MinCardsTP > 0 {
			g.Set(9, row, grid.Number(s.KVGBPerReplica, grid.WithFormat(grid.StyleResult, "#,##0.#")))
		}
		fits := grid.Text("no", grid.StyleRent)
		if s.FitsNode {
			fits = grid.Text("yes", grid.StyleBuy)
		}
		g.Set(10, row, fits)
		g.Note(11, row, s.Note)
	}
	return g
}

// costsGrid is the Deployment costs sheet: each deployment rented and
// owned. It is live: cards typed in Deployments, replicas and hours link
// there, prices to Cloud, the owning side to the owning scenario's column
// of Results, and the verdict and its words follow them. Cards planner
// sized from the catalogs stay values, as the Sizing sheet does.
func costsGrid(out Output, lay *resultsLayout) *grid.Grid {
	g := grid.NewOwned(DeploymentCosts, HeaderRow, 1, 36, 36, 11, 9, 9, 17, 44, 10, 12, 14, 14, 8, 10, 13, 10, 8, 60,
		12, 15, 12, 12, 28, 12, 12, 10)
	provenance(g, "Deployment costs: renting replicas against owning nodes", out,
		"cards sized from the GPUs and Models sheets, and the model, GPU, offer and scenario each row names, are read by planner eval: run it after changing them")
	g.Line(HeaderRow, grid.Headers("deployment", "model", "GPU", "cards per replica", "replicas", "usage", "offer",
		"$/GPU-hour", "rent per replica-hour", "rent per month", "own: scenario", "nodes", "node busy",
		"own per month", "break-even", "verdict", "in words", "tokens per second per replica", "tokens per month",
		"rent per million tokens", "own per million tokens: the cards' share", "API", "API per million tokens", "API per month", cheapestHeader)...)
	g.WrapHeight(HeaderRow, 9, "cards per replica", "tokens per second per replica")
	g.WrapHeight(HeaderRow, 12, "own per million tokens: the cards' share")
	g.WrapHeight(HeaderRow, 10, cheapestHeader)
	if len(out.Deployments) == 0 {
		g.Line(HeaderRow+1, grid.Text("There is no Deployments sheet, or it has no rows.", grid.StyleNote))
		return g
	}
	for i, d := range out.Deployments {
		costRow(g, out, lay, d, HeaderRow+1+i)
	}
	shadeVerdicts(g, fmt.Sprintf("P%d:P%d", HeaderRow+1, HeaderRow+len(out.Deployments)))
	return g
}

// costRow writes one deployment's row of Deployment costs.
func costRow(g *grid.Grid, out Output, lay *resultsLayout, d deploy.Result, row int) {
	g.Line(row, grid.Text(d.Name, grid.StyleLabel), grid.Text(d.Model, grid.StyleLabel), grid.Text(d.GPU, grid.StyleLabel))
	if d.Phrase == nil { // not costed: the words say why
		g.Set(17, row, grid.Text(d.Words, grid.Wrapped(grid.StyleError)))
		g.WrapHeight(row, g.Widths()[16], d.Words)
		return
	}
	money := grid.WithFormat(grid.StyleResult, units.ExcelFormat("$/h"))
	in := deploymentRefs(d)
	g.Set(4, row, grid.Linked(grid.Number(float64(d.Cards), grid.WithFormat(grid.StyleResult, "#,##0")), in.cards))
	g.Set(5, row, grid.Linked(grid.Number(float64(d.Replicas), grid.WithFormat(grid.StyleResult, "#,##0")), in.replicas))
	g.Set(6, row, grid.Linked(grid.Text(d.Usage, grid.StyleLabel), in.usage))
	g.Set(7, row, grid.Text(d.Offer.Label(), grid.StyleLabel))
	cards, replicas, hours := grid.CellName(4, row), grid.CellName(5, row), in.hours
	if hours == "" {
		hours = num(d.HoursPerMonth)
	}
	g.Set(8, row, grid.Linked(grid.Number(d.Offer.Price, money), priceLink(d.Offer)))
	g.Set(9, row, grid.Linked(grid.Number(d.RentPerReplicaHour, money), cards+"*"+grid.CellName(8, row)))
	g.Set(10, row, grid.Linked(grid.Number(d.RentPerMonth, money), fmt.Sprintf("%s*%s*%s", grid.CellName(9, row), hours, replicas)))
	refs := map[string]string{deploy.QuantityRent: grid.CellName(10, row)}
	if o := d.Own; o != nil {
		own := ownRefs(out, lay, d)
		g.Set(11, row, grid.Text(o.Scenario, grid.StyleLabel))
		nodes := ""
		if own.gpus != "" {
			// A replica stays within one node up to its size; a larger one
			// takes whole nodes (deploy.NodesFor).
			nodes = fmt.Sprintf("IF(%s<=%s,ROUNDUP(%s/INT(%s/%s),0),%s*ROUNDUP(%s/%s,0))",
				cards, own.gpus, replicas, own.gpus, cards, replicas, cards, own.gpus)
		}
		g.Set(12, row, grid.Linked(grid.Number(float64(o.Nodes), grid.WithFormat(grid.StyleResult, "#,##0")), nodes))
		busy := ""
		if nodes != "" && own.hours != "" {
			busy = fmt.Sprintf("MIN(1,%s*%s*%s/(%s*%s*%s))", cards, replicas, hours, grid.CellName(12, row), own.gpus, own.hours)
		}
		g.Set(13, row, grid.Linked(grid.Number(o.Busy, grid.WithFormat(grid.StyleResult, "0.0%")), busy))
		perMonth := ""
		if own.nodeCost != "" {
			perMonth = grid.CellName(12, row) + "*" + own.nodeCost
		}
		g.Set(14, row, grid.Linked(grid.Number(o.CostPerMonth, money), perMonth))
		if o.Breakeven > 0 {
			g.Set(15, row, grid.Linked(grid.Number(o.Breakeven, grid.WithFormat(grid.StyleResult, view.BreakevenFormat)), own.breakeven))
		}
		g.Set(16, row, grid.Linked(grid.Text(d.Verdict, grid.StyleVerdict), excelVerdict(grid.CellName(14, row)+"<="+grid.CellName(10, row))))
		refs[wording.QuantityVerdict], refs[deploy.QuantityNodes], refs[deploy.QuantityBusy] = grid.CellName(16, row), grid.CellName(12, row), grid.CellName(13, row)
		refs[deploy.QuantityOwn], refs[wording.QuantityBreakeven] = grid.CellName(14, row), grid.CellName(15, row)
		if own.gpus != "" {
			refs[deploy.QuantityNodeGPUs] = own.gpus
		}
	}
	words := excelPhrase(d.Phrase, refs)
	if buy, rent := d.Phrases(); buy != nil {
		// The sentence is built otherwise for the other verdict.
		words = fmt.Sprintf(`IF(%s="buy",%s,%s)`, refs[wording.QuantityVerdict], excelPhrase(buy, refs), excelPhrase(rent, refs))
	}
	g.Set(17, row, grid.Linked(grid.Text(d.Words, grid.Wrapped(grid.StyleLabel)), words))
	g.WrapHeight(row, g.Widths()[16], d.Words)
	tokenCells(g, out, lay, d, row, hours)
}

// cheapestHeader says what the cheapest column compares: the month of
// owning whole nodes, as the verdict does, not the cards' share beside it.
// A deployment alone pays for the whole nodes; the share is what it would
// cost only if other deployments filled the rest, which the Fleet sheet
// works out.
const cheapestHeader = "cheapest: whole nodes, rent or API"

// tokenCells writes a costs row's tokens, live: tokens a month from the
// throughput in Deployments, what a million cost rented (the row's rent),
// owned (its cards' share of the owning scenario's node a month) and from
// the API (its prices in APIs, at the mix planner read), and the cheapest.
func tokenCells(g *grid.Grid, out Output, lay *resultsLayout, d deploy.Result, row int, hours string) {
	t := d.Tokens
	if t.PerMonth <= 0 {
		return
	}
	money := grid.WithFormat(grid.StyleResult, units.ExcelFormat("$/h"))
	count := grid.WithFormat(grid.StyleResult, "#,##0")
	perSecond := ""
	if at, ok := d.Where["tokens"]; ok && at.Sheet != "" {
		perSecond = cellRef(at)
		if d.Texts["tokens"] {
			perSecond = "VALUE(" + perSecond + ")"
		}
	}
	cell := func(col int) string { return grid.CellName(col, row) }
	g.Set(18, row, grid.Linked(grid.Number(t.PerSecond, count), perSecond))
	g.Set(19, row, grid.Linked(grid.Number(t.PerMonth, count), fmt.Sprintf("%s*3600*%s*%s", cell(18), hours, cell(5))))
	millions := "(" + cell(19) + "/1000000)"
	g.Set(20, row, grid.Linked(grid.Number(t.PerMillionRent, money), cell(10)+"/"+millions))
	least := []string{cell(10)}
	if o := d.Own; o != nil {
		own := ownRefs(out, lay, d)
		share := ""
		if own.nodeCost != "" && own.gpus != "" {
			share = fmt.Sprintf("%s*%s*%s/%s/%s", cell(4), cell(5), own.nodeCost, own.gpus, millions)
		}
		g.Set(21, row, grid.Linked(grid.Number(t.PerMillionOwn, money), share))
		least = append(least, cell(14))
	}
	cheapest := fmt.Sprintf(`IF(%s<=%s,"own","rent")`, cell(14), cell(10))
	if d.Own == nil {
		cheapest = `"rent"`
	}
	if a := t.API; a != nil {
		g.Set(22, row, grid.Text(a.Label(), grid.StyleLabel))
		price := ""
		if a.InputAt.Sheet != "" && a.OutputAt.Sheet != "" && (d.MixCached == 0 || a.CachedAt.Sheet != "") {
			price = fmt.Sprintf("(%s*%s+%s*%s", num(d.MixIn), cellRef(a.InputAt), num(d.MixOut), cellRef(a.OutputAt))
			if d.MixCached > 0 {
				price += fmt.Sprintf("+%s*%s", num(d.MixCached), cellRef(a.CachedAt))
			}
			price += ")/" + num(d.MixIn+d.MixCached+d.MixOut)
		}
		g.Set(23, row, grid.Linked(grid.Number(a.PerMillion, money), price))
		g.Set(24, row, grid.Linked(grid.Number(a.PerMonth, money), cell(23)+"*"+millions))
		cheapest = fmt.Sprintf(`IF(%s<MIN(%s),"api",%s)`, cell(24), strings.Join(least, ","), cheapest)
	}
	g.Set(25, row, grid.Linked(grid.Text(t.Cheapest, grid.StyleLabel), cheapest))
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
		if peak, per := ref("peak"), ref("tokens"); peak != "" && per != "" {
			// An empty replicas cell takes the replicas the peak needs.
			in.replicas = fmt.Sprintf("IF(%s>0,%s,IF(AND(%s>0,%s>0),ROUNDUP(%s/%s,0),1))", r, r, peak, per, peak, per)
		}
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
		return grid.Absolute(Results, col, row)
	}
	var s ownSide
	row, ok := lay.inputRow[domain.GPUs]
	s.gpus = at(row, ok)
	row, ok = lay.inputRow[domain.HoursPerMonth]
	s.hours = at(row, ok)
	row, ok = lay.formulaRow[domain.NodeCostPerMonth]
	s.nodeCost = at(row, ok)
	for j, o := range out.Plan.Model().Offers {
		if o.Label() == d.Offer.Label() {
			row, ok = lay.matrixRow[j]
			s.breakeven = at(row, ok)
		}
	}
	return s
}

// priceLink refers to an offer's price cell in Cloud; "" when unknown.
func priceLink(o domain.Offer) string {
	if o.PriceAt.Sheet == "" {
		return ""
	}
	return priceRef(o)
}

// shadeVerdicts colours a range of verdict words: buy green, rent red.
func shadeVerdicts(g *grid.Grid, ref string) {
	first, _, _ := strings.Cut(ref, ":")
	g.ShadeByFormula(ref, first+`="buy"`, first+`="rent"`)
}
