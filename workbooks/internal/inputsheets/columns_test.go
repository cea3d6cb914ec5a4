package inputsheets

import (
	"maps"
	"slices"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// reversed is s with its columns in the opposite order, as a declaration
// that moved every column would be.
func reversed(s schema.Sheet) schema.Sheet {
	s.Columns = slices.Clone(s.Columns)
	slices.Reverse(s.Columns)
	return s
}

// byHeader writes g alone into a new workbook and reads it back: each
// row below the header as header → raw cell text, empty cells left out.
func byHeader(t *testing.T, g *grid.Grid) []map[string]string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", g.Sheet()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := grid.Write(f, []*grid.Grid{g}); err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows(g.Sheet(), excelize.Options{RawCellValue: true})
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: no rows (%v)", g.Sheet(), err)
	}
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for c, text := range r {
			if text != "" && c < len(rows[0]) {
				m[rows[0][c]] = text
			}
		}
		out = append(out, m)
	}
	return out
}

// TestValuesFollowTheirColumns writes each sheet laid out by its columns'
// keys twice, as declared and with the columns reversed: every value sits
// under its own header either way, and row 2 holds the model's own values
// under the headers of the keys they belong to.
func TestValuesFollowTheirColumns(t *testing.T) {
	m := smallModel()
	m.GPUs[0].Interconnect, m.GPUs[0].Source = "NVLink", "datasheet"
	m.Catalog[0].Source = "card"
	m.Deployments[0].Mix, m.Deployments[0].API, m.Deployments[0].Notes = "3:1", "m at Acme", "batch"
	m.Correlations[0].Notes = "both follow demand"
	m.Targets[0].Notes = "the headline"
	m.Tables[0].Notes = "capex sweep"
	m.Goals[0].Offer, m.Goals[0].Notes = "H100 SXM", "break even"
	for _, c := range []struct {
		s      schema.Sheet
		layout func(schema.Names, schema.Sheet, domain.Model) *grid.Grid
		want   map[string]string // row 2, by column key
	}{
		{schema.GPUs, gpusGrid, map[string]string{"name": "H100", "memory": "80", "watts": "700", "interconnect": "NVLink", "source": "datasheet"}},
		{schema.Models, modelsGrid, map[string]string{"name": "m", "total": "70", "precision": "FP8", "source": "card"}},
		{schema.Deployments, deploymentsGrid, map[string]string{"name": "chat", "model": "m", "gpu": "H100", "replicas": "1",
			"hoursmonth": "730", "notes": "batch", "mix": "3:1", "api": "m at Acme"}},
		{schema.Correlations, correlationsGrid, map[string]string{"a": "capex", "b": "utilization", "rho": "0.5", "notes": "both follow demand"}},
		{schema.Targets, targetsGrid, map[string]string{"name": "cost_per_gpu_hour", "notes": "the headline"}},
		{schema.Tables, tablesGrid, map[string]string{"name": "t", "output": "cost_per_gpu_hour", "rowinput": "capex",
			"rowfrom": "1", "rowto": "2", "rowsteps": "2", "notes": "capex sweep"}},
		{schema.Goals, goalsGrid, map[string]string{"name": "g", "for": "utilization", "target": "cost_per_used_hour",
			"value": "2", "offer": "H100 SXM", "notes": "break even"}},
		{schema.Formulas, formulasGrid, map[string]string{"name": m.Formulas[0].Name, "expression": m.Formulas[0].Source,
			"unit": m.Formulas[0].Unit, "description": m.Formulas[0].Doc, "label": m.Formulas[0].Label}},
	} {
		declared := byHeader(t, c.layout(nil, c.s, m))
		moved := byHeader(t, c.layout(nil, reversed(c.s), m))
		if len(declared) != len(moved) {
			t.Fatalf("%s: %d rows as declared, %d with the columns reversed", c.s.Name, len(declared), len(moved))
		}
		for i := range declared {
			if !maps.Equal(declared[i], moved[i]) {
				t.Errorf("%s row %d: %v as declared, %v with the columns reversed", c.s.Name, i+2, declared[i], moved[i])
			}
		}
		for key, text := range c.want {
			if h := c.s.Column(key).Header; text != "" && declared[0][h] != text {
				t.Errorf("%s row 2 under %q = %q, want %q", c.s.Name, h, declared[0][h], text)
			}
		}
	}
}
