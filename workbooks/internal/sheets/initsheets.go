package sheets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/engine"
	"planner/sizing"
	"planner/units"
)

// scenariosGrid is the Scenarios sheet: one column per scenario, one row per
// input any scenario changes; an empty cell keeps the Assumptions' value.
func scenariosGrid(scenarios []engine.Scenario, inputs []engine.Input) *Grid {
	g := &Grid{sheet: Scenarios, freezeRows: 1, freezeCols: 1, widths: []float64{22}}
	g.set(1, 1, text("input", styleHeader))
	g.set(1, 2, text("notes", styleLabel))
	var notes []string
	for i, s := range scenarios {
		g.widths = append(g.widths, 20)
		g.set(2+i, 1, text(s.Name, styleHeader))
		g.set(2+i, 2, text(s.Notes, styleWrapNote))
		notes = append(notes, s.Notes)
	}
	g.wrapHeight(2, 20, notes...)
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
		g.set(1, row, text(in.Name, styleLabel))
		// Room for scenarios added to the right, as for rows added below.
		if dv := pickFor(in.Name, fmt.Sprintf("B%d:%s%d", row, diag.ColumnName(len(scenarios)+21), row)); dv != nil {
			g.validations = append(g.validations, dv)
		}
		for i, s := range scenarios {
			if v, ok := s.Set[in.Name]; ok && v.IsText {
				g.set(2+i, row, text(v.Text, styleInput))
			} else if ok {
				c := number(v.Num, withFormat(styleInput, units.ExcelFormat(in.Unit)))
				if link, ok := s.Links[in.Name]; ok {
					c.formula = absoluteRef(link)
				}
				g.set(2+i, row, c)
			} else {
				g.set(2+i, row, cell{style: styleInput})
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
	return absolute(sheet, col, row)
}

// gpusGrid is the GPU catalog.
func gpusGrid(gpus []sizing.GPUSpec) *Grid {
	g := &Grid{sheet: GPUs, freezeRows: 1, widths: []float64{14, 12, 12, 16, 100}}
	g.line(1, headers("name", "memory GB", "board watts", "interconnect", "source")...)
	for i, x := range gpus {
		row := i + 2
		g.line(row, text(x.Name, styleInput), number(x.MemoryGB, withFormat(styleInput, "#,##0")))
		if x.Watts > 0 {
			g.set(3, row, number(x.Watts, withFormat(styleInput, "#,##0")))
		} else {
			g.set(3, row, cell{style: styleInput})
		}
		g.set(4, row, text(x.Interconnect, styleInput))
		g.set(5, row, text(x.Source, styleNote))
	}
	return g
}

// modelsGrid is the model catalog, with the optional architecture columns.
func modelsGrid(models []sizing.ModelSpec) *Grid {
	g := &Grid{sheet: Models, freezeRows: 1, freezeCols: 1,
		widths: []float64{40, 12, 12, 10, 12, 8, 9, 9, 11, 10, 11, 100}}
	g.line(1, headers("name", "total params B", "active params B", "precision", "bytes per param",
		"layers", "kv heads", "head dim", "max context", "sequences", "kv precision", "source")...)
	g.wrapHeight(1, 10, "active params B")
	for i, m := range models {
		row := i + 2
		g.line(row, text(m.Name, styleInput), number(m.TotalParamsB, withFormat(styleInput, "#,##0.##")),
			optNumber(m.ActiveParamsB, "#,##0.##"), text(m.Precision, styleInput), optNumber(m.BytesPerParam, "0.##"))
		if a := m.Arch; a != nil {
			for j, v := range []float64{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences} {
				g.set(6+j, row, number(v, withFormat(styleInput, "#,##0")))
			}
			g.set(11, row, text(precisionOf(a.KVBytes), styleInput))
		} else {
			for c := 6; c <= 11; c++ {
				g.set(c, row, cell{style: styleInput})
			}
		}
		g.set(12, row, text(m.Source, styleNote))
	}
	return g
}

func optNumber(v float64, format string) cell {
	if v == 0 {
		return cell{style: styleInput}
	}
	return number(v, withFormat(styleInput, format))
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
func deploymentsGrid(ds []engine.Deployment) *Grid {
	g := &Grid{sheet: Deployments, freezeRows: 1, freezeCols: 1,
		widths: []float64{36, 36, 10, 11, 10, 9, 9, 9, 9, 44, 14, 60}}
	g.line(1, headers("name", "model", "precision", "gpu", "cards per replica", "replicas", "hours per day",
		"days per month", "hours per month", "offer", "scenario", "notes")...)
	g.wrapHeight(1, 9, "cards per replica")
	for i, d := range ds {
		row := i + 2
		g.line(row, text(d.Name, styleInput), text(d.Model, styleInput), text(d.Precision, styleInput), text(d.GPU, styleInput),
			optNumber(float64(d.Cards), "#,##0"), number(float64(d.Replicas), withFormat(styleInput, "#,##0")))
		perDay, days, perMonth := usageColumns(d)
		g.set(7, row, optNumber(perDay, "#,##0.##"))
		g.set(8, row, optNumber(days, "#,##0.##"))
		g.set(9, row, optNumber(perMonth, "#,##0.##"))
		g.set(10, row, text(d.Offer, styleInput))
		g.set(11, row, text(d.Scenario, styleInput))
		g.set(12, row, text(d.Notes, styleNote))
	}
	last := len(ds) + 200
	g.validations = append(g.validations,
		validation("cards per replica", "cards", fmt.Sprintf("E2:E%d", last)),
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
