package sheets

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"planner/engine"
	"planner/montecarlo"
	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// HistogramOutput is the output whose distribution the MonteCarlo sheet
// charts: Monte Carlo runs count its histogram.
const HistogramOutput = engine.CostPerUsedHour

// Where the MonteCarlo sheet keeps its histogram and chart.
const (
	mcHistogramRow = HeaderRow + 1 // first bin
	mcChartCell    = "F4"
)

// montecarloGrid is the MonteCarlo sheet: a histogram of the cost per used
// hour in the base scenario with its chart, every output's mean and
// percentiles in every scenario, the probability that owning wins against
// each offer, and the uncertain inputs and correlations the samples came from.
func montecarloGrid(out Output) *Grid {
	g := &Grid{sheet: MonteCarlo, owned: true, freezeRows: HeaderRow,
		widths: []float64{36, 14, 24, 14, 14, 14, 14, 14, 14, 14, 14}}
	mcs := out.MonteCarlo
	provenance(g, "Monte Carlo: how sure are we", out, fmt.Sprintf("%d samples, seed %d", mcs[0].Samples, mcs[0].Seed))
	histogram(g, mcs[0])
	// Each table prints on one page where it fits, and never leaves its
	// title and header alone at a page's foot.
	keep := func(from, to int) int {
		g.keep = append(g.keep, [2]int{from, to}, [2]int{from, min(to, from+2)})
		return to
	}
	row := g.next() + 1
	row = keep(row, outputsTable(g, mcs, row))
	row = keep(row+2, ownCheaperTable(g, out, row+2))
	row = keep(row+2, sampledTable(g, mcs[0], row+2))
	correlationsTable(g, out, row+2)
	if len(g.rows) > row+2 {
		keep(row+2, len(g.rows))
	}
	g.charts = append(g.charts, ooxml.Chart{Cell: mcChartCell, Chart: histogramChart(resultLabel(out.Plan, HistogramOutput), mcs[0])})
	return g
}

// histogram writes the base scenario's distribution of the charted output.
func histogram(g *Grid, mc *montecarlo.Result) {
	g.line(HeaderRow, headers(HistogramOutput+" ("+mc.Scenario+"): from", "to", "share of samples", "bar")...)
	g.wrapHeight(HeaderRow, 14, "share of samples")
	var s montecarlo.Stats
	for _, o := range mc.Outputs {
		if o.Name == HistogramOutput {
			s = o
		}
	}
	format := withFormat(styleResult, units.ExcelFormat(s.Unit))
	for i, c := range s.Histogram {
		from, upTo := s.Edges[i], s.Edges[i+1]
		g.line(mcHistogramRow+i, number(from, format), number(upTo, format),
			number(float64(c)/float64(max(1, mc.Good)), withFormat(styleResult, "0.0%")),
			text("up to "+units.Format(upTo, s.Unit), styleLabel))
	}
}

// histogramChart is a column chart of the histogram's shares, each bar
// labelled by the value it reaches.
func histogramChart(label string, mc *montecarlo.Result) *excelize.Chart {
	last := mcHistogramRow + 19
	ref := func(col string) string {
		return fmt.Sprintf("%s!$%s$%d:$%s$%d", MonteCarlo, col, mcHistogramRow, col, last)
	}
	unit := ""
	for _, o := range mc.Outputs {
		if o.Name == HistogramOutput {
			unit = o.Unit
		}
	}
	gap, vary := uint(10), false
	return &excelize.Chart{
		Type:       excelize.Col,
		VaryColors: &vary,
		Series: []excelize.ChartSeries{{Name: MonteCarlo + "!$C$" + fmt.Sprint(HeaderRow), Categories: ref("B"), Values: ref("C"),
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"4472C4"}}}},
		Title:  chartTitle(fmt.Sprintf("%s, scenario %s: share of %s samples by value", inUnit(label, unit), mc.Scenario, units.Format(float64(mc.Good), ""))),
		Legend: excelize.ChartLegend{Position: "none"},
		XAxis: axis(excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: units.ExcelFormat(unit)}, Alignment: excelize.Alignment{TextRotation: -45}},
			inUnit(label, unit)+": each bar reaches up to the value below it"),
		YAxis:     axis(excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}}, ""),
		Dimension: excelize.ChartDimension{Width: 600, Height: 320},
		GapWidth:  &gap,
	}
}

// outputsTable lists every output's statistics, scenario by scenario.
func outputsTable(g *Grid, mcs []*montecarlo.Result, row int) int {
	g.line(row, text("Outputs that vary: mean and percentiles over the samples", styleSection))
	row++
	g.line(row, headers("output", "unit", "scenario", "mean", "P5", "P50", "P95", "samples evaluated", "base", "base at (percentile)")...)
	g.wrapHeight(row, 14, "base at (percentile)")
	for _, mc := range mcs {
		for _, o := range mc.Outputs {
			if o.Min == o.Max {
				continue // one number in every sample: Results has it
			}
			row++
			format := withFormat(styleResult, units.ExcelFormat(o.Unit))
			g.line(row, text(o.Name, styleLabel), text(o.Unit, styleLabel), text(mc.Scenario, styleLabel),
				number(o.Mean, format), number(o.P5, format), number(o.P50, format), number(o.P95, format),
				number(float64(mc.Good), withFormat(styleResult, "#,##0")), number(o.Base, format), text(montecarlo.RankText(o.BaseRank), styleLabel))
		}
	}
	return row
}

// ownCheaperTable shows, offer by scenario, the share of samples in which
// owning costs less than renting the offer.
func ownCheaperTable(g *Grid, out Output, row int) int {
	g.line(row, text("Probability that owning is cheaper than renting (utilisation at or above break-even)", styleSection))
	row++
	scenarioHeader(g, row, out.Results, 0, "", "Offer", "GPU")
	for j, o := range out.Plan.Model().Offers {
		row++
		g.line(row, text(o.Label(), styleLabel), text(o.GPU, styleLabel))
		for i, mc := range out.MonteCarlo {
			for _, oc := range mc.OwnCheaper {
				if oc.Offer.Label() == out.Plan.Model().Offers[j].Label() && oc.Probability == oc.Probability {
					g.set(3+i, row, number(oc.Probability, withFormat(styleResult, "0.0%")))
				}
			}
		}
	}
	return row
}

// sampledTable lists the inputs that varied, with their distributions.
func sampledTable(g *Grid, mc *montecarlo.Result, row int) int {
	g.line(row, text("Uncertain inputs (scenarios hold the inputs they set fixed)", styleSection))
	row++
	g.line(row, headers("input", "unit", "distribution", "low", "value", "high", "as drawn")...)
	for _, in := range mc.Sampled {
		row++
		format := withFormat(styleResult, units.ExcelFormat(in.Unit))
		g.line(row, text(in.Name, styleLabel), text(in.Unit, styleLabel), text(in.Dist.Kind, styleLabel))
		if in.HasRange {
			g.set(4, row, number(in.Low, format))
			g.set(6, row, number(in.High, format))
		}
		g.set(5, row, number(in.Value.Num, format))
		g.set(7, row, text(in.Dist.String(), styleLabel))
	}
	for _, h := range mc.Held {
		row++
		format := withFormat(styleResult, units.ExcelFormat(h.Input.Unit))
		g.line(row, text(h.Input.Name, styleLabel), text(h.Input.Unit, styleLabel), text("held", styleError),
			number(h.Input.Low, format), number(h.Value, format), number(h.Input.High, format))
		g.sentence(7, row, 0, heldNote(h), styleNote)
	}
	return row
}

// heldNote says why an input was held and what would let it vary.
func heldNote(h montecarlo.Held) string {
	return h.Why() + "; widen low and high in Assumptions to include it to let it vary"
}

func correlationsTable(g *Grid, out Output, row int) {
	cs := out.Plan.Model().Correlations
	if len(cs) == 0 {
		return
	}
	g.line(row, text("Rank correlations induced between inputs (Iman–Conover)", styleSection))
	row++
	g.line(row, headers("input", "with", "rank correlation")...)
	for _, c := range cs {
		row++
		g.line(row, text(c.A, styleLabel), text(c.B, styleLabel), number(c.Rho, withFormat(styleResult, "0.00")))
	}
}
