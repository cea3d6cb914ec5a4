package workbooks

import (
	"fmt"

	"planner/engine"
	"planner/formulas"
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
	formulaRow map[string]int // node-level formula -> its row; scenario i in column 3+i
	inputRow   map[string]int // inputs section
	sizingRow  map[string]int
	priceRow   int            // the offers section: price row, offers in columns from C
	offerRow   map[string]int // per-offer formula -> row of the offers section
	matrixRow  map[int]int    // model offer index -> row of the break-even matrix
}

func newResultsLayout() *resultsLayout {
	return &resultsLayout{formulaRow: map[string]int{}, inputRow: map[string]int{}, sizingRow: map[string]int{},
		offerRow: map[string]int{}, matrixRow: map[int]int{}}
}

// liveFormulas turns the Results values into formulas where it can.
func liveFormulas(g *grid, out Output, compared []engine.OfferResult, lay *resultsLayout) {
	l := linker{g: g, out: out, lay: lay, env: env(out.Plan)}
	for i := range out.Results {
		l.inputs(i)
		l.nodeFormulas(i)
		l.matrix(i)
	}
	l.offers(compared)
}

type linker struct {
	g   *grid
	out Output
	lay *resultsLayout
	env formulas.Env
}

func env(p *engine.Plan) formulas.Env {
	e := formulas.Env{}
	for _, in := range p.Model().Inputs {
		if in.Value.IsText {
			e[in.Name] = formulas.Text
		}
	}
	return e
}

// link sets the formula of the cell at (col, row), keeping its value as
// the cached value.
func (l linker) link(col, row int, formula string) {
	if c := l.g.at(col, row); c != nil && c.value != nil {
		c.formula = formula
	}
}

// inputs links scenario i's inputs: to the Scenarios cell that sets one,
// else to the Assumptions cell. A command-line override stays a value.
func (l linker) inputs(i int) {
	sc := l.scenario(i)
	for _, in := range l.out.Plan.Model().Inputs {
		row, ok := l.lay.inputRow[in.Name]
		if !ok {
			continue
		}
		// ""&ref keeps an empty text cell empty (a bare reference reads 0).
		prefix := ""
		if in.Value.IsText {
			prefix = `""&`
		}
		if at, set := sc.Where[in.Name]; set && at.Sheet != "" {
			l.link(3+i, row, prefix+cellRef(at))
			continue
		}
		if _, set := l.out.Set[in.Name]; set {
			continue
		}
		if in.Origin.Sheet != "" {
			l.link(3+i, row, prefix+l.assumption(in))
		}
	}
}

// scenario is the i-th scenario of the results, base first.
func (l linker) scenario(i int) engine.Scenario {
	if i == 0 {
		return engine.Scenario{Name: engine.Base}
	}
	return l.out.Plan.Model().Scenarios[i-1]
}

// assumption refers to an input's Assumptions cell: by its defined name
// when the workbook has one pointing there, else by the cell.
func (l linker) assumption(in engine.Input) string {
	cell := cellRef(in.Origin)
	if l.usable(in.Name, cell) {
		return in.Name
	}
	return cell
}

// usable reports whether name may stand for target in a formula: a valid
// Excel name that is not a function's or a cell's, which the workbook
// either lacks (planner will define it) or points at target, or which is
// planner's own.
func (l linker) usable(name, target string) bool {
	if excelName(name) != "" {
		return false
	}
	dn, ok := l.out.Names[name]
	return !ok || dn.RefersTo == target || dn.Planners
}

func cellRef(o formulas.Origin) string { return absolute(o.Sheet, o.Col, o.Row) }

// nodeFormulas links scenario i's formula cells.
func (l linker) nodeFormulas(i int) {
	col := 3 + i
	for _, c := range l.out.Plan.Checked() {
		row, ok := l.lay.formulaRow[c.Name]
		if !ok {
			continue
		}
		if s, err := c.Excel(l.env, l.refs(i, "")); err == nil {
			l.link(col, row, s)
		}
	}
}

// refs resolves the names of a formula in scenario column i; price is the
// reference of offer_price, for a per-offer formula.
func (l linker) refs(i int, price string) func(string) (string, error) {
	col := 3 + i
	base := i == 0
	return func(name string) (string, error) {
		if name == engine.OfferPrice && price != "" {
			return price, nil
		}
		if row, ok := l.lay.formulaRow[name]; ok {
			if base && l.usable(name, absolute(SheetResults, col, row)) {
				return name, nil
			}
			return cellName(col, row), nil
		}
		if row, ok := l.lay.inputRow[name]; ok {
			in, _ := l.input(name)
			_, overridden := l.out.Set[name]
			if base && !overridden && in.Origin.Sheet != "" {
				return l.assumption(in), nil
			}
			return cellName(col, row), nil
		}
		if row, ok := l.lay.sizingRow[name]; ok {
			return cellName(col, row), nil
		}
		return "", fmt.Errorf("%s is not on the Results sheet", name)
	}
}

func (l linker) input(name string) (engine.Input, bool) {
	m := l.out.Plan.Model()
	return m.Input(name)
}

// offers links the offers section: each price to its Cloud cell, each
// per-offer formula to the price above it and the base scenario's cells.
func (l linker) offers(compared []engine.OfferResult) {
	for j, o := range compared {
		col := 3 + j
		price := cellName(col, l.lay.priceRow)
		if o.Offer.PriceAt.Sheet != "" {
			l.link(col, l.lay.priceRow, cellRef(o.Offer.PriceAt))
		}
		for _, c := range l.out.Plan.Checked() {
			row, ok := l.lay.offerRow[c.Name]
			if !ok {
				continue
			}
			refs := l.refs(0, price)
			resolve := func(name string) (string, error) {
				if r, ok := l.lay.offerRow[name]; ok {
					return cellName(col, r), nil
				}
				return refs(name)
			}
			if s, err := c.Excel(l.env, resolve); err == nil {
				l.link(col, row, s)
			}
		}
	}
}

// matrix links scenario i's break-even against every offer it compares,
// reading the price from Cloud.
func (l linker) matrix(i int) {
	var breakeven *formulas.Checked
	for _, c := range l.out.Plan.Checked() {
		if c.Name == engine.Breakeven {
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
		refs := l.refs(i, cellRef(o.PriceAt))
		resolve := func(name string) (string, error) {
			if _, perOffer := l.lay.offerRow[name]; perOffer {
				return "", fmt.Errorf("the matrix holds only %s", engine.Breakeven)
			}
			return refs(name)
		}
		if s, err := breakeven.Excel(l.env, resolve); err == nil {
			l.link(3+i, row, s)
		}
	}
}
