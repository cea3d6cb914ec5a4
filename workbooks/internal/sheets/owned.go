package sheets

import (
	"fmt"
	"strconv"
	"strings"

	"planner/deploy"
	"planner/domain"
	"planner/sizing"
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
// owned, a column per figure of the view. It is live: cards typed in
// Deployments, replicas and hours link there, prices to Cloud, the owning
// side to the owning scenario's column of Results, and the verdict and its
// words follow them. Cards planner sized from the catalogs stay values, as
// the Sizing sheet does.
func costsGrid(out Output, lay *resultsLayout) *grid.Grid {
	ds := view.DeploymentsOf(out.Deployments, out.currency())
	cols := costColumns(ds.Figures)
	var widths []float64
	var heads []string
	for _, f := range ds.Figures {
		if f.In&view.Sheet != 0 {
			widths, heads = append(widths, costWidth(f.Name)), append(heads, f.Title())
		}
	}
	g := grid.NewOwned(DeploymentCosts, HeaderRow, 1, widths...)
	provenance(g, "Deployment costs: renting replicas against owning nodes", out,
		"cards sized from the GPUs and Models sheets, and the model, GPU, offer and scenario each row names, are read by planner eval: run it after changing them")
	g.Line(HeaderRow, grid.Headers(heads...)...)
	g.WrapHeight(HeaderRow, 9, "cards per replica", "tokens per second per replica")
	g.WrapHeight(HeaderRow, 12, "own per million tokens: the cards' share")
	g.WrapHeight(HeaderRow, 10, view.CheapestLabel)
	if len(ds.All) == 0 {
		g.Line(HeaderRow+1, grid.Text("There is no Deployments sheet, or it has no rows.", grid.StyleNote))
		return g
	}
	for i, d := range ds.All {
		costRow(g, out, lay, ds.Figures, cols, d, HeaderRow+1+i)
	}
	verdicts := cols[view.Verdict]
	shadeVerdicts(g, grid.CellName(verdicts, HeaderRow+1)+":"+grid.CellName(verdicts, HeaderRow+len(ds.All)))
	return g
}

// costColumns is the column of each figure the sheet shows, in order.
func costColumns(figs []view.Figure) map[string]int {
	cols := map[string]int{}
	for _, f := range figs {
		if f.In&view.Sheet != 0 {
			cols[f.Name] = len(cols) + 1
		}
	}
	return cols
}

// costWidths are the columns' widths by figure; a figure not listed gets
// defaultCostWidth.
var costWidths = map[string]float64{
	view.DeploymentName: 36, view.DeploymentModel: 36, view.DeploymentGPU: 11, view.CardsPerReplica: 9, view.Replicas: 9,
	view.Usage: 17, view.DeploymentOffer: 44, domain.OfferPrice: 10, view.RentPerMonth: 14, view.OwnScenario: 14,
	view.OwnNodes: 8, view.OwnBusy: 10, view.OwnPerMonth: 13, view.OwnBreakeven: 10, view.Verdict: 8, view.Words: 140,
	view.TokensPerMonth: 15, view.API: 28, view.Cheapest: 10,
}

const defaultCostWidth = 12

func costWidth(name string) float64 {
	if w, ok := costWidths[name]; ok {
		return w
	}
	return defaultCostWidth
}

// costRow writes one deployment's row of Deployment costs: every figure's
// cell, linked where the sheet can work it out from other cells.
func costRow(g *grid.Grid, out Output, lay *resultsLayout, figs []view.Figure, cols map[string]int, d view.Deployment, row int) {
	cell := func(name string) string { return grid.CellName(cols[name], row) }
	var links map[string]string
	if d.Costed() {
		links = costLinks(out, lay, d.Result, figs, cell)
	}
	for k, f := range figs {
		if c := d.Cells[k]; f.In&view.Sheet != 0 && !c.Empty() {
			g.Set(cols[f.Name], row, grid.Linked(costCell(f, c, d.Costed()), links[f.Name]))
		}
	}
	g.WrapHeight(row, costWidth(view.Words), d.Words)
}

// costCell is a deployment's figure as the sheet holds it: a number in
// the figure's format, else its words; the words of a deployment not
// costed, which say why, stand out as an error.
func costCell(f view.Figure, c view.Cell, costed bool) grid.Cell {
	switch {
	case c.Number:
		format := f.Format
		if format == "" && f.Whole {
			format = "#,##0"
		} else if format == "" {
			format = f.ExcelFormat()
		}
		return grid.Number(c.Value, grid.WithFormat(grid.StyleResult, format))
	case f.Name == view.Verdict:
		return grid.Text(c.Words, grid.StyleVerdict)
	case f.Name == view.Words && !costed:
		return grid.Text(c.Words, grid.Wrapped(grid.StyleError))
	case f.Name == view.Words:
		return grid.Text(c.Words, grid.Wrapped(grid.StyleLabel))
	}
	return grid.Text(c.Words, grid.StyleLabel)
}

// costLinks are the formulas of a costed row's cells, by figure: renting
// from the Deployments and Cloud cells, owning from the owning scenario's
// Results cells, the tokens from both.
func costLinks(out Output, lay *resultsLayout, d deploy.Result, figs []view.Figure, cell func(string) string) map[string]string {
	perReplica := ""
	if d.Operating != nil {
		perReplica = cell(view.TokensPerSecond) // read from Benchmarks in this row
	}
	in := deploymentRefs(d, perReplica)
	hours := in.hours
	if hours == "" {
		hours = num(d.HoursPerMonth)
	}
	links := map[string]string{
		view.CardsPerReplica:    in.cards,
		view.Replicas:           in.replicas,
		view.Usage:              in.usage,
		domain.OfferPrice:       priceLink(d.Offer),
		view.RentPerReplicaHour: cell(view.CardsPerReplica) + "*" + cell(domain.OfferPrice),
		view.RentPerMonth:       fmt.Sprintf("%s*%s*%s", cell(view.RentPerReplicaHour), hours, cell(view.Replicas)),
	}
	if !d.Offer.IsDefault() {
		billedRent(links, out, lay, d, cell, hours)
	}
	var own ownSide
	if d.Own != nil {
		own = ownRefs(out, lay, d)
		ownLinks(links, own, cell, hours)
	}
	if d.Tokens.PerMonth > 0 {
		tokenLinks(links, d, own, cell, hours)
	}
	if d.Term != nil && in.peak != "" {
		gain, months := termRefs(out, lay, d)
		termLinks(links, in, gain, months, cell)
	}
	links[view.Words] = wordsLink(d, figs, cell, own)
	return links
}

// maxTermYears are the years of a term the live formulas of the replicas
// by year spell out; a longer amortisation is NA() in them, not a term
// cut short.
const maxTermYears = 10

// termRefs are the Results cells of the gain and the amortisation of the
// scenario whose month the deployment rents for; "" where Results has
// none.
func termRefs(out Output, lay *resultsLayout, d deploy.Result) (gain, months string) {
	for i, r := range out.Results {
		if r.Scenario != d.Month {
			continue
		}
		if row, ok := lay.inputRow[domain.ThroughputGain]; ok {
			gain = grid.Absolute(Results, firstValue+i, row)
		}
		if row, ok := lay.inputRow[domain.AmortizationMonths]; ok {
			months = grid.Absolute(Results, firstValue+i, row)
		}
	}
	return gain, months
}

// termLinks are the formulas of the replicas by year and the rent over the
// term (deploy.Term): year k + 1 needs MAX(1, ROUNDUP(peak ÷ per ÷ (1 +
// gain)^k)) replicas for MAX(0, MIN(12, months − 12k)) months.
func termLinks(links map[string]string, in deploymentInputs, gain, months string, cell func(string) string) {
	if gain == "" || months == "" {
		return
	}
	year := func(k int) string {
		return fmt.Sprintf("MAX(1,ROUNDUP(%s/%s/(1+%s)^%d,0))", in.peak, in.per, gain, k)
	}
	words, sum := year(0), ""
	for k := range maxTermYears {
		if k > 0 {
			words += fmt.Sprintf(`&IF(%s>%d,", "&%s,"")`, months, 12*k, year(k))
			sum += "+"
		}
		sum += fmt.Sprintf("MAX(0,MIN(12,%s-%d))*%s", months, 12*k, year(k))
	}
	tooLong := fmt.Sprintf("%s>%d", months, 12*maxTermYears)
	links[view.ReplicasByYear] = fmt.Sprintf("IF(%s,NA(),%s)", tooLong, words)
	links[view.RentOverTerm] = fmt.Sprintf("IF(%s,NA(),%s/%s*(%s)/%s)", tooLong, cell(view.RentPerMonth), cell(view.Replicas), sum, months)
}

// ownLinks are the formulas of owning whole nodes: a replica stays within
// one node up to its size; a larger one takes whole nodes
// (deploy.NodesFor).
func ownLinks(links map[string]string, own ownSide, cell func(string) string, hours string) {
	cards, replicas, nodes := cell(view.CardsPerReplica), cell(view.Replicas), cell(view.OwnNodes)
	if own.gpus != "" {
		links[view.OwnNodes] = fmt.Sprintf("IF(%s<=%s,ROUNDUP(%s/INT(%s/%s),0),%s*ROUNDUP(%s/%s,0))",
			cards, own.gpus, replicas, own.gpus, cards, replicas, cards, own.gpus)
		if own.hours != "" {
			links[view.OwnBusy] = fmt.Sprintf("MIN(1,%s*%s*%s/(%s*%s*%s))", cards, replicas, hours, nodes, own.gpus, own.hours)
		}
	}
	if own.nodeCost != "" {
		links[view.OwnPerMonth] = nodes + "*" + own.nodeCost
	}
	links[view.OwnBreakeven] = own.breakeven
	links[view.Verdict] = excelVerdict(cell(view.OwnPerMonth) + "<=" + cell(view.RentPerMonth))
}

// wordsLink is the verdict in words as a live formula: each number of the
// phrase is its figure's cell, the node's GPUs the owning scenario's
// (own, empty when no scenario owns the GPU).
func wordsLink(d deploy.Result, figs []view.Figure, cell func(string) string, own ownSide) string {
	refs := map[string]string{}
	for _, f := range figs {
		if f.In&view.Sheet != 0 {
			refs[f.Name] = cell(f.Name)
		}
	}
	if own.gpus != "" {
		refs[deploy.QuantityNodeGPUs] = own.gpus
	}
	if buy, rent := d.Phrases(); buy != nil {
		// The sentence is built otherwise for the other verdict.
		return fmt.Sprintf(`IF(%s="buy",%s,%s)`, refs[wording.QuantityVerdict], excelPhrase(buy, refs), excelPhrase(rent, refs))
	}
	return excelPhrase(d.Phrase, refs)
}

// tokenLinks are the formulas of a row's tokens: tokens a month from the
// throughput in Deployments, what a million cost rented (the row's rent),
// owned (its cards' share of the owning scenario's node a month) and from
// the API (its prices in APIs, at the mix planner read), and the cheapest.
func tokenLinks(links map[string]string, d deploy.Result, own ownSide, cell func(string) string, hours string) {
	if d.Operating != nil {
		operatingLinks(links, d, cell)
	} else if at, ok := d.Where["tokens"]; ok && at.Sheet != "" {
		links[view.TokensPerSecond] = cellRef(at)
		if d.Texts["tokens"] {
			links[view.TokensPerSecond] = "VALUE(" + cellRef(at) + ")"
		}
	}
	links[view.TokensPerMonth] = fmt.Sprintf("%s*3600*%s*%s", cell(view.TokensPerSecond), hours, cell(view.Replicas))
	millions := "(" + cell(view.TokensPerMonth) + "/1000000)"
	links[view.RentPerMillion] = cell(view.RentPerMonth) + "/" + millions
	least := []string{cell(view.RentPerMonth)}
	cheapest := `"rent"`
	if d.Own != nil {
		if own.nodeCost != "" && own.gpus != "" {
			links[view.OwnPerMillion] = fmt.Sprintf("%s*%s*%s/%s/%s", cell(view.CardsPerReplica), cell(view.Replicas), own.nodeCost, own.gpus, millions)
		}
		least = append(least, cell(view.OwnPerMonth))
		cheapest = fmt.Sprintf(`IF(%s<=%s,"own","rent")`, cell(view.OwnPerMonth), cell(view.RentPerMonth))
	}
	if a := d.Tokens.API; a != nil {
		links[view.APIPerMillion] = apiPriceLink(d, a)
		links[view.APIPerMonth] = cell(view.APIPerMillion) + "*" + millions
		cheapest = fmt.Sprintf(`IF(%s<MIN(%s),"api",%s)`, cell(view.APIPerMonth), strings.Join(least, ","), cheapest)
	}
	links[view.Cheapest] = cheapest
}

// apiPriceLink is an API's price per million tokens of the deployment's
// mix, from its prices in APIs; "" where APIs does not hold them all.
func apiPriceLink(d deploy.Result, a *deploy.APISide) string {
	if a.InputAt.Sheet == "" || a.OutputAt.Sheet == "" || d.MixCached != 0 && a.CachedAt.Sheet == "" {
		return ""
	}
	price := fmt.Sprintf("(%s*%s+%s*%s", num(d.MixIn), cellRef(a.InputAt), num(d.MixOut), cellRef(a.OutputAt))
	if d.MixCached > 0 {
		price += fmt.Sprintf("+%s*%s", num(d.MixCached), cellRef(a.CachedAt))
	}
	price += ")/" + num(d.MixIn+d.MixCached+d.MixOut)
	if a.RateAt.Sheet != "" {
		price = "(" + price + "*" + cellRef(a.RateAt) + ")" // a factor of the formulas that read it
	}
	return price
}

// deploymentInputs are the Deployments cells a costs row reads, as formula
// text; "" where planner's own value stands (cards it sized).
type deploymentInputs struct{ cards, replicas, hours, usage, peak, per string }

// perReplica is the tokens per second one replica serves as formula text
// where Deployments does not type them; "" reads Deployments' cell.
func deploymentRefs(d deploy.Result, perReplica string) deploymentInputs {
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
		switch {
		case d.Operating != nil:
			sized = strconv.Itoa(d.Operating.Used[0].Cards) // the cards the curve was measured on
		case d.SizedCards > 0:
			sized = strconv.Itoa(d.SizedCards)
		}
		in.cards = fmt.Sprintf("IF(%s>0,%s,%s)", c, c, sized)
	}
	if r := ref("replicas"); r != "" {
		in.replicas = "MAX(1," + r + ")"
		per := ref("tokens")
		if perReplica != "" {
			per = perReplica
		}
		if peak := ref("peak"); peak != "" && per != "" {
			in.peak, in.per = peak, per
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
		if o.Label() == d.Offer.Label() && o.HasBreakeven() {
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
