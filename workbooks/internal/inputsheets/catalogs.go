package inputsheets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/engine"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/sheets"
)

// scenariosGrid is the Scenarios sheet: one column per scenario, one row per
// input any scenario changes; an empty cell keeps the Assumptions' value.
func scenariosGrid(scenarios []engine.Scenario, inputs []engine.Input) *sheets.Grid {
	g := sheets.NewGrid(sheets.Scenarios, 1, 1, 22)
	g.Set(1, 1, sheets.Text("input", sheets.StyleHeader))
	g.Set(1, 2, sheets.Text("notes", sheets.StyleLabel))
	var notes []string
	for i, s := range scenarios {
		g.Width(2+i, 20)
		g.Set(2+i, 1, sheets.Text(s.Name, sheets.StyleHeader))
		g.Set(2+i, 2, sheets.Text(s.Notes, sheets.StyleWrapNote))
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
		g.Set(1, row, sheets.Text(in.Name, sheets.StyleLabel))
		// Room for scenarios added to the right, as for rows added below.
		if dv := pickFor(in.Name, fmt.Sprintf("B%d:%s%d", row, diag.ColumnName(len(scenarios)+21), row)); dv != nil {
			g.Validate(dv)
		}
		for i, s := range scenarios {
			if v, ok := s.Set[in.Name]; ok && v.IsText {
				g.Set(2+i, row, sheets.Text(v.Text, sheets.StyleInput))
			} else if ok {
				c := sheets.Number(v.Num, sheets.WithFormat(sheets.StyleInput, units.ExcelFormat(in.Unit)))
				if link, ok := s.Links[in.Name]; ok {
					c = sheets.Linked(c, absoluteRef(link))
				}
				g.Set(2+i, row, c)
			} else {
				g.Set(2+i, row, sheets.Blank(sheets.StyleInput))
			}
		}
		row++
	}
	return g
}

// absoluteRef writes a Sheet!A1 reference as Sheet!$A$1.
func absoluteRef(ref string) string {
	sheet, cell, _ := strings.Cut(ref, "!")
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		panic("sheets: a reference " + ref) // planner's own references; a failure is a bug
	}
	return sheets.Absolute(sheet, col, row)
}

// gpusGrid is the GPU catalog.
func gpusGrid(gpus []sizing.GPUSpec) *sheets.Grid {
	g := sheets.NewGrid(sheets.GPUs, 1, 0, 14, 12, 12, 16, 70)
	g.Line(1, sheets.Headers("name", "memory GB", "board watts", "interconnect", "source")...)
	for i, x := range gpus {
		row := i + 2
		g.Line(row, sheets.Text(x.Name, sheets.StyleInput), sheets.Number(x.MemoryGB, sheets.WithFormat(sheets.StyleInput, "#,##0")))
		if x.Watts > 0 {
			g.Set(3, row, sheets.Number(x.Watts, sheets.WithFormat(sheets.StyleInput, "#,##0")))
		} else {
			g.Set(3, row, sheets.Blank(sheets.StyleInput))
		}
		g.Set(4, row, sheets.Text(x.Interconnect, sheets.StyleInput))
		g.Note(5, row, x.Source)
	}
	return g
}

// modelsGrid is the model catalog, with the optional architecture columns.
func modelsGrid(models []sizing.ModelSpec) *sheets.Grid {
	g := sheets.NewGrid(sheets.Models, 1, 1, 40, 12, 12, 10, 12, 8, 9, 9, 11, 10, 11, 40)
	g.Line(1, sheets.Headers("name", "total params B", "active params B", "precision", "bytes per param",
		"layers", "kv heads", "head dim", "max context", "sequences", "kv precision", "source")...)
	g.WrapHeight(1, 10, "active params B")
	for i, m := range models {
		row := i + 2
		g.Line(row, sheets.Text(m.Name, sheets.StyleInput), sheets.Number(m.TotalParamsB, sheets.WithFormat(sheets.StyleInput, "#,##0.##")),
			optNumber(m.ActiveParamsB, "#,##0.##"), sheets.Text(m.Precision, sheets.StyleInput), optNumber(m.BytesPerParam, "0.##"))
		if a := m.Arch; a != nil {
			for j, v := range []float64{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences} {
				g.Set(6+j, row, sheets.Number(v, sheets.WithFormat(sheets.StyleInput, "#,##0")))
			}
			g.Set(11, row, sheets.Text(precisionOf(a.KVBytes), sheets.StyleInput))
		} else {
			for c := 6; c <= 11; c++ {
				g.Set(c, row, sheets.Blank(sheets.StyleInput))
			}
		}
		g.Note(12, row, m.Source)
	}
	return g
}

func optNumber(v float64, format string) sheets.Cell {
	if v == 0 {
		return sheets.Blank(sheets.StyleInput)
	}
	return sheets.Number(v, sheets.WithFormat(sheets.StyleInput, format))
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
// row, which the user extends.
func deploymentsGrid(ds []engine.Deployment) *sheets.Grid {
	g := sheets.NewGrid(sheets.Deployments, 1, 1, 36, 36, 10, 11, 10, 9, 9, 9, 9, 44, 14, 40)
	g.Line(1, sheets.Headers("name", "model", "precision", "gpu", "cards per replica", "replicas", "hours per day",
		"days per month", "hours per month", "offer", "scenario", "notes")...)
	g.WrapHeight(1, 9, "cards per replica")
	for i, d := range ds {
		row := i + 2
		g.Line(row, sheets.Text(d.Name, sheets.StyleInput), sheets.Text(d.Model, sheets.StyleInput), sheets.Text(d.Precision, sheets.StyleInput), sheets.Text(d.GPU, sheets.StyleInput),
			optNumber(float64(d.Cards), "#,##0"), sheets.Number(float64(d.Replicas), sheets.WithFormat(sheets.StyleInput, "#,##0")))
		perDay, days, perMonth := usageColumns(d)
		g.Set(7, row, optNumber(perDay, "#,##0.##"))
		g.Set(8, row, optNumber(days, "#,##0.##"))
		g.Set(9, row, optNumber(perMonth, "#,##0.##"))
		g.Set(10, row, sheets.Text(d.Offer, sheets.StyleInput))
		g.Set(11, row, sheets.Text(d.Scenario, sheets.StyleInput))
		g.Note(12, row, d.Notes)
	}
	last := len(ds) + 200
	g.Validate(validation("cards per replica", "cards", fmt.Sprintf("E2:E%d", last)),
		validation("replicas", "replicas", fmt.Sprintf("F2:F%d", last)),
		pickFor(engine.ModelName, fmt.Sprintf("B2:B%d", last)),
		pickFor(engine.Precision, fmt.Sprintf("C2:C%d", last)),
		pickFor(engine.GPU, fmt.Sprintf("D2:D%d", last)))
	return g
}

// usageColumns splits a deployment's usage back into the columns it came
// from: hours per day and days, or hours per month.
func usageColumns(d engine.Deployment) (perDay, days, perMonth float64) {
	var a, b float64
	if n, _ := fmt.Sscanf(d.Usage, "%g h × %g days", &a, &b); n == 2 {
		return a, b, 0
	}
	return 0, 0, d.HoursPerMonth
}
