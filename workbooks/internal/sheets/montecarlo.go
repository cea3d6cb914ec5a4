package sheets

import (
	"fmt"
	"slices"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/montecarlo"
	"planner/units"
	"planner/view"
	"planner/workbooks/internal/grid"
)

// HistogramOutput is the output whose distribution the MonteCarlo sheet
// charts: Monte Carlo runs count its histogram.
const HistogramOutput = domain.CostPerUsedHour

// Where the MonteCarlo sheet keeps its histogram and chart.
const (
	mcHistogramRow = HeaderRow + 1 // first bin
	mcChartCell    = "F4"
)

// montecarloGrid is the MonteCarlo sheet: a histogram of the cost per used
// hour in the base scenario with its chart, every output's mean and
// percentiles in every scenario, the probability that owning wins against
// each offer, and the uncertain inputs and correlations the samples came from.
func montecarloGrid(out Output) *grid.Grid {
	g := grid.NewOwned(MonteCarlo, HeaderRow, 0, 36, 14, 24, 14, 14, 14, 14, 14, 14, 14, 14)
	// The frozen header is the histogram's alone: the tables below it have
	// their own, so no page repeats it.
	g.PrintHeader(0)
	mcs := out.MonteCarlo
	provenance(g, "Monte Carlo: how sure are we", out, fmt.Sprintf("%d samples, seed %d", mcs[0].Samples, mcs[0].Seed))
	histogram(g, mcs[0], out.currency())
	// Each table prints on one page where it fits, and never leaves its
	// title and header alone at a page's foot.
	keep := func(from, to int) int {
		g.KeepTogether(from, to)
		g.KeepTogether(from, min(to, from+2))
		return to
	}
	row := g.Next() + 1
	row = keep(row, outputsTable(g, mcs, row, out.currency()))
	if hasNPV(mcs) {
		row = keep(row+2, npvTable(g, mcs, row+2, out.currency()))
	}
	row = keep(row+2, ownCheaperTable(g, out, row+2))
	row = keep(row+2, sampledTable(g, mcs[0], row+2, out.currency()))
	correlationsTable(g, out, row+2)
	if g.LastRow() > row+2 {
		keep(row+2, g.LastRow())
	}
	g.AddChart(mcChartCell, histogramChart(resultLabel(out.Plan, HistogramOutput), mcs[0], out.currency()))
	return g
}

// histogram writes the base scenario's distribution of the charted output.
func histogram(g *grid.Grid, mc *montecarlo.Result, cur units.Currency) {
	g.Line(HeaderRow, grid.Headers(HistogramOutput+" ("+mc.Scenario+"): from", "to", "share of samples", "bar")...)
	g.WrapHeight(HeaderRow, 14, "share of samples")
	var s montecarlo.Stats
	for _, o := range mc.Outputs {
		if o.Name == HistogramOutput {
			s = o
		}
	}
	if mc.Good == 0 {
		g.Line(mcHistogramRow, grid.Text(units.NoNumber, grid.StyleError))
		g.Sentence(2, mcHistogramRow, 4, noSample(mc), grid.StyleNote)
		return
	}
	format := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(s.Unit))
	for i, c := range s.Histogram {
		from, upTo := s.Edges[i], s.Edges[i+1]
		g.Line(mcHistogramRow+i, grid.Number(from, format), grid.Number(upTo, format),
			grid.Number(float64(c)/float64(max(1, mc.Good)), grid.WithFormat(grid.StyleResult, "0.0%")),
			grid.Text("up to "+cur.Format(upTo, s.Unit), grid.StyleLabel))
	}
}

// histogramChart is a column chart of the histogram's shares, each bar
// labelled by the value it reaches.
func histogramChart(label string, mc *montecarlo.Result, cur units.Currency) *excelize.Chart {
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
		Title:  grid.ChartTitle(fmt.Sprintf("%s, scenario %s: share of %s samples by value", inUnit(label, cur.Unit(unit)), mc.Scenario, units.Format(float64(mc.Good), ""))),
		Legend: excelize.ChartLegend{Position: "none"},
		XAxis: grid.Axis(excelize.ChartAxis{NumFmt: excelize.ChartNumFmt{CustomNumFmt: cur.ExcelFormat(unit)}, Alignment: excelize.Alignment{TextRotation: -45}},
			inUnit(label, cur.Unit(unit))+": each bar reaches up to the value below it"),
		YAxis:     grid.Axis(excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}}, ""),
		Dimension: excelize.ChartDimension{Width: 600, Height: 320},
		GapWidth:  &gap,
	}
}

// outputsTable lists every output's statistics, scenario by scenario.
func outputsTable(g *grid.Grid, mcs []*montecarlo.Result, row int, cur units.Currency) int {
	row = statsHeader(g, row, "Outputs that vary: mean and percentiles over the samples", "output")
	for _, mc := range mcs {
		if mc.Good == 0 {
			row++
			g.Line(row, grid.Text("every output", grid.StyleLabel), grid.Text("", grid.StyleLabel), grid.Text(mc.Scenario, grid.StyleLabel),
				grid.Text(units.NoNumber, grid.StyleError))
			g.Sentence(5, row, 0, noSample(mc), grid.StyleNote)
			continue
		}
		v := view.MonteCarloOf(mc, cur)
		for _, d := range v.Outputs {
			if !d.Varies() {
				continue // one number in every sample: Results has it
			}
			row++
			statsRow(g, row, d.Name, mc.Scenario, v.Statistics, d)
		}
	}
	return row
}

// hasNPV says whether any run has owning's NPV against an offer.
func hasNPV(mcs []*montecarlo.Result) bool {
	for _, mc := range mcs {
		if slices.ContainsFunc(mc.OwnCheaper, func(oc montecarlo.OwnCheaper) bool { return oc.NPV != nil }) {
			return true
		}
	}
	return false
}

// npvTable lists owning's NPV against each offer, scenario by scenario:
// its mean and percentiles over the samples that evaluated for the offer.
func npvTable(g *grid.Grid, mcs []*montecarlo.Result, row int, cur units.Currency) int {
	row = statsHeader(g, row, "Owning's net present value against each offer (npv_saving): mean and percentiles over the samples", "offer")
	statistics := view.Statistics()
	for _, mc := range mcs {
		for _, oc := range view.OfferOddsOf(mc, cur) {
			if d := oc.NPVSaving; d != nil && oc.Evaluated == 0 {
				row++
				g.Line(row, grid.Text(oc.Offer.Label(), grid.StyleLabel), grid.Text(cur.Unit(d.Unit), grid.StyleLabel), grid.Text(mc.Scenario, grid.StyleLabel),
					grid.Text(units.NoNumber, grid.StyleError))
				g.Sentence(5, row, 0, "no sample evaluated against this offer", grid.StyleNote)
			} else if d != nil && d.Varies() {
				row++
				statsRow(g, row, oc.Offer.Label(), mc.Scenario, statistics, *d)
			}
		}
	}
	return row
}

// statsHeader writes a statistics table's title and header row, the
// first column called first and a column per statistic the sheet shows;
// it returns the header's row.
func statsHeader(g *grid.Grid, row int, title, first string) int {
	g.Line(row, grid.Text(title, grid.StyleSection))
	row++
	heads, longest := []string{first, "unit", "scenario"}, ""
	for _, f := range view.Statistics() {
		if f.In&view.Sheet != 0 {
			heads = append(heads, f.Title())
			if len(f.Title()) > len(longest) {
				longest = f.Title() // the heading that needs the tallest row
			}
		}
	}
	g.Line(row, grid.Headers(heads...)...)
	g.WrapHeight(row, 14, longest)
	return row
}

// statsRow is one output's statistics in a scenario, over the samples it
// evaluated for.
func statsRow(g *grid.Grid, row int, label, scenario string, figs []view.Figure, d view.Distribution) {
	cells := []grid.Cell{grid.Text(label, grid.StyleLabel), grid.Text(d.Currency.Unit(d.Unit), grid.StyleLabel), grid.Text(scenario, grid.StyleLabel)}
	for k, f := range figs {
		if f.In&view.Sheet != 0 {
			cells = append(cells, statisticCell(d.Statistic(f), d.Cells[k]))
		}
	}
	g.Line(row, cells...)
}

// statisticCell is a statistic as the sheet holds it: its words, else its
// number in the statistic's format.
func statisticCell(f view.Figure, c view.Cell) grid.Cell {
	if c.Words != "" || !c.Number {
		return grid.Text(c.Words, grid.StyleLabel)
	}
	return grid.Number(c.Value, grid.WithFormat(grid.StyleResult, f.ExcelFormatOf(c.Value)))
}

// ownCheaperTable shows, offer by scenario, the share of samples in which
// owning costs less than renting the offer, and then the share in which
// owning's NPV against it is above zero, when the model has an NPV and
// the shares differ (one table says both when they do not).
func ownCheaperTable(g *grid.Grid, out Output, row int) int {
	title := "Probability that owning is cheaper than renting (utilisation at or above break-even)"
	same := hasNPV(out.MonteCarlo) && montecarlo.SameShares(out.MonteCarlo...)
	if same {
		title = "Probability that owning is cheaper than renting (utilisation at or above break-even), which is also the probability that its net present value is above zero"
	}
	row = offerShares(g, out, row, title,
		func(oc montecarlo.OwnCheaper) (float64, bool) { return oc.Probability, true })
	if hasNPV(out.MonteCarlo) && !same {
		return offerShares(g, out, row+2, "Probability that owning's net present value is above zero (npv_saving, at the cost of capital)",
			func(oc montecarlo.OwnCheaper) (float64, bool) { return oc.NPVAboveZero, oc.NPV != nil })
	}
	return row
}

// offerShares is a table of a share per offer (a row) and scenario (a
// column); a share that does not apply (ok false) leaves its cell empty,
// and one of no evaluated sample says there is no number.
func offerShares(g *grid.Grid, out Output, row int, title string, share func(montecarlo.OwnCheaper) (p float64, ok bool)) int {
	g.Line(row, grid.Text(title, grid.StyleSection))
	row++
	scenarioHeader(g, row, out.Results, 0, "", "Offer", "GPU")
	// Each run's offers by label, in order: a row reads its own offers, not
	// every offer.
	byLabel := make([]map[string][]montecarlo.OwnCheaper, len(out.MonteCarlo))
	for i, mc := range out.MonteCarlo {
		byLabel[i] = map[string][]montecarlo.OwnCheaper{}
		for _, oc := range mc.OwnCheaper {
			byLabel[i][oc.Offer.Label()] = append(byLabel[i][oc.Offer.Label()], oc)
		}
	}
	for _, o := range out.Plan.Model().Offers {
		row++
		g.Line(row, grid.Text(o.Label(), grid.StyleLabel), grid.Text(o.GPU, grid.StyleLabel))
		for i := range out.MonteCarlo {
			for _, oc := range byLabel[i][o.Label()] {
				switch p, ok := share(oc); {
				case !ok:
				case oc.Evaluated == 0:
					g.Set(3+i, row, grid.Text(units.NoNumber, grid.StyleError))
				default:
					g.Set(3+i, row, grid.Number(p, grid.WithFormat(grid.StyleResult, "0.0%")))
				}
			}
		}
	}
	return row
}

// sampledTable lists the inputs that varied, with their distributions.
func sampledTable(g *grid.Grid, mc *montecarlo.Result, row int, cur units.Currency) int {
	g.Line(row, grid.Text("Uncertain inputs (scenarios hold the inputs they set fixed)", grid.StyleSection))
	row++
	g.Line(row, grid.Headers("input", "unit", "distribution", "low", "value", "high", "as drawn")...)
	for _, in := range mc.Sampled {
		row++
		format := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(in.Unit))
		g.Line(row, grid.Text(in.Name, grid.StyleLabel), grid.Text(cur.Unit(in.Unit), grid.StyleLabel), grid.Text(in.Dist.Kind, grid.StyleLabel))
		if in.HasRange {
			g.Set(4, row, grid.Number(in.Low, format))
			g.Set(6, row, grid.Number(in.High, format))
		}
		g.Set(5, row, grid.Number(in.Value.Num, format))
		g.Set(7, row, grid.Text(in.Dist.String(), grid.StyleLabel))
	}
	for _, h := range mc.Held {
		row++
		format := grid.WithFormat(grid.StyleResult, cur.ExcelFormat(h.Input.Unit))
		g.Line(row, grid.Text(h.Input.Name, grid.StyleLabel), grid.Text(cur.Unit(h.Input.Unit), grid.StyleLabel), grid.Text("held", grid.StyleError),
			grid.Number(h.Input.Low, format), grid.Number(h.Value, format), grid.Number(h.Input.High, format))
		g.Sentence(7, row, 0, heldNote(h), grid.StyleNote)
	}
	return row
}

// noSample says why a run has no figures: every sample failed, and how
// the first did.
func noSample(mc *montecarlo.Result) string {
	return "no sample of scenario " + mc.Scenario + " gave a number; the first, " + mc.FirstFailure
}

// heldNote says why an input was held and what would let it vary.
func heldNote(h montecarlo.Held) string {
	return h.Why() + "; " + h.LetVary()
}

func correlationsTable(g *grid.Grid, out Output, row int) {
	cs := out.Plan.Model().Correlations
	if len(cs) == 0 {
		return
	}
	g.Line(row, grid.Text("Rank correlations induced between inputs (Iman–Conover)", grid.StyleSection))
	row++
	g.Line(row, grid.Headers("input", "with", "rank correlation")...)
	for _, c := range cs {
		row++
		g.Line(row, grid.Text(c.A, grid.StyleLabel), grid.Text(c.B, grid.StyleLabel), grid.Number(c.Rho, grid.WithFormat(grid.StyleResult, "0.00")))
	}
}
