package sheets

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/units"
	"planner/whatif"
	"planner/wording"
	"planner/workbooks/internal/grid"
)

// Colours of the charts' series, Excel's own palette.
var palette = []string{"4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47", "264478", "9E480E", "636363", "997300"}

// offerPalette colours the offers' flat lines apart from the scenarios'.
var offerPalette = []string{"C00000", "7030A0", "00B050", "000000", "FF00FF", "808000", "00B0F0", "974706"}

// rowPixels is the height of a default row: a chart beside a table is sized
// and spaced in rows.
const rowPixels = 20

// sensitivityGrid is the Sensitivity sheet: a tornado per target, its
// table with its bar chart below, kept on one printed page.
func sensitivityGrid(out Output) *grid.Grid {
	g := grid.NewOwned(Sensitivity, 0, 1, 24, 10, 13, 13, 15, 15, 13, 15, 15, 40)
	provenance(g, "Sensitivity: how much each range moves the answer", out,
		"scenario "+out.Results[0].Scenario+"; each input from its low to its high in Assumptions, the others as they are")
	row := HeaderRow
	if len(out.WhatIfs.Tornadoes) == 0 {
		g.Line(row, grid.Text("No target to follow: name formulas in the Targets sheet, or pass --target.", grid.StyleNote))
	}
	charted, left := chartedTornadoes(out.WhatIfs.Tornadoes)
	if left > 0 {
		g.Line(row, grid.Text(fmt.Sprintf("Charts are drawn for each formula's %d cheapest offers; the other %d tornadoes have their tables only.", chartsPerTarget, left), grid.StyleNote))
		row += 2
	}
	for i, t := range out.WhatIfs.Tornadoes {
		row = tornadoSection(g, out.Plan, t, row, charted[i]) + 2
	}
	return g
}

// chartsPerTarget is how many of a per-offer formula's tornadoes get a
// chart: a sheet of thousands of offers is read by its tables, and a
// chart for every offer would make the workbook slow to open and to
// write.
const chartsPerTarget = 12

// chartedTornadoes says which tornadoes get a chart: every node-level
// formula's, and of each per-offer formula the chartsPerTarget offers of
// the lowest price (the rent owning is measured against first), in
// their order in Cloud among equal prices; and how many go without.
func chartedTornadoes(ts []whatif.Tornado) (charted []bool, left int) {
	charted = make([]bool, len(ts))
	byTarget := map[string][]int{}
	for i, t := range ts {
		if t.Target.Offer == nil {
			charted[i] = true
			continue
		}
		byTarget[t.Target.Name] = append(byTarget[t.Target.Name], i)
	}
	for _, idx := range byTarget {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ts[a].Target.Offer.Price, ts[b].Target.Offer.Price) })
		for k, i := range idx {
			if k < chartsPerTarget {
				charted[i] = true
			} else {
				left++
			}
		}
	}
	return charted, left
}

// tornadoSection writes one tornado from row and returns its last row.
func tornadoSection(g *grid.Grid, p *engine.Plan, t whatif.Tornado, row int, chart bool) int {
	cur := p.Currency()
	format := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(t.Unit))
	g.Line(row, grid.Text(t.Target.Label()+": "+cur.Format(t.Base, t.Unit)+" at base, by input, largest swing first", grid.StyleSection))
	header := row + 1
	g.Line(header, grid.Headers("input", "unit", "low", "high", "at low", "at high", "swing", "change at low", "change at high", "note")...)
	for i, b := range t.Bars {
		r := header + 1 + i
		inFormat := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(b.Input.Unit))
		input := []grid.Cell{grid.Text(b.Input.Name, grid.StyleLabel), grid.Text(cur.Unit(b.Input.Unit), grid.StyleLabel), grid.Number(b.Input.Low, inFormat), grid.Number(b.Input.High, inFormat)}
		// Each row is written whole: thousands of offers' tornadoes are
		// tens of thousands of rows, and a row grown cell by cell holds
		// room for twice its cells.
		switch {
		case b.Why == "":
			g.Line(r, append(input, grid.Number(b.AtLow, format), grid.Number(b.AtHigh, format), grid.Number(b.Swing, format),
				grid.Number(b.AtLow-t.Base, format), grid.Number(b.AtHigh-t.Base, format))...)
		case math.IsNaN(b.AtLow) || math.IsNaN(b.AtHigh):
			g.Line(r, append(input, grid.Text(units.NoNumber, grid.StyleError))...)
		default: // both ends are numbers; the swing between them is not
			g.Line(r, append(input, grid.Number(b.AtLow, format), grid.Number(b.AtHigh, format), grid.Text(units.NoNumber, grid.StyleError))...)
		}
		if b.Why != "" {
			g.Note(10, r, b.Why)
		}
	}
	last := header + len(t.Bars)
	for i, h := range t.Held {
		r := last + 1 + i
		inFormat := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(h.Input.Unit))
		g.Line(r, grid.Text(h.Input.Name, grid.StyleLabel), grid.Text(cur.Unit(h.Input.Unit), grid.StyleLabel), grid.Number(h.Input.Low, inFormat), grid.Number(h.Input.High, inFormat),
			grid.Text("held", grid.StyleError))
		g.Note(10, r, heldNote(h)+"; not swung")
	}
	if len(t.Bars) == 0 {
		if len(t.Held) == 0 {
			g.Line(header+1, grid.Text("No input has a range: give inputs a low and a high in Assumptions.", grid.StyleNote))
		}
		return header + max(1, len(t.Held))
	}
	last += len(t.Held)
	if !chart {
		return last
	}
	height := max(len(t.Bars)+2, 14)
	top := last + 2
	g.AddChart(grid.CellName(1, top), tornadoChart(g.Sheet(), targetLabel(p, t.Target, t.Unit), t, header, header+len(t.Bars), height, cur))
	end := top + height - 1
	g.KeepTogether(row, end)
	return end
}

// tornadoChart is a bar chart of each input's change at its low and its
// high, from the base: the widest bar on top.
func tornadoChart(sheet, label string, t whatif.Tornado, header, last, rows int, cur units.Currency) *excelize.Chart {
	overlap, gap := 100, uint(40)
	series := func(col int, colour string) excelize.ChartSeries {
		return excelize.ChartSeries{Name: grid.Absolute(sheet, col, header), Categories: grid.Span(sheet, 1, header+1, last),
			Values: grid.Span(sheet, col, header+1, last), Fill: grid.Solid(colour)}
	}
	return &excelize.Chart{
		Type:   excelize.Bar,
		Series: []excelize.ChartSeries{series(8, palette[0]), series(9, palette[1])},
		Title:  grid.ChartTitle(label + ": change from " + cur.Format(t.Base, t.Unit) + " as each input goes to its low or its high"),
		Legend: grid.Legend("bottom"),
		XAxis:  grid.Axis(excelize.ChartAxis{ReverseOrder: true, TickLabelPosition: excelize.ChartTickLabelLow}, ""),
		// The title says the unit: excelize turns a value axis's title on
		// its side, which reads wrong on a bar chart's horizontal axis.
		YAxis:     grid.Axis(excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: cur.ExcelFormat(t.Unit)}}, ""),
		Dimension: excelize.ChartDimension{Width: 720, Height: uint(rows * rowPixels)},
		Overlap:   &overlap,
		GapWidth:  &gap,
	}
}

// dataTablesGrid is the Data tables sheet: each table the Tables sheet
// asks for, one below the other, coloured as it says.
func dataTablesGrid(out Output) *grid.Grid {
	g := grid.NewOwned(DataTables, 0, 1, 24)
	provenance(g, "Data tables: the answer over a grid of inputs", out, "scenario "+out.Results[0].Scenario)
	row := HeaderRow
	if len(out.WhatIfs.Tables) == 0 {
		g.Line(row, grid.Text("The Tables sheet asks for no table.", grid.StyleNote))
	}
	for _, t := range out.WhatIfs.Tables {
		last := dataTableSection(g, out, t, row)
		g.KeepTogether(row, last) // a table prints on one page where it fits on one
		row = last + 3
	}
	return g
}

// dataTableSection writes one table from row and returns its last row.
func dataTableSection(g *grid.Grid, out Output, t *whatif.Table, row int) int {
	cur := out.currency()
	m := out.Plan.Model()
	rowUnit := UnitOf(m.Inputs, t.Spec.Row.Input)
	format := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(t.Unit))
	g.Line(row, grid.Text(t.Spec.Name, grid.StyleSection))
	g.Sentence(1, row+1, 0, describeTable(t, m.Inputs, cur), grid.StyleNote)
	header := row + 2
	corner := t.Spec.Row.Input
	var across []grid.Cell
	switch {
	case t.Spec.Col == nil:
		across = []grid.Cell{grid.Text(t.Spec.Output+" ("+cur.Unit(t.Unit)+")", grid.StyleHeader)}
		g.Width(2, min(40, float64(len(t.Spec.Output+t.Unit)+5)))
	case t.Spec.Col.Offers:
		corner += " \\ offer"
		for _, label := range t.ColLabels {
			across = append(across, grid.Text(label, grid.StyleHeader))
		}
	default:
		corner += " \\ " + t.Spec.Col.Input
		colFormat := grid.WithFormat(grid.StyleHeader, cur.ExcelFormat(UnitOf(m.Inputs, t.Spec.Col.Input)))
		for _, v := range t.ColValues {
			across = append(across, grid.Number(v, colFormat))
		}
	}
	g.Line(header, append([]grid.Cell{grid.Text(corner, grid.StyleHeader)}, across...)...)
	var labels []string
	for i, c := range across {
		if s, ok := c.TextValue(); ok && len(across) > 1 {
			labels = append(labels, s)
		}
		g.Width(2+i, 15)
	}
	g.WrapHeight(header, 15, labels...)
	for i, rv := range t.RowValues {
		r := header + 1 + i
		g.Set(1, r, grid.Number(rv, grid.WithFormat(grid.StyleHeader, cur.ExcelFormat(rowUnit))))
		for j, v := range t.Cells[i] {
			if math.IsNaN(v) {
				g.Set(2+j, r, grid.Text(units.NoNumber, grid.StyleError))
			} else {
				g.Set(2+j, r, grid.Number(v, format))
			}
		}
	}
	last := header + len(t.RowValues)
	if t.Spec.Shade != (domain.Shade{}) {
		shadeTable(g, grid.CellName(2, header+1)+":"+grid.CellName(1+len(across), last), t.Spec.Shade)
	}
	if t.Why != "" {
		last++
		g.Sentence(1, last, 0, t.Why, grid.StyleNote)
	}
	return last
}

// describeTable says in words what a table shows.
func describeTable(t *whatif.Table, inputs []domain.Input, cur units.Currency) string {
	s := t.Spec
	between := func(a domain.Axis) string {
		unit := UnitOf(inputs, a.Input)
		return fmt.Sprintf("%s from %s to %s in %d steps", a.Input, cur.Format(a.From, unit), cur.Format(a.To, unit), a.Steps)
	}
	words := fmt.Sprintf("%s (%s) with %s down the side", s.Output, cur.Unit(t.Unit), between(s.Row))
	switch {
	case s.Col == nil:
	case s.Col.Offers:
		words += ", against each offer of the node's GPU across the top"
	default:
		words += " and " + between(*s.Col) + " across the top"
	}
	switch sh := s.Shade; {
	case sh.Below:
		words += "; green below " + cur.Format(sh.Threshold, t.Unit) + ", red above"
	case sh.Above:
		words += "; green above " + cur.Format(sh.Threshold, t.Unit) + ", red below"
	case sh.Low:
		words += "; green at the low end, red at the high end"
	case sh.High:
		words += "; green at the high end, red at the low end"
	}
	if s.Notes != "" {
		words += ". " + s.Notes
	}
	return words
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// breakevenGrid is the Breakeven sheet: where each scenario's cost per used
// hour crosses each offer's price, a line chart of the curves from 1 % to
// 100 % utilisation against the offers' prices, and the curves' table.
func breakevenGrid(out Output) *grid.Grid {
	cur := out.currency()
	c := out.WhatIfs.Curve
	g := grid.NewOwned(Breakeven, 0, 1, 30, 46, 14, 14, 4)
	provenance(g, "Break-even: the cost per used GPU-hour against the offers", out)
	row := crossingsTable(g, c, HeaderRow, cur)
	m := out.Plan.Model()
	offers, prices, moving := curveOffers(&m, c)
	if len(moving) > 0 {
		row++
		why := "as their price per used GPU-hour falls as utilisation rises (a fixed part per GPU-month or per calendar hour)"
		if len(c.Term) > 0 {
			why += " or their price over the term differs between scenarios"
		}
		g.Sentence(1, row, 0, "Not drawn, "+why+": "+strings.Join(moving, ", ")+"; their break-even above is where the curve meets that price.", grid.StyleNote)
	}
	if len(c.Term) > 0 {
		row++
		g.Sentence(1, row, 0, termNote(c), grid.StyleNote)
	}
	chartTop := row + 2
	chartEnd := chartTop + curveHeight/rowPixels - 1
	// From the empty row above it: a chart whose top edge is a page's
	// first row shows that edge at the foot of the page before too.
	g.KeepTogether(chartTop-1, chartEnd)
	header := chartEnd + 3
	section := "cost_per_used_hour by utilisation, per scenario, and the offers' prices ($/GPU-h)"
	if len(c.Term) > 0 {
		section = "cost_per_used_hour by utilisation, per scenario, and the offers' prices, over the term where the prices change (see above) ($/GPU-h)"
	}
	g.Line(header-1, grid.Text(cur.Words(section), grid.StyleSection))
	g.Set(1, header, grid.Text("utilization", grid.StyleHeader))
	var labels []string
	for i, s := range c.Scenarios {
		g.Set(2+i, header, grid.Text(s, grid.StyleHeader))
		labels = append(labels, s)
	}
	for j, o := range offers {
		g.Set(2+len(c.Scenarios)+j, header, grid.Text(o.Label(), grid.StyleHeader))
		labels = append(labels, o.Label())
	}
	for col := 3; col <= 1+len(labels); col++ {
		g.Width(col, 16)
	}
	g.WrapHeight(header, 16, labels...)
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/GPU-h"))
	for i, u := range c.Utilization {
		r := header + 1 + i
		g.Set(1, r, grid.Number(u, grid.WithFormat(grid.StyleLabel, "0%")))
		for s := range c.Scenarios {
			if v := c.Cost[s][i]; math.IsNaN(v) {
				g.Set(2+s, r, grid.Text("no number", grid.StyleError))
			} else {
				g.Set(2+s, r, grid.Number(v, money))
			}
		}
		for j := range offers {
			g.Set(2+len(c.Scenarios)+j, r, grid.Number(prices[j], money))
		}
	}
	last := header + len(c.Utilization)
	// In column B: column A is printed on every page, and a chart in it
	// would be too.
	g.AddChart(grid.CellName(2, chartTop), curveChart(g.Sheet(), resultLabel(out.Plan, domain.CostPerUsedHour), c, prices, header, last, cur))
	return g
}

// termNote says which curves follow the prices' paths over the term, and
// what they and the offers' lines are there.
func termNote(c *whatif.Curve) string {
	which := "every scenario's curve is"
	if len(c.Term) < len(c.Scenarios) {
		which = "the curve of " + diag.ListAnd(c.Term) + " is"
	}
	return "The prices change over the term (a yearly change of the rent or of electricity): " + which +
		" owning's cost per used GPU-hour over the term in today's money, spread evenly over its months (the rent a flat price would need for owning's NPV to be zero), " +
		"and an offer's line its price over the term (× rent_path_factor ÷ annuity_factor), so each crossing is the NPV's break-even Results gives."
}

// curveHeight is the break-even chart's height in pixels.
const curveHeight = 520

// crossingsTable lists where each scenario's curve meets each offer.
func crossingsTable(g *grid.Grid, c *whatif.Curve, row int, cur units.Currency) int {
	g.Line(row, grid.Headers("scenario", "offer", cur.Words("$/GPU-hour"), "break-even utilisation")...)
	g.WrapHeight(row, 14, "break-even utilisation")
	for _, x := range c.Crossings {
		row++
		g.Line(row, grid.Text(x.Scenario, grid.StyleLabel), grid.Text(x.Offer.Label(), grid.StyleLabel),
			grid.Number(x.Offer.Price, grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/GPU-h"))))
		switch {
		case x.Why == wording.AboveAll:
			g.Set(4, row, grid.Text(x.Why, grid.StyleRent))
		case x.Why == whatif.BelowAll:
			g.Set(4, row, grid.Text(x.Why, grid.StyleBuy))
		case math.IsNaN(x.Utilization):
			g.Set(4, row, grid.Text(units.NoNumber, grid.StyleError))
			g.Sentence(5, row, 0, x.Why, grid.StyleNote)
		default:
			g.Set(4, row, grid.Number(x.Utilization, grid.WithFormat(grid.StyleResult, "0.0%")))
		}
	}
	return row
}

// curveOffers are the offers any scenario compares, each once, with the
// price per used hour their dashed line draws (along a path, over the
// term); an offer whose price moves with utilisation has no one line and
// is named in moving instead, as is one whose price over the term differs
// between scenarios (their paths or costs of capital differ).
func curveOffers(m *domain.Model, c *whatif.Curve) (out []domain.Offer, prices []float64, moving []string) {
	seen := map[string]bool{}
	term := map[string]float64{}
	for _, x := range c.Crossings {
		if t, ok := term[x.Offer.Label()]; ok && t != x.Term {
			term[x.Offer.Label()] = math.NaN()
		} else if !ok {
			term[x.Offer.Label()] = x.Term
		}
	}
	for _, x := range c.Crossings {
		if seen[x.Offer.Label()] {
			continue
		}
		seen[x.Offer.Label()] = true
		if math.IsNaN(term[x.Offer.Label()]) {
			moving = append(moving, x.Offer.Label())
			continue
		}
		price := x.Offer.Price
		if !x.Offer.IsDefault() {
			t := m.Terms(*x.Offer)
			if !whatif.FlatPrice(t) {
				moving = append(moving, x.Offer.Label())
				continue
			}
			price = t.PerUsedHour
		}
		out, prices = append(out, *x.Offer), append(prices, price*x.Term)
	}
	return out, prices, moving
}

// curveChart draws the scenarios' curves as solid lines and the offers'
// prices as dashed ones, cut off at one and a half times the dearest offer
// so the crossings stay visible (at 1 % busy an hour costs a hundredfold).
func curveChart(sheet, label string, c *whatif.Curve, prices []float64, header, last int, cur units.Currency) *excelize.Chart {
	top := 0.0
	for _, p := range prices {
		top = max(top, p)
	}
	var series []excelize.ChartSeries
	for i := range len(c.Scenarios) + len(prices) {
		colour, line := palette[i%len(palette)], excelize.LineOptions{Type: excelize.LineSolid, Width: 2}
		if j := i - len(c.Scenarios); j >= 0 {
			colour, line.Dash, line.Width = offerPalette[j%len(offerPalette)], excelize.LineDashDash, 1.25
		}
		series = append(series, excelize.ChartSeries{Name: grid.Absolute(sheet, 2+i, header), Categories: grid.Span(sheet, 1, header+1, last),
			Values: grid.Span(sheet, 2+i, header+1, last), Fill: grid.Solid(colour), Line: line, Marker: excelize.ChartMarker{Symbol: "none"}})
	}
	zero, one, ceiling := 0.0, 1.0, math.Ceil(1.5*top)
	if top == 0 {
		ceiling = 10
	}
	return &excelize.Chart{
		Type:   excelize.Scatter,
		Series: series,
		Title:  grid.ChartTitle(label + cur.Words(" ($/GPU-h) by utilisation: each scenario (solid) against each offer's price (dashed)")),
		Legend: grid.Legend("right"),
		XAxis: grid.Axis(excelize.ChartAxis{Minimum: &zero, Maximum: &one, MajorUnit: 0.1, MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}},
			"utilisation: share of the month's hours the GPUs are used"),
		YAxis:     grid.Axis(excelize.ChartAxis{MajorGridLines: true, Minimum: &zero, Maximum: &ceiling, NumFmt: excelize.ChartNumFmt{CustomNumFmt: cur.Excel("$#,##0")}}, ""),
		Dimension: excelize.ChartDimension{Width: 900, Height: curveHeight},
	}
}

// goalSeekGrid is the Goal seek sheet: each goal of the Goals sheet and its
// answer, or why there is none.
func goalSeekGrid(out Output) *grid.Grid {
	cur := out.currency()
	g := grid.NewOwned(GoalSeek, HeaderRow, 1, 50, 18, 28, 12, 26, 24, 16, 14, 10, 60)
	provenance(g, "Goal seek: what would have to be true", out, "scenario "+out.Results[0].Scenario)
	g.Line(HeaderRow, grid.Headers("goal", "solve for", "target", "value", "offer", "with", "answer", "target there", "steps", "note")...)
	if len(out.WhatIfs.Solutions) == 0 {
		g.Line(HeaderRow+1, grid.Text("The Goals sheet asks for no goal.", grid.StyleNote))
	}
	m := out.Plan.Model()
	for i, s := range out.WhatIfs.Solutions {
		row := HeaderRow + 1 + i
		targetFormat := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(out.Plan.Unit(s.Target)))
		g.Line(row, grid.Text(s.Name, grid.StyleLabel), grid.Text(s.For, grid.StyleLabel), grid.Text(s.Target, grid.StyleLabel), grid.Number(s.Value, targetFormat),
			grid.Text(s.Offer, grid.StyleLabel), grid.Text(Settings(s.With), grid.StyleLabel))
		if !s.Found {
			g.Set(7, row, grid.Text("no answer", grid.StyleError))
			g.Note(10, row, s.Why)
			continue
		}
		g.Set(7, row, grid.Number(s.X, grid.WithFormat(grid.StyleResult, cur.ExcelFormat(UnitOf(m.Inputs, s.For)))))
		g.Set(8, row, grid.Number(s.Reached, targetFormat))
		g.Set(9, row, grid.Number(float64(s.Iterations), grid.WithFormat(grid.StyleResult, "0")))
		g.Note(10, row, s.Notes)
	}
	return g
}

// shadeTable colours a data table as the Tables sheet asks: a colour
// scale from its low end or its high end, or green and red either side of
// a threshold.
func shadeTable(g *grid.Grid, ref string, s domain.Shade) {
	switch {
	case s.Low:
		g.ShadeScale(ref, false)
	case s.High:
		g.ShadeScale(ref, true)
	default:
		g.ShadeThreshold(ref, s.Threshold, s.Above)
	}
}
