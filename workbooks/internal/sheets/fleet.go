package sheets

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/facts"
	"planner/fleet"
	"planner/units"
	"planner/workbooks/internal/grid"
)

// fleetGrid is the Fleet sheet: every deployment together, per GPU, the
// cards all replicas need packed onto the owning scenario's nodes, owning
// all of it against renting all of it, and the cheapest mix in words;
// below, the least month for each number of owned nodes, and its chart.
// The node's cards and cost, the cards and the rent of every deployment
// and, when the cards decide the nodes, the packing and owning all are
// live formulas of Results and Deployment costs; how busy the nodes are,
// the cheapest mix and the month by nodes owned are planner's values, and
// a flag at the top says, live, whether any input they read has changed
// since planner eval computed them (fleet_live.go).
func fleetGrid(out Output, lay *resultsLayout) *grid.Grid {
	cur := out.currency()
	f := out.Fleet
	g := grid.NewOwned(Fleet, HeaderRow, 1, 24, 18, 9, 12, 8, 8, 10, 14, 14, 10, 14)
	// A page or two: the header row is not repeated above the mix and the
	// chart, which have their own.
	g.PrintHeader(0)
	provenance(g, "Fleet: every deployment together, owned on nodes or rented", out,
		"each replica stays within one node, a larger one takes whole nodes; the cards, the rents and the node costs follow Deployment costs and Results live, the cheapest mix and how busy the nodes are are planner eval's: the line below says when an input changed since")
	g.Line(HeaderRow, grid.Headers("GPU", "own: scenario", "cards per node", "node per month", "cards", "nodes", "node busy",
		"own all per month", "rent all per month", "cheapest: nodes", "cheapest per month")...)
	g.WrapHeight(HeaderRow, 9, "cards per node")
	if len(f.GPUs) == 0 {
		g.Line(HeaderRow+1, grid.Text("There is no Deployments sheet, or no deployment in it is costed.", grid.StyleNote))
		return g
	}
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/month"))
	count := grid.WithFormat(grid.StyleResult, "#,##0")
	set := func(col, row int, c grid.Cell, v float64, cents bool) {
		g.Set(col, row, c)
		g.Width(col, figureWidth(v, cents))
	}
	costs := costsLayoutOf(out)
	row := HeaderRow
	for _, gpu := range f.GPUs {
		row++
		g.Line(row, grid.Text(gpu.GPU, grid.StyleLabel), grid.Text(gpu.Scenario, grid.StyleLabel))
		if gpu.Scenario != "" {
			set(3, row, grid.Number(gpu.NodeGPUs, count), gpu.NodeGPUs, false)
			set(4, row, grid.Number(gpu.NodeCost, money), gpu.NodeCost, true)
		}
		set(5, row, grid.Number(float64(gpu.Cards), count), float64(gpu.Cards), false)
		if gpu.Scenario != "" && gpu.Note == "" {
			set(6, row, grid.Number(float64(gpu.Nodes), count), float64(gpu.Nodes), false)
			g.Set(7, row, grid.Number(gpu.Utilization, grid.WithFormat(grid.StyleResult, "0.0%")))
			set(8, row, grid.Number(gpu.OwnPerMonth, money), gpu.OwnPerMonth, true)
		}
		set(9, row, grid.Number(gpu.RentPerMonth, money), gpu.RentPerMonth, true)
		set(10, row, grid.Number(float64(gpu.Best.Nodes), count), float64(gpu.Best.Nodes), false)
		set(11, row, grid.Number(gpu.Best.PerMonth, money), gpu.Best.PerMonth, true)
		fleetLinks(g, out, lay, costs, gpu, row)
	}
	row++
	if rented := rentedOnly(f); len(rented) > 0 {
		// The total owns what a scenario can own and rents the rest: said
		// in the row, across the columns it leaves empty.
		g.Sentence(1, row, 7, "every GPU; own all rents "+diag.ListAnd(rented)+", which no scenario owns", grid.StyleHeader)
	} else {
		g.Line(row, grid.Text("every GPU", grid.StyleHeader))
	}
	sum := func(col int) string {
		return "SUM(" + grid.CellName(col, HeaderRow+1) + ":" + grid.CellName(col, row-1) + ")"
	}
	// Owning all rents the GPUs no scenario owns.
	var ownAll []string
	for i, gpu := range f.GPUs {
		col := 8
		if gpu.Scenario == "" {
			col = 9
		} else if gpu.Note != "" {
			ownAll = nil
			break
		}
		ownAll = append(ownAll, grid.CellName(col, HeaderRow+1+i))
	}
	set(8, row, grid.Linked(grid.Number(f.Best.OwnAll, money), "SUM("+strings.Join(ownAll, ",")+")"), f.Best.OwnAll, true)
	if ownAll == nil {
		set(8, row, grid.Number(f.Best.OwnAll, money), f.Best.OwnAll, true)
	}
	set(9, row, grid.Linked(grid.Number(f.Best.RentAll, money), sum(9)), f.Best.RentAll, true)
	set(10, row, grid.Linked(grid.Number(float64(f.Best.Nodes), count), sum(10)), float64(f.Best.Nodes), false)
	set(11, row, grid.Linked(grid.Number(f.Best.PerMonth, money), sum(11)), f.Best.PerMonth, true)
	row = mixTable(g, f, row+2)
	row = cheapestTable(g, f, row+2)
	row = powerTable(g, out, lay, row+2)
	row += 2
	g.Sentence(1, row, fleetLastCol, "The cheapest mix: "+f.Best.Words+".", grid.StyleLabel)
	for _, gpu := range f.GPUs {
		if u := gpu.Unproven(); u != "" {
			row++
			g.Sentence(1, row, fleetLastCol, facts.FleetLabel(gpu)+": "+u+".", grid.StyleNote)
		}
	}
	if skipped := "Not costed, so outside the fleet: " + strings.Join(f.Best.Skipped, "; ") + "."; len(f.Best.Skipped) > 0 {
		if row++; g.SpanLines(1, fleetLastCol, skipped) <= listLines {
			g.Sentence(1, row, fleetLastCol, skipped, grid.StyleNote)
		} else {
			g.Line(row, grid.Text("Not costed, so outside the fleet:", grid.StyleNote))
			for _, name := range f.Best.Skipped {
				row++
				g.Sentence(1, row, fleetLastCol, name, grid.StyleNote)
			}
		}
	}
	row = curveTable(g, f, row+2)
	if checks := fleetChecks(g, out, lay, costs, row+2); checks != "" {
		flagAt(g, 1, flagRow, fleetLastCol, checks)
		lay.fleetFlagAt = grid.Absolute(Fleet, 1, flagRow)
	}
	return g
}

// flagRow is the row of the Fleet sheet's flag, under the provenance.
const flagRow = ProvenanceRow + 1

// listLines is the most lines a list of names takes in one row: a longer
// one takes a row a name.
const listLines = 4

// figureWidth is the width of a column that shows v whole, with thousands
// separators and, with cents, a dollar sign and two decimals: a fleet of
// millions of nodes outgrows the columns a workbook's fleet fits.
func figureWidth(v float64, cents bool) float64 {
	digits := len(strconv.FormatFloat(math.Abs(math.Round(v)), 'f', 0, 64))
	w := digits + (digits-1)/3 + 2
	if cents {
		w += 4
	}
	// A column is at most 255 characters wide: a figure longer than that
	// (a capex of 1e300, which the plausibility warnings name) shows as
	// #### rather than stopping the sheet.
	return float64(min(w, excelize.MaxColumnWidth))
}

// rentedOnly are the GPUs no scenario owns nodes of: owning all rents them.
func rentedOnly(f fleet.Fleet) []string {
	var out []string
	for _, gpu := range f.GPUs {
		if gpu.Scenario == "" {
			out = append(out, gpu.GPU)
		}
	}
	return out
}

// fleetLastCol is the Fleet table's last column: the mix and its words
// span the table's width, so that the sheet prints one page wide.
const fleetLastCol = 11

// mixTable lists, per GPU, the deployments the cheapest mix owns and those
// it rents, each list wrapped across half the table's width, or, when
// either would take more than listLines, one deployment a row; it returns
// the last row.
func mixTable(g *grid.Grid, f fleet.Fleet, row int) int {
	g.Line(row, grid.Text("GPU", grid.StyleHeader))
	g.Sentence(2, row, 6, "own", grid.StyleHeader)
	g.Sentence(7, row, fleetLastCol, "rent", grid.StyleHeader)
	for _, gpu := range f.GPUs {
		owned := gpu.Best.Own
		if gpu.Note != "" {
			owned = []string{gpu.Note}
		}
		own, rent := strings.Join(owned, "; "), strings.Join(gpu.Best.Rent, "; ")
		if g.SpanLines(2, 6, own) <= listLines && g.SpanLines(7, fleetLastCol, rent) <= listLines {
			row++
			g.Set(1, row, grid.Text(gpu.GPU, grid.StyleLabel))
			g.Sentence(2, row, 6, own, grid.StyleLabel)
			g.Sentence(7, row, fleetLastCol, rent, grid.StyleLabel)
			continue
		}
		for i := range max(len(owned), len(gpu.Best.Rent)) {
			row++
			g.Set(1, row, grid.Text(gpu.GPU, grid.StyleLabel))
			if i < len(owned) {
				g.Sentence(2, row, 6, owned[i], grid.StyleLabel)
			}
			if i < len(gpu.Best.Rent) {
				g.Sentence(7, row, fleetLastCol, gpu.Best.Rent[i], grid.StyleLabel)
			}
		}
	}
	return row
}

// cheapestTable lists how the cheapest mix buys each deployment, a row
// each: own, or which offer and billing rents it (a profile's base and
// peak apart), and its month, owned replicas at their cards' share of the
// nodes the mix owns; it returns the last row.
func cheapestTable(g *grid.Grid, f fleet.Fleet, row int) int {
	g.Sentence(1, row, 3, "deployment", grid.StyleHeader)
	g.Sentence(4, row, 10, "cheapest: own, or the offer and its billing", grid.StyleHeader)
	g.Set(11, row, grid.Text("per month", grid.StyleHeader))
	money := grid.WithFormat(grid.StyleResult, f.Currency.ExcelFormat("$/month"))
	for _, c := range f.Cheapest {
		row++
		g.Sentence(1, row, 3, c.Deployment, grid.StyleLabel)
		g.Sentence(4, row, 10, c.Words, grid.StyleLabel)
		g.Set(11, row, grid.Number(c.PerMonth, money))
		g.Width(11, figureWidth(c.PerMonth, true))
	}
	return row
}

// curveTable lists, for each number of owned nodes, each GPU's least month
// owning that many (the deployments that save most on them owned, the rest
// rented), and draws it. A curve of many nodes is sampled (fleet.GPU's
// Curve): the rows are the nodes any GPU's curve has.
func curveTable(g *grid.Grid, f fleet.Fleet, row int) int {
	cur := f.Currency
	var gpus []fleet.GPU
	at := map[int]bool{}
	least, sampled := true, false
	for _, gpu := range f.GPUs {
		if len(gpu.Curve) > 1 {
			gpus = append(gpus, gpu)
			for _, p := range gpu.Curve {
				at[p.Nodes] = true
			}
			least = least && gpu.CurveLeast
			sampled = sampled || len(gpu.Curve) < gpu.Nodes+1
		}
	}
	if len(gpus) == 0 {
		return row - 2
	}
	nodes := slices.Sorted(maps.Keys(at))
	title := "The least month by the number of owned nodes, per GPU: the deployments that save most on them owned, the rest rented"
	if !least {
		title = "The month by the number of owned nodes, per GPU: the least, or where planner did not search every mix (said above) a mix that fits, the rest rented"
	}
	if sampled {
		title += fmt.Sprintf("; past %d nodes, %d counts of them spread evenly and the cheapest mix's", fleet.CurvePoints-1, fleet.CurvePoints)
	}
	g.Line(row, grid.Text(title, grid.StyleSection))
	header := row + 1
	g.Set(1, header, grid.Text("owned nodes", grid.StyleHeader))
	var labels []string
	for i, gpu := range gpus {
		label := gpu.GPU + " (" + gpu.Scenario + ")"
		labels = append(labels, label)
		g.Set(2+i, header, grid.Text(label, grid.StyleHeader))
	}
	for i := range gpus {
		g.Width(2+i, 16) // a month of the whole fleet: $104,112.42
	}
	g.WrapHeight(header, 16, labels...)
	money := grid.WithFormat(grid.StyleResult, cur.ExcelFormat("$/month"))
	for r, k := range nodes {
		r := header + 1 + r
		g.Set(1, r, grid.Number(float64(k), grid.WithFormat(grid.StyleLabel, "0")))
		g.Width(1, figureWidth(float64(k), false))
		for i, gpu := range gpus {
			if j, ok := slices.BinarySearchFunc(gpu.Curve, k, func(p fleet.Point, k int) int { return cmp.Compare(p.Nodes, k) }); ok {
				g.Set(2+i, r, grid.Number(gpu.Curve[j].PerMonth, money))
				g.Width(2+i, figureWidth(gpu.Curve[j].PerMonth, true))
			}
		}
	}
	last := header + len(nodes)
	chartTop := last + 2
	g.KeepTogether(row, chartTop+fleetChartHeight/rowPixels)
	g.AddChart(grid.CellName(2, chartTop), fleetChart(g.Sheet(), gpus, header, last, nodes[len(nodes)-1], sampled, f.Currency))
	return chartTop + fleetChartHeight/rowPixels
}

// fleetChartHeight is the Fleet chart's height in pixels.
const fleetChartHeight = 420

// fleetChart draws each GPU's month against the nodes owned: its lowest
// point is the cheapest mix. Over many nodes the axis picks its own steps,
// and a sampled curve runs on past the rows where another GPU's has a
// point and it has none.
func fleetChart(sheet string, gpus []fleet.GPU, header, last, most int, sampled bool, cur units.Currency) *excelize.Chart {
	var series []excelize.ChartSeries
	for i := range gpus {
		series = append(series, excelize.ChartSeries{Name: grid.Absolute(sheet, 2+i, header), Categories: grid.Span(sheet, 1, header+1, last),
			Values: grid.Span(sheet, 2+i, header+1, last), Fill: grid.Solid(palette[i%len(palette)]),
			Line: excelize.LineOptions{Type: excelize.LineSolid, Width: 2}, Marker: excelize.ChartMarker{Symbol: "circle", Size: 6}})
	}
	zero, step := 0.0, 0.0
	if most <= 20 {
		step = 1
	}
	chart := &excelize.Chart{
		Type:   excelize.Scatter,
		Series: series,
		Title:  grid.ChartTitle(cur.Words("A month of the fleet by the nodes owned, per GPU ($/month): the lowest point is the cheapest mix")),
		Legend: grid.Legend("right"),
		XAxis: grid.Axis(excelize.ChartAxis{Minimum: &zero, MajorUnit: step, MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0"}},
			"nodes owned"),
		YAxis:     grid.Axis(excelize.ChartAxis{MajorGridLines: true, Minimum: &zero, NumFmt: excelize.ChartNumFmt{CustomNumFmt: cur.Excel("$#,##0")}}, ""),
		Dimension: excelize.ChartDimension{Width: 900, Height: fleetChartHeight},
	}
	if sampled {
		chart.ShowBlanksAs = "span"
	}
	return chart
}
