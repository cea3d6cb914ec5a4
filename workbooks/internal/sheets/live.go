package sheets

import (
	"fmt"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/finance"
	"planner/formulas"
	"planner/units"
	"planner/wording"
	"planner/workbooks/internal/grid"
)

// The Results sheet is live: every value planner can express as an Excel
// formula is written as that formula with planner's value as its cached
// value, so Excel, LibreOffice or Google Sheets recalculate it the moment
// the user changes an input, and agree with planner until then. The inputs
// section links each input to its Assumptions cell (by its defined name) or
// to the Scenarios cell that overrides it; the formulas section computes
// each scenario's column from its own inputs; the offers link to their
// price in Cloud. What cannot be linked (sizing, a --set override, a
// formula without a translation) stays a value.

// resultsLayout is where resultsGrid put what.
type resultsLayout struct {
	// fleetPowerRow are the rows of the fleet's power on Results, in the
	// order of fleetPowerFigures; fleetPowerAt the Fleet sheet's totals
	// they link to.
	fleetPowerRow []int
	fleetPowerAt  []string
	// fleetFlagRow is the row of Results' copy of the Fleet sheet's flag,
	// fleetFlagAt that flag's cell.
	fleetFlagRow int
	fleetFlagAt  string
	formulaRow   map[string]int // node-level formula -> its row; scenario i in column firstValue+i
	inputRow     map[string]int // inputs section
	sizingRow    map[string]int
	priceRow     int // the offers section: price row, offers in columns from firstValue
	// effectiveRow is the effective price per used GPU-hour, the price the
	// per-offer rows read when some offer bills other than by its used
	// hours; 0 when none does.
	effectiveRow int
	offerRow     map[string]int // per-offer formula -> row of the offers section
	verdictRow   int            // the offers section's verdicts
	paybackRow   int            // its paybacks; 0 when it has none
	asOfRow      int            // and the prices' dates
	termRow      int            // a term's months; 0 when no offer has a term
	taxRow       int            // the words before or after tax; 0 when there are none
	matrixRow    map[int]int    // model offer index -> row of the break-even matrix
	npvRow       map[int]int    // model offer index -> its NPV's row in the NPV and payback matrix
	// paybackMatrixRow is the offer's payback row there, when some
	// scenario has its payback.
	paybackMatrixRow map[int]int
	words            []wordsRow // the verdicts in words
	// unshown holds the break-even formula of an offer that has none to
	// show (domain.Billing.HasBreakeven), by the cell it would be in: the
	// verdict still compares the utilisation with it.
	unshown map[string]string
}

// wordsRow is one verdict in words: scenario i's against model offer j.
type wordsRow struct{ row, scenario, offer int }

func newResultsLayout() *resultsLayout {
	return &resultsLayout{formulaRow: map[string]int{}, inputRow: map[string]int{}, sizingRow: map[string]int{},
		offerRow: map[string]int{}, matrixRow: map[int]int{}, npvRow: map[int]int{}, paybackMatrixRow: map[int]int{},
		unshown: map[string]string{}}
}

// liveFormulas turns the Results values into formulas where it can.
func liveFormulas(g *grid.Grid, out Output, compared []engine.OfferResult, lay *resultsLayout) {
	l := linker{g: g, out: out, lay: lay, env: out.Plan.Env(), templates: map[*formulas.Checked]*formulas.ExcelTemplate{},
		inputList: resultInputs(out.Plan), memo: &memo{}}
	for i := range out.Results {
		l.inputs(i)
		l.nodeFormulas(i)
		l.matrix(i)
	}
	for i := range out.Results {
		l.scenarioMatrices(i)
	}
	l.offers(compared)
	l.verdicts(compared)
	l.words()
	l.taxLine()
}

type linker struct {
	g   *grid.Grid
	out Output
	lay *resultsLayout
	env formulas.Env
	// templates translate each formula once, for every column it is
	// written in.
	templates map[*formulas.Checked]*formulas.ExcelTemplate
	inputList []domain.Input // resultInputs, listed once for every scenario
	memo      *memo          // the references of the column last asked for
}

// excel is c.Excel(l.env, ref).
func (l linker) excel(c *formulas.Checked, ref func(string) (string, error)) (string, error) {
	t, ok := l.templates[c]
	if !ok {
		t = c.ExcelTemplate(l.env)
		l.templates[c] = t
	}
	return t.Fill(ref)
}

// inputs links scenario i's inputs: to the Scenarios cell that sets one,
// else to the Assumptions cell. A command-line override stays a value.
func (l linker) inputs(i int) {
	sc := l.scenario(i)
	for _, in := range l.inputList {
		row, ok := l.lay.inputRow[in.Name]
		if !ok || readByEval(in.Name) || l.out.Plan.FollowsOverride(sc.Name, in.Name, l.out.Set) {
			continue
		}
		if at, set := sc.Where[in.Name]; set && at.Sheet != "" {
			l.g.Link(firstValue+i, row, linkTo(in, cellRef(at)))
			continue
		}
		if w := l.out.Results[i].CatalogWatts; in.Name == domain.GPUWatts && w != nil {
			if w.WattsAt.Sheet != "" {
				l.g.Link(firstValue+i, row, linkTo(in, cellRef(w.WattsAt)))
			}
			continue
		}
		if _, set := l.out.Set[in.Name]; set {
			continue
		}
		if f := l.idleWatts(i, in); f != "" {
			l.g.Link(firstValue+i, row, f)
			continue
		}
		if in.Origin.Sheet != "" {
			l.g.Link(firstValue+i, row, linkTo(in, l.assumption(in)))
		}
	}
}

// idleWatts is the live formula of scenario i's idle watts where its
// board watts come from the GPUs sheet: the Assumptions' gpu_idle_watts
// when above 0, else the GPUs sheet's idle watts of its GPU (an empty cell
// none), as the engine takes them (setIdleWatts); "" elsewhere.
func (l linker) idleWatts(i int, in domain.Input) string {
	w := l.out.Results[i].CatalogWatts
	if in.Name != domain.GPUIdleWatts || w == nil || w.IdleWattsAt.Sheet == "" {
		return ""
	}
	gpus := "N(" + cellRef(w.IdleWattsAt) + ")"
	if in.Origin.Sheet == "" {
		return gpus
	}
	typed := linkTo(in, l.assumption(in))
	return spliced("IF(%s>0,%s,%s)", typed, typed, gpus)
}

// readByEval reports whether an input decides more than numbers a formula
// can follow: the GPU (which offers are compared, its watts, the sizing),
// the model and the precision. Results shows them as values.
func readByEval(name string) bool {
	return name == domain.GPU || name == domain.ModelName || name == domain.Precision
}

// linkTo is the formula of an inputs-section cell that reads ref: ""&ref
// keeps an empty text empty (a bare reference reads 0); VALUE(ref) reads a
// number typed as text ("50%", or retyped so after planner ran) as the
// number planner reads, and a number as itself.
func linkTo(in domain.Input, ref string) string {
	if in.Value.IsText {
		return `""&` + ref
	}
	return "VALUE(" + ref + ")"
}

// scenario is the i-th scenario of the results, base first.
func (l linker) scenario(i int) domain.Scenario {
	if i == 0 {
		return domain.Scenario{Name: domain.Base}
	}
	return l.out.Plan.Model().Scenarios[i-1]
}

// assumption refers to an input's Assumptions cell: by its defined name
// when the workbook has one spelled so and pointing there (init makes
// them; an input added later has none), else by the cell.
func (l linker) assumption(in domain.Input) string {
	cell := cellRef(in.Origin)
	if dn, ok := l.out.Names[strings.ToLower(in.Name)]; ok && dn.Name == in.Name && dn.RefersTo == cell && grid.NameProblem(in.Name) == "" {
		return in.Name
	}
	return cell
}

// usable reports whether the formula's name may stand for its Results cell
// target: a valid Excel name, not a function's or a cell's, that no other
// name of the workbook takes, whatever its case (Excel ignores case), so
// that planner defines it there.
func (l linker) usable(name, target string) bool {
	if grid.NameProblem(name) != "" {
		return false
	}
	dn, ok := l.out.Names[strings.ToLower(name)]
	return !ok || dn.Name == name && (dn.RefersTo == target || dn.Planners)
}

func cellRef(o diag.Origin) string { return grid.Absolute(o.Sheet, o.Col, o.Row) }

// priceRef reads an offer's price from Cloud, as a number, in the
// workbook's currency: times its FX rate when it is listed in another.
func priceRef(o domain.Offer) string {
	ref := cellRef(o.PriceAt)
	if o.PriceText {
		ref = "VALUE(" + ref + ")"
	}
	if o.RateAt.Sheet != "" {
		ref = "(" + ref + "*" + cellRef(o.RateAt) + ")" // a factor of the formulas that read it
	}
	return ref
}

// nodeFormulas links scenario i's formula cells.
func (l linker) nodeFormulas(i int) {
	col := firstValue + i
	for _, c := range l.out.Plan.Checked() {
		row, ok := l.lay.formulaRow[c.Name]
		if !ok {
			continue
		}
		if s, err := l.excel(c, l.refs(i, "")); err == nil {
			l.g.Link(col, row, s)
		}
	}
}

// refs resolves the names of a formula in scenario column i; price is the
// reference of offer_price, for a per-offer formula.
func (l linker) refs(i int, price string) func(string) (string, error) {
	return func(name string) (string, error) {
		if name == domain.OfferPrice && price != "" {
			return price, nil
		}
		return l.ref(i, name)
	}
}

// ref is how scenario column i refers to a name, worked out once for the
// column: its formulas are written out for every offer, each reading the
// same names.
func (l linker) ref(i int, name string) (string, error) {
	m := l.memo
	if m.col != i || m.refs == nil {
		m.col, m.refs = i, map[string]answer{}
	}
	if a, ok := m.refs[name]; ok {
		return a.ref, a.err
	}
	r, err := l.refOf(i, name)
	m.refs[name] = answer{r, err}
	return r, err
}

// memo holds the references of one scenario column.
type memo struct {
	col  int
	refs map[string]answer
}

type answer struct {
	ref string
	err error
}

// refOf is ref worked out.
func (l linker) refOf(i int, name string) (string, error) {
	col := firstValue + i
	base := i == 0
	if row, ok := l.lay.formulaRow[name]; ok {
		if base && l.usable(name, grid.Absolute(Results, col, row)) {
			return name, nil
		}
		return grid.CellName(col, row), nil
	}
	if row, ok := l.lay.inputRow[name]; ok {
		// The base column reads an input by its name where it can; the
		// inputs section's cell (its own column's) holds the rest.
		// Idle watts that may come from the GPUs sheet are its cell too.
		if _, overridden := l.out.Set[name]; base && !overridden {
			in, _ := l.input(name)
			if !in.TextCell && in.Origin.Sheet != "" && !readByEval(name) && l.idleWatts(i, in) == "" {
				if ref := l.assumption(in); ref == in.Name {
					return ref, nil
				}
			}
		}
		return grid.CellName(col, row), nil
	}
	if row, ok := l.lay.sizingRow[name]; ok {
		return grid.CellName(col, row), nil
	}
	return "", fmt.Errorf("%s is not on the Results sheet", name)
}

func (l linker) input(name string) (domain.Input, bool) {
	m := l.out.Plan.Model()
	return m.Input(name)
}

// offers links the offers section: each price to its Cloud cell, each
// per-offer formula to the price above it and the base scenario's cells.
func (l linker) offers(compared []engine.OfferResult) {
	for j, o := range compared {
		col := firstValue + j
		price := grid.CellName(col, l.lay.priceRow)
		listPrice := price
		if o.Offer.PriceAt.Sheet != "" {
			l.g.Link(col, l.lay.priceRow, priceRef(*o.Offer))
		}
		if at := o.Offer.TermAt; l.lay.termRow > 0 && at.Sheet != "" && o.Offer.KindOrDefault() == domain.AllHours {
			l.g.Link(col, l.lay.termRow, cellRef(at)) // the renewals follow it
		}
		if l.lay.effectiveRow > 0 {
			if s, ok := l.effectivePrice(*o.Offer, price, 0); ok {
				l.g.Link(col, l.lay.effectiveRow, s)
			}
			price = grid.CellName(col, l.lay.effectiveRow)
		}
		for _, c := range l.out.Plan.Checked() {
			row, ok := l.lay.offerRow[c.Name]
			if !ok {
				continue
			}
			refs := l.refs(0, price)
			resolve := func(name string) (string, error) {
				if r, ok := l.lay.offerRow[name]; ok {
					return grid.CellName(col, r), nil
				}
				if name == domain.OfferRenewalMonths {
					return renewalRef(*o.Offer), nil
				}
				return refs(name)
			}
			asWritten, err := l.excel(c, resolve)
			if s, ok := l.exactBreakeven(*o.Offer, listPrice, 0, price, asWritten); ok && err == nil && c.Name == domain.Breakeven {
				l.g.Link(col, row, s)
			} else if s, err := asWritten, err; err == nil {
				l.link(col, row, s, c.Name == domain.Breakeven && !o.Offer.HasBreakeven())
			}
		}
		if finance.PaybackOf(l.out.Results[0], o).Known() && l.lay.paybackRow > 0 {
			if s, ok := l.payback(col, price, *o.Offer); ok {
				l.g.Link(col, l.lay.paybackRow, s)
			}
		}
	}
}

// payback is the payback in the offers section's column col as Excel
// computes it: the first month the cash saving has repaid the price, or
// the words when it does not within the amortisation. Excel's AND
// evaluates all its arguments, so the division waits behind an IF.
func (l linker) payback(col int, price string, o domain.Offer) (string, bool) {
	row, ok := l.lay.offerRow[domain.CashSaving]
	if !ok {
		return "", false
	}
	refs := l.refs(0, price)
	saving := grid.CellName(col, row)
	flat, ok := paybackFormula(refs, saving)
	if !ok {
		return "", false
	}
	p, ok := l.pathRefs(col, o, refs)
	along, ok2 := pathPaybackFormula(refs, saving, p)
	if !ok || !ok2 {
		return flat, true
	}
	// Along a path the saving moves month by month.
	return spliced("IF(AND(%s=0,%s=0),%s,%s)", p.rent, p.power, flat, along), true
}

// paybackFormula is the payback of the monthly cash saving (a cell, or a
// formula in parentheses) with the other names resolved by refs.
func paybackFormula(refs func(string) (string, error), saving string) (string, bool) {
	capex, err1 := refs(domain.Capex)
	n, err2 := refs(domain.AmortizationMonths)
	if err1 != nil || err2 != nil {
		return "", false
	}
	within := spliced(`IF(%s=1,"1 month",%s&" months")`, n, n)
	none := `"no payback within "&` + within
	// The sale for the residual at the end, as finance.Payback counts it.
	sold := "0"
	if residual, err := refs(domain.Residual); err == nil {
		sold = capex + "*" + residual
	}
	withSale := func(saved string) string {
		return spliced(`IF(AND(%s>0,%s+%s>=%s),%s&"%s",%s)`, sold, saved, sold, capex, within, finance.SaleWords, none)
	}
	tax, ok := taxRefs(refs)
	if !ok {
		return straightPayback(capex, saving, n, withSale(saving+"*"+n), none), true
	}
	// After tax: the saving less its tax, with the tax the depreciation
	// saves, straight line or falling month by month.
	kept := spliced("(1-%s)*%s", tax.rate, saving)
	after := spliced("(%s+%s*%s)", kept, tax.rate, tax.perMonth)
	straight := straightPayback(capex, after, n, withSale(after+"*"+n), none)
	amount := spliced("%s*(1-%s)", capex, tax.residual)
	declining := decliningPayback(capex, kept, n, withSale(spliced("%s*%s+%s*%s", kept, n, tax.rate, amount)), tax)
	return spliced("IF(OR(%s=0,%s=0),%s,%s)", tax.rate, tax.depreciation, straight, declining), true
}

// straightPayback is the payback of a saving the same every month: the
// price over the saving, rounded up, within the amortisation n; else late,
// what the sale at the end makes of it.
func straightPayback(capex, saving, n, late, none string) string {
	months := spliced("ROUNDUP(%s/%s,0)", capex, saving)
	return spliced("IF(%s>0,IF(%s<=%s,MAX(1,%s),%s),%s)", saving, months, n, months, late, none)
}

// decliningPayback is the payback after tax with a declining-balance
// depreciation: one month after the months 1 to n-1 whose saving kept and
// tax saved so far fall short of the price, as they rise month by month;
// else the last month, in which the rest is written off, if it repays;
// else late, what the sale at the end makes of it.
func decliningPayback(capex, kept, n, late string, tax taxCells) string {
	months := spliced(`ROW(INDIRECT("1:"&(%s-1)))`, n)
	amount := spliced("%s*(1-%s)", capex, tax.residual)
	q := spliced("(1-%s/12)", tax.depreciation)
	short := spliced("IF(%s=1,0,SUMPRODUCT(--(%s*%s+%s*(%s*(1-%s^%s))<%s)))", n, kept, months, tax.rate, amount, q, months, capex)
	last := spliced("IF(%s*%s+%s*%s>=%s,%s,%s)", kept, n, tax.rate, amount, capex, n, late)
	return spliced("IF(%s>0,IF(%s<%s-1,%s+1,%s),%s)", kept, short, n, short, last, late)
}

// taxCells are the Results cells an after-tax figure reads: the tax rate,
// the depreciation rate, the residual and the straight-line depreciation
// a month.
type taxCells struct{ rate, depreciation, residual, perMonth string }

// taxRefs finds the tax cells; false when Results lacks one, as a workbook
// whose own formulas leave the depreciation out does.
func taxRefs(refs func(string) (string, error)) (taxCells, bool) {
	var t taxCells
	for _, c := range []struct {
		name string
		ref  *string
	}{{domain.TaxRate, &t.rate}, {domain.Depreciation, &t.depreciation}, {domain.Residual, &t.residual}, {domain.DepreciationPerMonth, &t.perMonth}} {
		ref, err := refs(c.name)
		if err != nil {
			return taxCells{}, false
		}
		*c.ref = ref
	}
	return t, true
}

// checked is the plan's formula name.
func (l linker) checked(name string) (*formulas.Checked, bool) {
	for _, c := range l.out.Plan.Checked() {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// renewalRef is offer o's offer_renewal_months as Excel computes it from
// its Cloud term cell (domain.RenewalMonths): 12, or a longer term's
// months.
func renewalRef(o domain.Offer) string {
	if o.KindOrDefault() != domain.AllHours || o.TermAt.Sheet == "" {
		return units.Plain(domain.RenewalMonths(o))
	}
	return "MAX(12," + cellRef(o.TermAt) + ")"
}

// matrix links scenario i's break-even against every offer it compares,
// reading the price from Cloud.
func (l linker) matrix(i int) {
	var breakeven *formulas.Checked
	for _, c := range l.out.Plan.Checked() {
		if c.Name == domain.Breakeven {
			breakeven = c
		}
	}
	if breakeven == nil {
		return
	}
	for j, o := range l.out.Plan.Model().Offers {
		row, ok := l.lay.matrixRow[j]
		if !ok || o.PriceAt.Sheet == "" {
			continue
		}
		list, price := priceRef(o), priceRef(o)
		if l.lay.effectiveRow > 0 {
			s, ok := l.effectivePrice(o, price, i)
			if !ok {
				continue
			}
			price = "(" + s + ")"
		}
		refs, renewal := l.refs(i, price), renewalRef(o)
		var resolve func(name string) (string, error)
		resolve = func(name string) (string, error) {
			if name == domain.OfferRenewalMonths {
				return renewal, nil
			}
			if _, perOffer := l.lay.offerRow[name]; perOffer {
				// The matrix holds only the break-even: another per-offer
				// formula it reads (the NPV, with a path over the term)
				// is written out in it.
				c, ok := l.checked(name)
				if !ok {
					return "", fmt.Errorf("the matrix holds only %s", domain.Breakeven)
				}
				s, err := l.excel(c, resolve)
				return "(" + s + ")", err
			}
			return refs(name)
		}
		s, err := l.excel(breakeven, resolve)
		if exact, ok := l.exactBreakeven(o, list, i, price, s); ok && err == nil {
			l.g.Link(firstValue+i, row, exact)
		} else if err == nil {
			l.link(firstValue+i, row, s, !o.HasBreakeven())
		}
	}
}

// link writes formula s into the cell, or, for a break-even the offer
// does not have, keeps it for the verdict that reads the cell.
func (l linker) link(col, row int, s string, unshown bool) {
	if unshown {
		l.lay.unshown[grid.CellName(col, row)] = "(" + s + ")"
		return
	}
	l.g.Link(col, row, s)
}

// breakeven is what a verdict compares the utilisation with: the
// break-even's cell, or the formula of one not shown.
func (l linker) breakeven(col, row int) string {
	cell := grid.CellName(col, row)
	if s, ok := l.lay.unshown[cell]; ok {
		return s
	}
	return cell
}

// utilization reads scenario i's utilisation, fixed ($D$60) so that it
// holds in a conditional format's rule too, and through VALUE: a
// spreadsheet compares text (42% retyped as text) above every number, and
// every verdict would read buy.
func (l linker) utilization(i int) (string, bool) {
	ref, err := l.refs(i, "")(domain.Utilization)
	if err != nil {
		return "", false
	}
	return "VALUE(" + grid.Fixed(ref) + ")", true
}

// verdicts makes the offers section's verdicts follow its break-evens, and
// colours the break-even matrix by each scenario's verdict, live.
func (l linker) verdicts(compared []engine.OfferResult) {
	if u, ok := l.utilization(0); ok && l.lay.verdictRow > 0 {
		for j := range compared {
			col := firstValue + j
			be := l.breakeven(col, l.lay.offerRow[domain.Breakeven])
			l.g.Link(col, l.lay.verdictRow, excelVerdict(u+">="+be))
			if ref := asOfLink(*compared[j].Offer); ref != "" && l.lay.asOfRow > 0 {
				l.g.Link(col, l.lay.asOfRow, ref)
			}
		}
	}
	first, last := 0, 0
	for _, row := range l.lay.matrixRow {
		if first == 0 || row < first {
			first = row
		}
		last = max(last, row)
	}
	if first == 0 {
		return
	}
	for i := range l.out.Results {
		u, ok := l.utilization(i)
		if !ok {
			continue
		}
		top := grid.CellName(firstValue+i, first)
		l.g.ShadeByFormula(top+":"+grid.CellName(firstValue+i, last),
			"AND(ISNUMBER("+top+"),"+u+">="+top+")",
			"AND(ISNUMBER("+top+"),"+u+"<"+top+")")
	}
}

// words makes each verdict in words follow the break-even matrix and the
// scenario's utilisation.
func (l linker) words() {
	for _, w := range l.lay.words {
		u, ok := l.utilization(w.scenario)
		if !ok {
			continue
		}
		be := l.breakeven(firstValue+w.scenario, l.lay.matrixRow[w.offer])
		verdict := grid.CellName(2, w.row)
		l.g.Link(2, w.row, excelVerdict(u+">="+be))
		phrase := l.out.Results[w.scenario].Offers[w.offer].Phrase
		l.g.Link(3, w.row, excelPhrase(phrase, map[string]string{wording.QuantityVerdict: verdict,
			wording.QuantityUtilization: u, wording.QuantityBreakeven: be}))
	}
}
