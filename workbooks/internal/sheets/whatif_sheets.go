package sheets

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/units"
	"planner/whatif"
	"planner/workbooks/internal/ooxml"
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
func sensitivityGrid(out Output) *Grid {
	g := &Grid{sheet: Sensitivity, owned: true, freezeCols: 1, widths: []float64{24, 10, 13, 13, 15, 15, 13, 15, 15, 40}}
	provenance(g, "Sensitivity: how much each range moves the answer", out,
		"scenario "+out.Results[0].Scenario+"; each input from its low to its high in Assumptions, the others as they are")
	row := HeaderRow
	if len(out.WhatIfs.Tornadoes) == 0 {
		g.line(row, text("No target to follow: name formulas in the Targets sheet, or pass --target.", styleNote))
	}
	for _, t := range out.WhatIfs.Tornadoes {
		row = tornadoSection(g, out.Plan, t, row) + 2
	}
	return g
}

// tornadoSection writes one tornado from row and returns its last row.
func tornadoSection(g *Grid, p *engine.Plan, t whatif.Tornado, row int) int {
	format := withFormat(styleResult, units.ExcelFormat(t.Unit))
	g.line(row, text(t.Target.Label()+": "+units.Format(t.Base, t.Unit)+" at base, by input, largest swing first", styleSection))
	header := row + 1
	g.line(header, headers("input", "unit", "low", "high", "at low", "at high", "swing", "change at low", "change at high", "note")...)
	for i, b := range t.Bars {
		r := header + 1 + i
		inFormat := withFormat(styleResult, units.ExcelFormat(b.Input.Unit))
		g.line(r, text(b.Input.Name, styleLabel), text(b.Input.Unit, styleLabel), number(b.Input.Low, inFormat), number(b.Input.High, inFormat))
		if b.Why != "" {
			g.set(5, r, text("no number", styleError))
			g.note(10, r, b.Why)
			continue
		}
		g.set(5, r, number(b.AtLow, format))
		g.set(6, r, number(b.AtHigh, format))
		g.set(7, r, number(b.Swing, format))
		g.set(8, r, number(b.AtLow-t.Base, format))
		g.set(9, r, number(b.AtHigh-t.Base, format))
	}
	last := header + len(t.Bars)
	for i, h := range t.Held {
		r := last + 1 + i
		inFormat := withFormat(styleResult, units.ExcelFormat(h.Input.Unit))
		g.line(r, text(h.Input.Name, styleLabel), text(h.Input.Unit, styleLabel), number(h.Input.Low, inFormat), number(h.Input.High, inFormat),
			text("held", styleError))
		g.note(10, r, heldNote(h)+"; not swung")
	}
	if len(t.Bars) == 0 {
		if len(t.Held) == 0 {
			g.line(header+1, text("No input has a range: give inputs a low and a high in Assumptions.", styleNote))
		}
		return header + max(1, len(t.Held))
	}
	last += len(t.Held)
	height := max(len(t.Bars)+2, 14)
	top := last + 2
	g.charts = append(g.charts, ooxml.Chart{Cell: cellName(1, top), Chart: tornadoChart(g.sheet, targetLabel(p, t.Target, t.Unit), t, header, header+len(t.Bars), height)})
	end := top + height - 1
	g.keep = append(g.keep, [2]int{row, end})
	return end
}

// tornadoChart is a bar chart of each input's change at its low and its
// high, from the base: the widest bar on top.
func tornadoChart(sheet, label string, t whatif.Tornado, header, last, rows int) *excelize.Chart {
	overlap, gap := 100, uint(40)
	series := func(col int, colour string) excelize.ChartSeries {
		return excelize.ChartSeries{Name: absolute(sheet, col, header), Categories: span(sheet, 1, header+1, last),
			Values: span(sheet, col, header+1, last), Fill: solid(colour)}
	}
	return &excelize.Chart{
		Type:   excelize.Bar,
		Series: []excelize.ChartSeries{series(8, palette[0]), series(9, palette[1])},
		Title:  chartTitle(label + ": change from " + units.Format(t.Base, t.Unit) + " as each input goes to its low or its high"),
		Legend: legend("bottom"),
		XAxis:  axis(excelize.ChartAxis{ReverseOrder: true, TickLabelPosition: excelize.ChartTickLabelLow}, ""),
		// The title says the unit: excelize turns a value axis's title on
		// its side, which reads wrong on a bar chart's horizontal axis.
		YAxis:     axis(excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: units.ExcelFormat(t.Unit)}}, ""),
		Dimension: excelize.ChartDimension{Width: 720, Height: uint(rows * rowPixels)},
		Overlap:   &overlap,
		GapWidth:  &gap,
	}
}

// span is an absolute reference to rows from..to of one column.
func span(sheet string, col, from, to int) string {
	return absolute(sheet, col, from) + ":" + strings.TrimPrefix(absolute(sheet, col, to), Quote(sheet)+"!")
}

// dataTablesGrid is the Data tables sheet: each table the Tables sheet
// asks for, one below the other, coloured as it says.
func dataTablesGrid(out Output) *Grid {
	g := &Grid{sheet: DataTables, owned: true, freezeCols: 1, widths: []float64{24}}
	provenance(g, "Data tables: the answer over a grid of inputs", out, "scenario "+out.Results[0].Scenario)
	row := HeaderRow
	if len(out.WhatIfs.Tables) == 0 {
		g.line(row, text("The Tables sheet asks for no table.", styleNote))
	}
	for _, t := range out.WhatIfs.Tables {
		last := dataTableSection(g, out, t, row)
		g.keep = append(g.keep, [2]int{row, last}) // a table prints on one page where it fits on one
		row = last + 3
	}
	return g
}

// dataTableSection writes one table from row and returns its last row.
func dataTableSection(g *Grid, out Output, t *whatif.Table, row int) int {
	m := out.Plan.Model()
	rowUnit := UnitOf(m.Inputs, t.Spec.Row.Input)
	format := withFormat(styleResult, units.ExcelFormat(t.Unit))
	g.line(row, text(t.Spec.Name, styleSection))
	g.sentence(1, row+1, 0, describeTable(t, m.Inputs), styleNote)
	header := row + 2
	corner := t.Spec.Row.Input
	var across []cell
	switch {
	case t.Spec.Col == nil:
		across = []cell{text(t.Spec.Output+" ("+t.Unit+")", styleHeader)}
		g.width(2, min(40, float64(len(t.Spec.Output+t.Unit)+5)))
	case t.Spec.Col.Offers:
		corner += " \\ offer"
		for _, label := range t.ColLabels {
			across = append(across, text(label, styleHeader))
		}
	default:
		corner += " \\ " + t.Spec.Col.Input
		colFormat := withFormat(styleHeader, units.ExcelFormat(UnitOf(m.Inputs, t.Spec.Col.Input)))
		for _, v := range t.ColValues {
			across = append(across, number(v, colFormat))
		}
	}
	g.line(header, append([]cell{text(corner, styleHeader)}, across...)...)
	var labels []string
	for i, c := range across {
		if s, ok := c.value.(string); ok && len(across) > 1 {
			labels = append(labels, s)
		}
		g.width(2+i, 15)
	}
	g.wrapHeight(header, 15, labels...)
	for i, rv := range t.RowValues {
		r := header + 1 + i
		g.set(1, r, number(rv, withFormat(styleHeader, units.ExcelFormat(rowUnit))))
		for j, v := range t.Cells[i] {
			if math.IsNaN(v) {
				g.set(2+j, r, text("no number", styleError))
			} else {
				g.set(2+j, r, number(v, format))
			}
		}
	}
	last := header + len(t.RowValues)
	if t.Spec.Shade != (engine.Shade{}) {
		ref := cellName(2, header+1) + ":" + cellName(1+len(across), last)
		g.shading = append(g.shading, shading{ref: ref, shade: t.Spec.Shade})
	}
	return last
}

// describeTable says in words what a table shows.
func describeTable(t *whatif.Table, inputs []engine.Input) string {
	s := t.Spec
	between := func(a engine.Axis) string {
		unit := UnitOf(inputs, a.Input)
		return fmt.Sprintf("%s from %s to %s in %d steps", a.Input, units.Format(a.From, unit), units.Format(a.To, unit), a.Steps)
	}
	words := fmt.Sprintf("%s (%s) with %s down the side", s.Output, t.Unit, between(s.Row))
	switch {
	case s.Col == nil:
	case s.Col.Offers:
		words += ", against each offer of the node's GPU across the top"
	default:
		words += " and " + between(*s.Col) + " across the top"
	}
	switch sh := s.Shade; {
	case sh.Below:
		words += "; green below " + units.Format(sh.Threshold, t.Unit) + ", red above"
	case sh.Above:
		words += "; green above " + units.Format(sh.Threshold, t.Unit) + ", red below"
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
func breakevenGrid(out Output) *Grid {
	c := out.WhatIfs.Curve
	g := &Grid{sheet: Breakeven, owned: true, freezeCols: 1, widths: []float64{30, 46, 14, 14, 4}}
	provenance(g, "Break-even: the cost per used GPU-hour against the offers", out)
	row := crossingsTable(g, c, HeaderRow)
	offers := curveOffers(c)
	chartTop := row + 2
	chartEnd := chartTop + curveHeight/rowPixels - 1
	// From the empty row above it: a chart whose top edge is a page's
	// first row shows that edge at the foot of the page before too.
	g.keep = append(g.keep, [2]int{chartTop - 1, chartEnd})
	header := chartEnd + 3
	g.line(header-1, text("cost_per_used_hour by utilisation, per scenario, and the offers' prices ($/GPU-h)", styleSection))
	g.set(1, header, text("utilization", styleHeader))
	var labels []string
	for i, s := range c.Scenarios {
		g.set(2+i, header, text(s, styleHeader))
		labels = append(labels, s)
	}
	for j, o := range offers {
		g.set(2+len(c.Scenarios)+j, header, text(o.Label(), styleHeader))
		labels = append(labels, o.Label())
	}
	for col := 3; col <= 1+len(labels); col++ {
		g.width(col, 16)
	}
	g.wrapHeight(header, 16, labels...)
	money := withFormat(styleResult, units.ExcelFormat("$/GPU-h"))
	for i, u := range c.Utilization {
		r := header + 1 + i
		g.set(1, r, number(u, withFormat(styleLabel, "0%")))
		for s := range c.Scenarios {
			if v := c.Cost[s][i]; math.IsNaN(v) {
				g.set(2+s, r, text("no number", styleError))
			} else {
				g.set(2+s, r, number(v, money))
			}
		}
		for j, o := range offers {
			g.set(2+len(c.Scenarios)+j, r, number(o.Price, money))
		}
	}
	last := header + len(c.Utilization)
	// In column B: column A is printed on every page, and a chart in it
	// would be too.
	g.charts = append(g.charts, ooxml.Chart{Cell: cellName(2, chartTop), Chart: curveChart(g.sheet, resultLabel(out.Plan, engine.CostPerUsedHour), c, offers, header, last)})
	return g
}

// curveHeight is the break-even chart's height in pixels.
const curveHeight = 520

// crossingsTable lists where each scenario's curve meets each offer.
func crossingsTable(g *Grid, c *whatif.Curve, row int) int {
	g.line(row, headers("scenario", "offer", "$/GPU-hour", "break-even utilisation")...)
	g.wrapHeight(row, 14, "break-even utilisation")
	for _, x := range c.Crossings {
		row++
		g.line(row, text(x.Scenario, styleLabel), text(x.Offer.Label(), styleLabel),
			number(x.Offer.Price, withFormat(styleResult, units.ExcelFormat("$/GPU-h"))))
		if math.IsNaN(x.Utilization) {
			g.set(4, row, text("above 100 %", styleRent))
		} else {
			g.set(4, row, number(x.Utilization, withFormat(styleResult, "0.0%")))
		}
	}
	return row
}

// curveOffers are the offers any scenario compares, each once.
func curveOffers(c *whatif.Curve) []engine.Offer {
	var out []engine.Offer
	seen := map[string]bool{}
	for _, x := range c.Crossings {
		if !seen[x.Offer.Label()] {
			seen[x.Offer.Label()] = true
			out = append(out, x.Offer)
		}
	}
	return out
}

// curveChart draws the scenarios' curves as solid lines and the offers'
// prices as dashed ones, cut off at one and a half times the dearest offer
// so the crossings stay visible (at 1 % busy an hour costs a hundredfold).
func curveChart(sheet, label string, c *whatif.Curve, offers []engine.Offer, header, last int) *excelize.Chart {
	top := 0.0
	for _, o := range offers {
		top = max(top, o.Price)
	}
	var series []excelize.ChartSeries
	for i := range len(c.Scenarios) + len(offers) {
		colour, line := palette[i%len(palette)], excelize.LineOptions{Type: excelize.LineSolid, Width: 2}
		if j := i - len(c.Scenarios); j >= 0 {
			colour, line.Dash, line.Width = offerPalette[j%len(offerPalette)], excelize.LineDashDash, 1.25
		}
		series = append(series, excelize.ChartSeries{Name: absolute(sheet, 2+i, header), Categories: span(sheet, 1, header+1, last),
			Values: span(sheet, 2+i, header+1, last), Fill: solid(colour), Line: line, Marker: excelize.ChartMarker{Symbol: "none"}})
	}
	zero, one, ceiling := 0.0, 1.0, math.Ceil(1.5*top)
	if top == 0 {
		ceiling = 10
	}
	return &excelize.Chart{
		Type:   excelize.Scatter,
		Series: series,
		Title:  chartTitle(label + " ($/GPU-h) by utilisation: each scenario (solid) against each offer's price (dashed)"),
		Legend: legend("right"),
		XAxis: axis(excelize.ChartAxis{Minimum: &zero, Maximum: &one, MajorUnit: 0.1, MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}},
			"utilisation: share of the month's hours the GPUs are used"),
		YAxis:     axis(excelize.ChartAxis{MajorGridLines: true, Minimum: &zero, Maximum: &ceiling, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "$#,##0"}}, ""),
		Dimension: excelize.ChartDimension{Width: 900, Height: curveHeight},
	}
}

// goalSeekGrid is the Goal seek sheet: each goal of the Goals sheet and its
// answer, or why there is none.
func goalSeekGrid(out Output) *Grid {
	g := &Grid{sheet: GoalSeek, owned: true, freezeRows: HeaderRow, freezeCols: 1, printRow: HeaderRow,
		widths: []float64{50, 18, 28, 12, 26, 24, 16, 14, 10, 60}}
	provenance(g, "Goal seek: what would have to be true", out, "scenario "+out.Results[0].Scenario)
	g.line(HeaderRow, headers("goal", "solve for", "target", "value", "offer", "with", "answer", "target there", "steps", "note")...)
	if len(out.WhatIfs.Solutions) == 0 {
		g.line(HeaderRow+1, text("The Goals sheet asks for no goal.", styleNote))
	}
	m := out.Plan.Model()
	for i, s := range out.WhatIfs.Solutions {
		row := HeaderRow + 1 + i
		targetFormat := withFormat(styleResult, units.ExcelFormat(out.Plan.Unit(s.Target)))
		g.line(row, text(s.Name, styleLabel), text(s.For, styleLabel), text(s.Target, styleLabel), number(s.Value, targetFormat),
			text(s.Offer, styleLabel), text(Settings(s.With), styleLabel))
		if !s.Found {
			g.set(7, row, text("no answer", styleError))
			g.note(10, row, s.Why)
			continue
		}
		g.set(7, row, number(s.X, withFormat(styleResult, units.ExcelFormat(UnitOf(m.Inputs, s.For)))))
		g.set(8, row, number(s.Reached, targetFormat))
		g.set(9, row, number(float64(s.Iterations), withFormat(styleResult, "0")))
		g.note(10, row, s.Notes)
	}
	return g
}
