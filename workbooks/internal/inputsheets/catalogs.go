package inputsheets

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/domain"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// scenariosGrid is the Scenarios sheet: one column per scenario, one row per
// input any scenario changes; an empty cell keeps the Assumptions' value.
func scenariosGrid(n schema.Names, m domain.Model) *grid.Grid {
	scenarios, inputs := m.Scenarios, m.Inputs
	g := grid.New(n.Of(schema.Scenarios.Name), 1, schema.Scenarios.Frozen, schema.Scenarios.Widths()...)
	g.Set(1, 1, grid.Text(schema.Scenarios.Column("input").Header, grid.StyleHeader))
	g.Set(1, 2, grid.Text("notes", grid.StyleLabel))
	var notes []string
	for i, s := range scenarios {
		g.Width(2+i, 20)
		g.Set(2+i, 1, grid.Text(s.Name, grid.StyleHeader))
		g.Set(2+i, 2, grid.Text(s.Notes, grid.StyleWrapNote))
		notes = append(notes, s.Notes)
	}
	g.WrapHeight(2, 20, notes...)
	row := 3
	for _, in := range inputs {
		used := false
		for _, s := range scenarios {
			_, set := s.Set[in.Name]
			used = used || set
		}
		if !used {
			continue
		}
		g.Set(1, row, grid.Text(in.Name, grid.StyleLabel))
		// Room for scenarios added to the right, as for rows added below.
		if dv := pickFor(n, in.Name, fmt.Sprintf("B%d:%s%d", row, diag.ColumnName(len(scenarios)+21), row)); dv != nil {
			g.Validate(dv)
		}
		for i, s := range scenarios {
			if v, ok := s.Set[in.Name]; ok && v.IsText {
				g.Set(2+i, row, grid.Text(v.Text, grid.StyleInput))
			} else if ok {
				c := grid.Number(v.Num, grid.WithFormat(grid.StyleInput, m.Currency.ExcelFormat(in.Unit)))
				if link, ok := s.Links[in.Name]; ok {
					c = grid.Linked(c, absoluteRef(n, link))
				}
				g.Set(2+i, row, c)
			} else {
				g.Set(2+i, row, grid.Blank(grid.StyleInput))
			}
		}
		row++
	}
	return g
}

// absoluteRef writes a Sheet!A1 reference to an input sheet as Sheet!$A$1,
// the sheet as n names it.
func absoluteRef(n schema.Names, ref string) string {
	sheet, cell, _ := strings.Cut(ref, "!")
	sheet = n.Of(sheet)
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		panic("sheets: a reference " + ref) // planner's own references; a failure is a bug
	}
	return grid.Absolute(sheet, col, row)
}

// gpusGrid is the GPU catalog, its columns as s declares them.
func gpusGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	for i, x := range m.GPUs {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(x.Name, grid.StyleInput))
		it.set("memory", grid.Number(x.MemoryGB, grid.WithFormat(grid.StyleInput, "#,##0")))
		it.set("watts", optNumber(x.Watts, "#,##0"))
		it.set("idlewatts", optNumber(x.IdleWatts, "#,##0"))
		it.set("bandwidth", optNumber(x.BandwidthTBs, "0.0#"))
		it.set("interconnect", grid.Text(x.Interconnect, grid.StyleInput))
		it.note("source", x.Source)
		it.set("asof", optText(x.AsOf))
	}
	return g
}

// archKeys are the Models columns of a model's numeric architecture:
// layers, KV heads, head dimension, context and sequences.
var archKeys = []string{"layers", "kvheads", "headdim", "context", "sequences"}

// modelsGrid is the model catalog, with the optional architecture columns,
// its columns as s declares them.
func modelsGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	g := newGrid(n, s)
	g.WrapHeight(1, 10, "active params B")
	for i, spec := range m.Catalog {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(spec.Name, grid.StyleInput))
		it.set("total", grid.Number(spec.TotalParamsB, grid.WithFormat(grid.StyleInput, "#,##0.##")))
		it.set("active", optNumber(spec.ActiveParamsB, "#,##0.##"))
		it.set("precision", grid.Text(spec.Precision, grid.StyleInput))
		it.set("bytes", optNumber(spec.BytesPerParam, "0.##"))
		if a := spec.Arch; a != nil {
			for j, v := range []float64{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences} {
				it.set(archKeys[j], grid.Number(v, grid.WithFormat(grid.StyleInput, "#,##0")))
			}
			it.set("kvprecision", grid.Text(precisionOf(a.KVBytes), grid.StyleInput))
			it.set("attention", optText(a.Attention))
			for k, v := range map[string]float64{"latentdim": a.LatentDim, "ropedim": a.RopeDim, "window": a.Window, "windowedlayers": a.WindowedLayers} {
				it.set(k, optNumber(v, "#,##0"))
			}
		} else {
			for _, k := range append(archKeys, "kvprecision", "attention", "latentdim", "ropedim", "window", "windowedlayers") {
				it.set(k, grid.Blank(grid.StyleInput))
			}
		}
		it.note("source", spec.Source)
	}
	g.Validate(declared(n, s, len(m.Catalog)+1+100, "attention"))
	return g
}

func optText(s string) grid.Cell {
	if s == "" {
		return grid.Blank(grid.StyleInput)
	}
	return grid.Text(s, grid.StyleInput)
}

func optNumber(v float64, format string) grid.Cell {
	if v == 0 {
		return grid.Blank(grid.StyleInput)
	}
	return grid.Number(v, grid.WithFormat(grid.StyleInput, format))
}

// precisionOf names the precision of a byte width, for the KV column.
func precisionOf(bytes float64) string {
	for _, p := range []string{"FP32", "BF16", "FP8", "FP4"} {
		if b, _ := sizing.BytesPer(p); b == bytes {
			return p
		}
	}
	return strconv.FormatFloat(bytes, 'g', -1, 64)
}

// deploymentsGrid is the Deployments sheet: one way of serving a model per
// row, which the user extends; its columns as s declares them.
func deploymentsGrid(n schema.Names, s schema.Sheet, m domain.Model) *grid.Grid {
	ds := m.Deployments
	g := newGrid(n, s)
	g.WrapHeight(1, 9, "cards per replica", "tokens per second per replica")
	for i, d := range ds {
		it := item{g, s, i + 2}
		it.set("name", grid.Text(d.Name, grid.StyleInput))
		it.set("model", grid.Text(d.Model, grid.StyleInput))
		it.set("precision", grid.Text(d.Precision, grid.StyleInput))
		it.set("gpu", grid.Text(d.GPU, grid.StyleInput))
		it.set("cards", optNumber(float64(d.Cards), "#,##0"))
		it.set("replicas", grid.Number(float64(d.Replicas), grid.WithFormat(grid.StyleInput, "#,##0")))
		perDay, days, perMonth := usageColumns(d)
		it.set("hoursday", optNumber(perDay, "#,##0.##"))
		it.set("days", optNumber(days, "#,##0.##"))
		it.set("hoursmonth", optNumber(perMonth, "#,##0.##"))
		it.set("offer", grid.Text(d.Offer, grid.StyleInput))
		it.set("scenario", grid.Text(d.Scenario, grid.StyleInput))
		it.note("notes", d.Notes)
		it.set("tokens", optNumber(d.TokensPerReplica, "#,##0"))
		it.set("peak", optNumber(d.PeakTokens, "#,##0"))
		it.set("api", grid.Text(d.API, grid.StyleInput))
	}
	// The mix is text: typed into a number cell, 3:1 becomes a time of day.
	for row := 2; row <= len(ds)+21; row++ {
		mix := ""
		if row-2 < len(ds) {
			mix = ds[row-2].Mix
		}
		item{g, s, row}.set("mix", grid.Text(mix, grid.WithFormat(grid.StyleInput, "@")))
	}
	last := len(ds) + 200
	g.Validate(declared(n, s, last, "cards"), declared(n, s, last, "replicas"),
		declared(n, s, last, "model"), declared(n, s, last, "precision"), declared(n, s, last, "gpu"))
	return g
}

// usageColumns splits a deployment's usage back into the columns it came
// from: hours per day and days, or hours per month.
func usageColumns(d domain.Deployment) (perDay, days, perMonth float64) {
	var a, b float64
	if n, _ := fmt.Sscanf(d.Usage, "%g h × %g days", &a, &b); n == 2 {
		return a, b, 0
	}
	return 0, 0, d.HoursPerMonth
}

// apisGrid is the APIs sheet: hosted models' prices per million tokens, to
// compare a deployment's month with. planner knows no price of its own, so
// init writes the headers and a note, and no row; a price is formatted in
// the workbook's currency (cur).
func apisGrid(n schema.Names, apis []domain.API, cur units.Currency) *grid.Grid {
	g := newGrid(n, schema.APIs, 4, 90)
	g.WrapHeight(1, 14, "$ per million cached input tokens")
	g.Set(len(schema.APIs.Columns)+2, 1, grid.Text("One row per hosted model: a deployment compares its month of tokens with the row it names in its API column, "+
		"or the cheapest row of its model, at its input:output token mix. Fill the prices from the provider's list, with the date.", grid.Wrapped(grid.StyleNote)))
	money := grid.WithFormat(grid.StyleInput, cur.Excel("$#,##0.00##"))
	for i, a := range apis {
		row := i + 2
		g.Line(row, grid.Text(a.Provider, grid.StyleInput), grid.Text(a.Model, grid.StyleInput), grid.Number(a.Input, money), grid.Number(a.Output, money))
		if a.Cached > 0 {
			g.Set(5, row, grid.Number(a.Cached, money))
		}
		if d, err := time.Parse("2006-01-02", a.AsOf); err == nil {
			g.Set(6, row, grid.Date(d, grid.WithFormat(grid.StyleInput, "yyyy-mm-dd")))
		}
		g.Note(7, row, a.Source)
	}
	// One rule for the three prices, which share their unit.
	s := schema.APIs
	prices := fmt.Sprintf("%s2:%s%d", diag.ColumnName(s.At("input")), diag.ColumnName(s.At("cached")), len(apis)+101)
	g.Validate(validation("$ per million tokens", s.Column("input").Unit, prices))
	return g
}
