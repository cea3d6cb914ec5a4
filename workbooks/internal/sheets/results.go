package sheets

import (
	"fmt"
	"slices"
	"strings"

	"planner/deploy"
	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/facts"
	"planner/fleet"
	"planner/formulas"
	"planner/montecarlo"
	"planner/sizing"
	"planner/units"
	"planner/view"
	"planner/whatif"
	"planner/workbooks/internal/grid"
)

// Output is what eval writes back into a workbook.
// currency is the currency the model's money is in.
func (out Output) currency() units.Currency { return out.Plan.Currency() }

type Output struct {
	Version     string           // planner's version, for the provenance line
	Plan        *engine.Plan     // the compiled model
	Results     []*engine.Result // one per scenario, base first
	Overrides   []string         // command-line overrides the results were computed with
	Sizing      []sizing.Result  // every catalog model on every catalog GPU
	Deployments []deploy.Result
	Fleet       fleet.Fleet             // every deployment together
	MonteCarlo  []*montecarlo.Result    // one per scenario, as Results; none when not run
	WhatIfs     *whatif.Report          // tornado, data tables, break-even curve, goals; nil when not run
	Set         map[string]domain.Value // inputs overridden on the command line: written as values, not linked
	Names       map[string]DefinedName  // the workbook's defined names before writing
	Warnings    diag.Diagnostics        // what eval warns of the workbook, listed under Results
	inputs      string                  // the inputs' fingerprint, once Owned has it
}

// inputsFingerprint is the fingerprint of the inputs the provenance line
// gives, taken once for all of Owned's sheets: it lists every fact.
func (out Output) inputsFingerprint() string {
	if out.inputs != "" {
		return out.inputs
	}
	return facts.Fingerprint(out.Plan.Model(), out.Overrides...)
}

// Columns of the Results sheet: what a reader calls a row (A), the name
// formulas use (B), the unit (C), then a column per scenario (or per offer)
// from firstValue, and the notes to their right.
const (
	firstValue = 4

	labelWidth = 32
	nameWidth  = 28
	unitWidth  = 9
	valueWidth = 13
	// minValueWidth is the narrowest a value column gets to keep the
	// sheet one page wide: $104,112.42 still fits.
	minValueWidth = 11
	notesWidth    = 42
)

// resultsGrid lays out the Results sheet: every formula per scenario, the
// offers of the node's GPU with break-even and verdict, the other offers,
// and the inputs the numbers came from. Values sit in columns D onwards;
// descriptions share one column to their right. Each row is known by its
// label first, the name formulas use beside it.
func resultsGrid(out Output) (*grid.Grid, *resultsLayout) {
	base := out.Results[0]
	compared := comparedOffers(base)
	notesCol := firstValue + max(len(out.Results), len(compared), 2)
	g := grid.NewOwned(Results, HeaderRow, 1, resultsWidths(notesCol)...)
	// Each table of Results has columns of its own: each prints with its
	// own header atop every page it continues on.
	g.RepeatTableHeaders()

	provenance(g, "Results", out)
	scenarioHeader(g, HeaderRow, out.Results, notesCol, "Description", "Result", "Name", "Unit")
	g.Table(HeaderRow, HeaderRow, HeaderRow)
	lay := newResultsLayout()
	row := HeaderRow + 1
	for _, f := range out.Plan.Formulas() {
		if out.Plan.PerOffer(f.Name) {
			continue
		}
		namedRow(g, row, formulas.LabelOf(f), f.Name, out.currency().Unit(f.Unit))
		for i, r := range out.Results {
			g.Set(firstValue+i, row, valueCell(out.currency(), r.Values, r.Errors, f.Name, f.Unit))
		}
		g.Note(notesCol, row, f.Doc)
		row += g.Fit(row)
		if grid.NameProblem(f.Name) == "" {
			g.Name(f.Name, firstValue, row)
		}
		lay.formulaRow[f.Name] = row
		row++
	}
	for _, section := range []func(){
		func() { sizingSection(g, out, notesCol, lay) },
		func() { offersSection(g, out, compared, notesCol, lay) },
		func() { breakevenMatrix(g, out, notesCol, lay) },
		func() { scenarioMatrices(g, out, lay) },
		func() { verdictWords(g, out, lay) },
		func() { otherOffers(g, base, out.currency()) },
		func() { operatingSection(g, out, notesCol) },
		func() { inputsSection(g, out, notesCol, lay) },
		func() { fleetPowerSection(g, out, lay) },
		func() { closeCalls(g, out) },
		func() { warnings(g, out.Warnings) },
	} {
		section()
	}
	liveFormulas(g, out, compared, lay)
	return g, lay
}

// resultsWidths are the widths of Results' columns: its value columns as
// wide as they can be while the sheet fits a page's width, down to
// minValueWidth; narrower, it prints across pages.
func resultsWidths(notesCol int) []float64 {
	var widths []float64
	for w := float64(valueWidth); w >= minValueWidth; w-- {
		widths = []float64{labelWidth, nameWidth, unitWidth}
		for c := firstValue; c < notesCol; c++ {
			widths = append(widths, w)
		}
		widths = append(widths, notesWidth)
		if grid.FitsPageWidth(widths) {
			break
		}
	}
	return widths
}

// valueWidthOf is the width of the value columns of Results' grid.
func valueWidthOf(g *grid.Grid) float64 { return g.Widths()[firstValue-1] }

// sizingSection shows, per scenario, its model sized on its GPU: the names
// formulas can use.
func sizingSection(g *grid.Grid, out Output, notesCol int, lay *resultsLayout) {
	if out.Results[0].Sizing == nil {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Sizing: each scenario's model on its GPU (names formulas can use)", grid.StyleSection))
	row++
	scenarioHeader(g, row, out.Results, notesCol, "Description", "Sized", "Name", "Unit")
	g.Table(row-1, row, row)
	textRow := func(name, doc string, value func(r *engine.Result) string) {
		row++
		namedRow(g, row, formulas.Readable(name), name, "text")
		for i, r := range out.Results {
			g.Set(firstValue+i, row, grid.Text(value(r), grid.StyleLabel))
		}
		g.Note(notesCol, row, doc)
		row += g.Fit(row)
	}
	textRow(domain.ModelName, "The model sized.", func(r *engine.Result) string { return r.Text[domain.ModelName] })
	textRow(domain.GPU, "The GPU it is sized on.", func(r *engine.Result) string { return r.Text[domain.GPU] })
	docs := map[string]string{
		domain.WeightsGB:      "Parameters × bytes per parameter.",
		domain.GPUMemoryGB:    "Memory of one card.",
		domain.MinCardsName:   "Cards whose memory holds the weights, rounded up to 1, 2, 4, 8 or 16.",
		domain.UsualCardsName: "Cards with the KV-cache reserve, rounded the same way: the replica's size.",
		domain.KVGBPerReplica: "Memory left for the KV cache at the usual count.",
	}
	for _, name := range domain.SizingNames() {
		row++
		namedRow(g, row, formulas.Readable(name), name, sizingUnit(name))
		for i, r := range out.Results {
			c := valueCell(out.currency(), r.Values, nil, name, sizingUnit(name))
			if _, ok := r.Values[name]; !ok && r.Sizing != nil {
				c = grid.Text("#N/A: "+r.Sizing.Note, grid.StyleError)
			}
			g.Set(firstValue+i, row, c)
		}
		g.Note(notesCol, row, docs[name]+" Sized by planner from the GPUs and Models sheets: a value, not a formula; run planner eval after changing them.")
		row += g.Fit(row)
		lay.sizingRow[name] = row
	}
}

func sizingUnit(name string) string {
	switch name {
	case domain.MinCardsName, domain.UsualCardsName:
		return "cards"
	}
	return "GB"
}

// breakevenMatrix shows the break-even utilisation of every offer in every
// scenario whose GPU it is for, coloured by that scenario's verdict.
func breakevenMatrix(g *grid.Grid, out Output, notesCol int, lay *resultsLayout) {
	cur := out.currency()
	if len(out.Plan.Model().Offers) == 0 {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Break-even utilisation by offer and scenario: green, owning is cheaper at the scenario's utilisation; red, renting is", grid.StyleSection))
	row++
	scenarioHeader(g, row, out.Results, 0, "", "Offer", "GPU", cur.Words("$/GPU-hour"))
	g.Table(row-1, row, row)
	for j, o := range out.Plan.Model().Offers {
		row++
		g.Line(row, grid.Text(o.Label(), grid.StyleLabel), grid.Text(o.GPU, grid.StyleLabel),
			grid.Linked(grid.Number(o.Price, grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/GPU-h"))), priceLink(o)))
		for i, r := range out.Results {
			switch or := r.Offers[j]; {
			case or.Compared && !o.HasBreakeven():
				g.Set(firstValue+i, row, grid.Text(domain.NoBreakevenShort, grid.StyleLabel))
			case or.Compared:
				g.Set(firstValue+i, row, valueCell(out.currency(), or.Values, or.Errors, domain.Breakeven, view.BreakevenFormat))
			}
		}
		row += g.Fit(row)
		lay.matrixRow[j] = row
	}
	var lacking []string
	for _, r := range out.Results {
		if r.NoOffer != "" {
			lacking = append(lacking, r.NoOffer)
		}
	}
	if len(lacking) > 0 {
		row++
		g.Line(row, grid.Text("(no offer)", grid.StyleLabel))
		for i, r := range out.Results {
			if r.NoOffer != "" {
				g.Set(firstValue+i, row, grid.Text(r.NoOffer, grid.StyleError))
			}
		}
		g.WrapHeight(row, valueWidthOf(g), lacking...)
		g.Fit(row)
	}
}

// monteCarloOf is the named scenario's Monte Carlo run, or nil.
func (out Output) monteCarloOf(scenario string) *montecarlo.Result {
	for _, mc := range out.MonteCarlo {
		if mc.Scenario == scenario {
			return mc
		}
	}
	return nil
}

// verdictWords gives each scenario's verdict against each of its offers in a
// sentence a memo can quote.
func verdictWords(g *grid.Grid, out Output, lay *resultsLayout) {
	row := g.Next() + 1
	g.Line(row, grid.Text("Verdicts in words", grid.StyleSection))
	row++
	g.Line(row, grid.Headers("Scenario", "Verdict", "Why")...)
	g.Table(row-1, row, row)
	first := row + 1
	for i, r := range out.Results {
		if r.NoOffer != "" {
			row++
			g.Line(row, grid.Text(r.Scenario, grid.StyleLabel))
			g.Sentence(3, row, 0, r.NoOffer, grid.StyleError)
			row += g.Fit(row)
		}
		for j, o := range r.Offers {
			if o.Words == "" {
				continue
			}
			row++
			g.Line(row, grid.Text(r.Scenario, grid.StyleLabel), grid.Text(o.Verdict, grid.StyleVerdict))
			g.Sentence(3, row, 0, o.Words, grid.StyleLabel)
			row += g.Fit(row)
			lay.words = append(lay.words, wordsRow{row: row, scenario: i, offer: j})
		}
	}
	if len(lay.words) > 0 {
		shadeVerdicts(g, fmt.Sprintf("B%d:B%d", first, row))
	}
}

// closeCalls lists the verdicts Monte Carlo (or a thin margin) makes
// uncertain, and the scenarios whose base lies outside their samples'
// P5–P95 of cost per GPU-hour, each on one line that runs across the sheet. It comes last:
// its length follows the inputs, and a recalculation must not find the
// live cells below it moved.
func closeCalls(g *grid.Grid, out Output) {
	var lines []string
	for _, r := range out.Results {
		mc := out.monteCarloOf(r.Scenario)
		calls := montecarlo.CloseCalls(r, mc, out.currency())
		for i, o := range r.Offers {
			if c := calls[i]; c.Close {
				lines = append(lines, r.Scenario+" against "+o.Offer.Label()+", "+o.Verdict+": "+c.Why)
			}
		}
		if s := montecarlo.BaseOutside(mc, out.currency()); s != "" {
			lines = append(lines, r.Scenario+": "+s)
		}
	}
	if len(lines) == 0 {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Close calls (from Monte Carlo: values, not live; the line below says when an input changed since planner eval)", grid.StyleSection))
	g.Table(row, row, row)
	flag := row + 1
	g.Sentence(1, flag, 0, UpToDate, grid.StyleLabel)
	flag += g.Fit(flag)
	row = flag
	for _, l := range lines {
		row++
		g.Sentence(1, row, 0, l, grid.StyleLabel)
		row += g.Fit(row)
	}
	closeCallChecks(g, out, flag)
}

// closeCallChecks writes, under the close calls, the inputs Monte Carlo read (every input's
// value, range and distribution, the scenarios' cells, every offer's price
// and billing, and every cell of the input sheets it read), each row a check, and makes the close calls' line at flag
// the live flag over them.
func closeCallChecks(g *grid.Grid, out Output, flag int) {
	m := out.Plan.Model()
	rows := inputChecks(m)
	for _, o := range m.Offers {
		rows = append(rows, checkRow{"offer " + o.Label() + " in Cloud", offerChecks(o)})
	}
	rows = append(rows, censusChecks(m.Read, false)...)
	checks := writeChecks(g, "The inputs Monte Carlo read: 1 while a row is as planner eval read it, 0 once it changed", firstValue, g.Next()+1, rows)
	if checks != "" {
		flagAt(g, 1, flag, 0, checks)
	}
}

// warnings lists, last, what eval warned of, each at its sheet and cell
// (not the file: its path is how it was called, not what it holds).
func warnings(g *grid.Grid, ds diag.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Warnings (as planner eval printed them; run planner eval again after acting on them)", grid.StyleSection))
	g.Table(row, row, row)
	for _, err := range ds {
		line := err.Error()
		if d, ok := err.(*diag.Diagnostic); ok && d.Origin.Sheet != "" {
			line = d.Origin.Where() + ": " + d.Text()
		} else if ok {
			line = d.Text()
		}
		row++
		g.Sentence(1, row, 0, line, grid.StyleLabel)
		row += g.Fit(row)
	}
}

// provenance writes the title and the line that marks the sheet as
// planner's: version, a hash of the inputs, never a timestamp.
func provenance(g *grid.Grid, title string, out Output, more ...string) {
	g.Line(titleRow, grid.Text(title, grid.StyleTitle))
	made, computed := ownerPrefix+out.Version+" · inputs "+out.inputsFingerprint(), ""
	if len(out.Overrides) > 0 {
		computed = " · computed with " + diag.List(out.Overrides)
	}
	g.Heading(title+" · "+made+computed, ProvenanceRow)
	line := made + " · rewritten by planner eval on every run; edits here are lost" + computed
	for _, m := range more {
		line += " · " + m
	}
	g.Sentence(1, ProvenanceRow, 0, line, grid.StyleNote)
}

// valueCell is a formula's value in its unit's number format (or a number
// format of its own), or the reason it has none.
func valueCell(cur units.Currency, values map[string]float64, errs map[string]*engine.EvalError, name, unit string) grid.Cell {
	if v, ok := values[name]; ok {
		format := unit
		if !strings.ContainsAny(unit, "0#") {
			format = cur.ExcelFormatOf(unit, v)
		}
		return grid.Number(v, grid.WithFormat(grid.StyleResult, format))
	}
	if e, ok := errs[name]; ok {
		return grid.Text(e.Short(), grid.StyleError)
	}
	return grid.Cell{}
}

func comparedOffers(r *engine.Result) []engine.OfferResult {
	var out []engine.OfferResult
	for _, o := range r.Offers {
		if o.Compared {
			out = append(out, o)
		}
	}
	return out
}

// offersSection lists, for the base scenario, every offer of the node's GPU
// as a column and every figure of the view as a row: its price, the
// break-even utilisation, the verdict, every other per-offer formula, the
// payback and the price's date.
func offersSection(g *grid.Grid, out Output, compared []engine.OfferResult, notesCol int, lay *resultsLayout) {
	base := out.Results[0]
	row := g.Next() + 1
	title := "Cloud offers for " + base.Text[domain.GPU] + " (scenario " + base.Scenario + "): buy when the scenario's utilisation is at or above break-even"
	g.Line(row, grid.Text(title, grid.StyleSection))
	row++
	if len(compared) == 0 {
		g.Line(row, grid.Text(base.NoOffer, grid.StyleError))
		return
	}
	g.Line(row, grid.Headers("Result", "Name", "Unit")...)
	g.Table(row-1, row, row)
	var labels []string
	for i, o := range compared {
		g.Set(firstValue+i, row, grid.Text(o.Offer.Label(), grid.StyleHeader))
		labels = append(labels, o.Offer.Label())
	}
	g.WrapHeight(row, valueWidthOf(g), labels...)
	g.Set(notesCol, row, grid.Text("Description", grid.StyleHeader))
	offers := view.OffersOf(out.Plan, base, out.monteCarloOf(base.Scenario))
	shown := offers.Compared()
	for k, f := range offers.Figures {
		if f.In&view.Sheet == 0 || f.Optional && !slices.ContainsFunc(shown, func(o view.Offer) bool { return !o.Cells[k].Empty() }) {
			continue
		}
		row++
		namedRow(g, row, f.Title(), f.Name, f.Shown())
		for i, o := range shown {
			g.Set(firstValue+i, row, figureCell(f, o.Cells[k]))
		}
		g.Note(notesCol, row, f.Note)
		row += g.Fit(row)
		lay.remember(f, row)
		for i, o := range shown {
			if n := f.Name + "_" + domain.Slug(o.Offer.Label()); f.Formula && o.Cells[k].Number && grid.NameProblem(n) == "" {
				g.Name(n, firstValue+i, row)
			}
		}
		if f.Name == view.Verdict {
			shadeVerdicts(g, grid.CellName(firstValue, row)+":"+grid.CellName(firstValue-1+len(shown), row))
		}
	}
	taxLine(g, base, lay)
}

// remember keeps the row of a figure the live formulas refer to.
func (lay *resultsLayout) remember(f view.Figure, row int) {
	switch {
	case f.Formula:
		lay.offerRow[f.Name] = row
	case f.Name == domain.OfferPrice:
		lay.priceRow = row
	case f.Name == view.EffectivePrice:
		lay.effectiveRow = row
	case f.Name == view.Verdict:
		lay.verdictRow = row
	case f.Name == domain.PaybackMonths:
		lay.paybackRow = row
	case f.Name == view.AsOf:
		lay.asOfRow = row
	case f.Name == view.TermMonths:
		lay.termRow = row
	}
}

// figureCell is an offer's figure as the sheet holds it: a number in the
// figure's format, else its words, else the error that stands for it.
func figureCell(f view.Figure, c view.Cell) grid.Cell {
	switch {
	case f.Name == view.AsOf:
		return asOfCell(c)
	case c.Number:
		format := f.ExcelFormat()
		if !strings.ContainsAny(format, "0#") {
			format = f.Currency.ExcelFormat(format)
		}
		return grid.Number(c.Value, grid.WithFormat(grid.StyleResult, format))
	case c.Err != nil:
		return grid.Text(c.Err.Short(), grid.StyleError)
	case c.Words == "":
		return grid.Cell{}
	case f.Name == view.Verdict:
		return grid.Text(c.Words, grid.StyleVerdict)
	}
	return grid.Text(c.Words, grid.Wrapped(grid.StyleLabel))
}

// asOfLink refers to an offer's as-of cell in Cloud, through DATEVALUE
// where it holds the date as text; "" when unknown.
func asOfLink(o domain.Offer) string {
	if o.AsOfAt.Sheet == "" || o.AsOf == "" {
		return ""
	}
	if o.AsOfText && o.AsOfSerial > 0 {
		return "DATEVALUE(" + cellRef(o.AsOfAt) + ")"
	}
	return cellRef(o.AsOfAt)
}

// asOfCell is the day an offer's price was listed: a date, whether Cloud
// holds a date or the text of one; else Cloud's text.
func asOfCell(c view.Cell) grid.Cell {
	if c.Number {
		return grid.Number(c.Value, grid.WithFormat(grid.StyleLabel, "yyyy-mm-dd"))
	}
	return grid.Text(c.Words, grid.StyleLabel)
}

// otherOffers lists the offers of other GPUs: shown, never compared.
func otherOffers(g *grid.Grid, base *engine.Result, cur units.Currency) {
	var others []engine.OfferResult
	for _, o := range base.Offers {
		if !o.Compared {
			others = append(others, o)
		}
	}
	if len(others) == 0 {
		return
	}
	row := g.Next() + 1
	g.Line(row, grid.Text("Offers for other GPUs: listed, not compared", grid.StyleSection))
	row++
	g.Line(row, grid.Headers("Offer", "GPU", cur.Words("$/GPU-hour"), "As of")...)
	g.Table(row-1, row, row)
	for _, o := range others {
		row++
		g.Line(row, grid.Text(o.Offer.Label(), grid.StyleLabel), grid.Text(o.Offer.GPU, grid.StyleLabel),
			grid.Linked(grid.Number(o.Offer.Price, grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/GPU-h"))), priceLink(*o.Offer)),
			grid.Linked(asOfCell(view.AsOfCell(*o.Offer)), asOfLink(*o.Offer)))
		row += g.Fit(row)
	}
}

// inputsSection repeats the inputs per scenario: what the numbers above were
// computed from.
func inputsSection(g *grid.Grid, out Output, notesCol int, lay *resultsLayout) {
	cur := out.currency()
	row := g.Next() + 1
	g.Line(row, grid.Text("Inputs these results were computed from", grid.StyleSection))
	row++
	scenarioHeader(g, row, out.Results, notesCol, "Source / notes", "Input", "Name", "Unit")
	g.Table(row-1, row, row)
	for _, in := range resultInputs(out.Plan) {
		row++
		namedRow(g, row, formulas.Readable(in.Name), in.Name, cur.Unit(in.Unit))
		for i, r := range out.Results {
			switch v, ok := r.Values[in.Name]; {
			case in.Value.IsText:
				g.Set(firstValue+i, row, grid.Text(r.Text[in.Name], grid.StyleLabel))
			case ok:
				g.Set(firstValue+i, row, grid.Number(v, grid.WithFormat(grid.StyleResult, cur.ExcelFormat(in.Unit))))
			}
		}
		note := in.Notes
		if in.Name == domain.GPUWatts {
			note = wattsNote(out, in)
		}
		if readByEval(in.Name) {
			note = "A value, read by planner eval: after changing it, run planner eval. " + note
		}
		if _, set := out.Set[in.Name]; set {
			note = "Set on the command line for this run (a value, not linked to Assumptions). " + note
		}
		g.Note(notesCol, row, note)
		row += g.Fit(row)
		lay.inputRow[in.Name] = row
	}
}

// resultInputs are the inputs Results repeats: the Assumptions', and
// gpu_watts where planner takes it from the GPUs sheet.
func resultInputs(p *engine.Plan) []domain.Input {
	m := p.Model()
	ins := m.Inputs
	if _, typed := m.Input(domain.GPUWatts); !typed {
		if watts, ok := p.Settable(domain.GPUWatts); ok {
			ins = append(ins[:len(ins):len(ins)], watts)
		}
	}
	return ins
}

// wattsNote says where each scenario's board watts came from: the GPUs
// sheet, the scenario's own row, or the Assumptions.
func wattsNote(out Output, in domain.Input) string {
	var own []string
	for i, sc := range out.Plan.Model().Scenarios {
		if i+1 < len(out.Results) && out.Results[i+1].CatalogWatts == nil && hasKey(sc.Set, domain.GPUWatts) {
			own = append(own, sc.Name+" ("+sc.Where[domain.GPUWatts].Where()+")")
		}
	}
	note := "Board power per GPU: from the GPUs sheet for each scenario's GPU (linked)."
	if in.Origin.Sheet != "" {
		note = in.Notes + " Holds for the scenarios on the Assumptions' GPU; scenarios on another GPU take its watts from the GPUs sheet."
	}
	if len(own) > 0 {
		note += " Set by the scenario itself, overriding the GPUs sheet: " + diag.List(own) + "."
	}
	return note
}

// namedRow starts a row of Results: its label, its name and its unit.
func namedRow(g *grid.Grid, row int, label, name, unit string) {
	g.Line(row, grid.Text(label, grid.Wrapped(grid.StyleLabel)), grid.Text(name, grid.StyleName), grid.Text(unit, grid.StyleLabel))
	g.WrapHeight(row, labelWidth, label)
}

func hasKey(m map[string]domain.Value, k string) bool { _, ok := m[k]; return ok }

// scenarioHeader writes a header row: the titles of the first columns,
// then one column per scenario, tall enough for long scenario names, and
// the notes column's title.
func scenarioHeader(g *grid.Grid, row int, results []*engine.Result, notesCol int, notes string, first ...string) {
	g.Line(row, grid.Headers(first...)...)
	var names []string
	for i, r := range results {
		g.Set(len(first)+1+i, row, grid.Text(r.Scenario, grid.StyleHeader))
		names = append(names, r.Scenario)
	}
	if notesCol > 0 {
		g.Set(notesCol, row, grid.Text(notes, grid.StyleHeader))
	}
	g.WrapHeight(row, valueWidthOf(g), names...)
}
