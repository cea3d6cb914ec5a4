package inputsheets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/domain"
	"planner/formulas"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// smallModel has one row of every input sheet, and the inputs that pick
// from the catalogs.
func smallModel() domain.Model {
	return domain.Model{
		Inputs: []domain.Input{
			{Name: "gpu", Value: domain.Text("H100"), Unit: units.Text},
			{Name: "capex", Value: domain.Num(285000), Unit: "$", Low: 250000, High: 320000, HasRange: true},
			{Name: "utilization", Value: domain.Num(0.5), Unit: "%"},
		},
		Scenarios:    []domain.Scenario{{Name: "low", Set: map[string]domain.Value{"capex": domain.Num(250000)}}},
		Offers:       []domain.Offer{{Provider: "Lambda", Name: "H100 SXM", GPU: "H100", Price: 2.99, AsOf: "2026-10-10"}},
		APIs:         []domain.API{{Provider: "Acme", Model: "m", Input: 0.6, Output: 2.4, AsOf: "2026-10-10"}},
		GPUs:         []sizing.GPUSpec{{Name: "H100", MemoryGB: 80, Watts: 700}},
		Catalog:      []sizing.ModelSpec{{Name: "m", TotalParamsB: 70, Precision: "FP8"}},
		Deployments:  []domain.Deployment{{Name: "chat", Model: "m", GPU: "H100", Replicas: 1, HoursPerMonth: 730, Usage: "730 h a month"}},
		Correlations: []domain.Correlation{{A: "capex", B: "utilization", Rho: 0.5}},
		Targets:      []domain.TargetSpec{{Name: "cost_per_gpu_hour"}},
		Tables:       []domain.TableSpec{{Name: "t", Output: "cost_per_gpu_hour", Row: domain.Axis{Input: "capex", From: 1, To: 2, Steps: 2}}},
		Goals:        []domain.Goal{{Name: "g", For: "utilization", Target: "cost_per_used_hour", Value: 2}},
		Formulas:     formulas.Library(),
	}
}

// written lays out m's input sheets, named as n says, in a new workbook,
// and opens what it wrote.
func written(t *testing.T, m domain.Model, n schema.Names) *excelize.File {
	t.Helper()
	f := excelize.NewFile()
	grids := Input(m, n, nil)
	if err := f.SetSheetName("Sheet1", grids[0].Sheet()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := grid.Write(f, grids); err != nil {
		t.Fatal(err)
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	back, err := excelize.OpenReader(buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { back.Close() })
	return back
}

func TestSheetsAreWrittenInDeclaredOrder(t *testing.T) {
	f := written(t, smallModel(), nil)
	if got, want := f.GetSheetList(), schema.InputNames(); !slices.Equal(got, want) {
		t.Errorf("sheets %v, want %v", got, want)
	}
}

func TestHeadersAreTheDeclarations(t *testing.T) {
	f := written(t, smallModel(), nil)
	for _, s := range schema.Inputs() {
		rows, err := f.GetRows(s.Name)
		if err != nil || len(rows) == 0 {
			t.Fatalf("%s: no rows (%v)", s.Name, err)
		}
		header := rows[0]
		if s.Name == schema.Scenarios.Name {
			header = header[:1] // then one column per scenario
		}
		if want := s.Headers(); !slices.Equal(header[:min(len(header), len(want))], want) || len(header) < len(want) {
			t.Errorf("%s: header %q, want %q", s.Name, header, want)
		}
	}
}

// TestWidthsAreTheDeclarations checks the grids: ooxml.Pack, not grid,
// puts the widths into the sheet's part.
func TestWidthsAreTheDeclarations(t *testing.T) {
	for i, g := range Input(smallModel(), nil, nil) {
		s := schema.Inputs()[i]
		if got, want := g.Widths()[:len(s.Columns)], s.Widths(); !slices.Equal(got, want) {
			t.Errorf("%s: widths %v, want %v", s.Name, got, want)
		}
	}
}

// covering is the validation whose cells include cell, or nil.
func covering(dvs []*excelize.DataValidation, cell string) *excelize.DataValidation {
	for _, dv := range dvs {
		for _, part := range strings.Fields(dv.Sqref) {
			first, last, _ := strings.Cut(part, ":")
			if last == "" {
				last = first
			}
			c1, r1, _ := excelize.CellNameToCoordinates(first)
			c2, r2, _ := excelize.CellNameToCoordinates(last)
			c, r, _ := excelize.CellNameToCoordinates(cell)
			if c >= c1 && c <= c2 && r >= r1 && r <= r2 {
				return dv
			}
		}
	}
	return nil
}

// TestValidationsAreTheDeclarations checks every column that declares a
// pick list or a unit: its second row picks from that sheet's names, or
// the precisions, or takes only what the unit allows.
func TestValidationsAreTheDeclarations(t *testing.T) {
	n := schema.Names{schema.Formulas.Name: "Formulas (planner)"}
	f := written(t, smallModel(), n)
	checked := 0
	for _, s := range schema.Inputs() {
		dvs, err := f.GetDataValidations(n.Of(s.Name))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range s.Columns {
			if c.Pick == "" && c.Unit == "" {
				continue
			}
			checked++
			cell := fmt.Sprintf("%c2", 'A'+i)
			dv := covering(dvs, cell)
			if dv == nil {
				t.Errorf("%s!%s (%s): no validation", s.Name, cell, c.Key)
				continue
			}
			switch {
			case c.Pick == schema.Precisions:
				for _, p := range sizing.Precisions() {
					if !strings.Contains(dv.Formula1, p) {
						t.Errorf("%s!%s: list %s lacks %s", s.Name, cell, dv.Formula1, p)
					}
				}
			case c.Pick == schema.Attentions:
				if want := `"grouped-query,multi-head latent,sliding window"`; dv.Formula1 != want {
					t.Errorf("%s!%s (%s): picks from %s, want %s", s.Name, cell, c.Key, dv.Formula1, want)
				}
			case c.Pick == schema.Billings:
				if want := `"used hours,all hours,spot"`; dv.Formula1 != want {
					t.Errorf("%s!%s (%s): picks from %s, want %s", s.Name, cell, c.Key, dv.Formula1, want)
				}
			case c.Pick == schema.Offers:
				if want := "Cloud!$B$2:$B$200"; dv.Formula1 != want {
					t.Errorf("%s!%s (%s): picks from %s, want %s", s.Name, cell, c.Key, dv.Formula1, want)
				}
			case c.Pick != "":
				picked, _ := schema.Named(c.Pick)
				name := n.Of(c.Pick)
				if strings.Contains(name, " ") {
					name = "'" + name + "'"
				}
				if want := fmt.Sprintf("%s!$A$2:$A$%d", name, picked.NamesTo); dv.Formula1 != want {
					t.Errorf("%s!%s (%s): picks from %s, want %s", s.Name, cell, c.Key, dv.Formula1, want)
				}
			default:
				whole := units.ConstraintOf(c.Unit) == units.WholeCount
				if got := dv.Type == "whole"; got != whole {
					t.Errorf("%s!%s (%s, %s): validation type %s", s.Name, cell, c.Key, c.Unit, dv.Type)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("checked %d columns; the declarations give more", checked)
	}
}

func TestEveryInputValueIsNamed(t *testing.T) {
	m := smallModel()
	f := written(t, m, nil)
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		names[dn.Name] = dn.RefersTo
	}
	for i, in := range m.Inputs {
		want := fmt.Sprintf("%s!$%s$%d", schema.Assumptions.Name, "B", i+2)
		if got := names[in.Name]; got != want {
			t.Errorf("%s refers to %q, want %q", in.Name, got, want)
		}
	}
}

// leases is a sheet with no layout of its own: a name, and dollars a month.
var leases = schema.Sheet{Name: "Leases", Columns: []schema.Column{
	{Key: "name", Header: "name", Required: true, Width: 20},
	{Key: "permonth", Header: "$ per month", Required: true, Unit: "$/month", Width: 14},
}}

// TestTableGridIsTheDeclaration writes two leases, the second without a
// price: the header row is the declaration's, the price a number in
// dollars and cents, the empty cell left out, and the price column refuses
// a negative amount on the two rows and a hundred more (B2:B103).
func TestTableGridIsTheDeclaration(t *testing.T) {
	n := schema.Names{leases.Name: "Leases (planner)"}
	g := tableGrid(n, leases, []map[string]string{{"name": "rack", "permonth": "1200.5"}, {"name": "site"}})
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", g.Sheet()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := grid.Write(f, []*grid.Grid{g}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"A1": "name", "B1": "$ per month", "A2": "rack", "B2": "1200.5", "A3": "site", "B3": ""}
	for cell, text := range want {
		if got, _ := f.GetCellValue("Leases (planner)", cell, excelize.Options{RawCellValue: true}); got != text {
			t.Errorf("%s = %q, want %q", cell, got, text)
		}
	}
	if typ, _ := f.GetCellType("Leases (planner)", "B2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Errorf("B2 is of type %v, want a number", typ)
	}
	dvs, err := f.GetDataValidations("Leases (planner)")
	if err != nil {
		t.Fatal(err)
	}
	if len(dvs) != 1 || dvs[0].Sqref != "B2:B103" || dvs[0].Operator != "greaterThanOrEqual" || dvs[0].Formula1 != "0" {
		for _, dv := range dvs {
			t.Logf("validation %s %s %s", dv.Sqref, dv.Operator, dv.Formula1)
		}
		t.Errorf("want one validation, B2:B103 at least 0")
	}
}

// TestTableCell: a number only where the column has a unit.
func TestTableCell(t *testing.T) {
	price, name := leases.Column("permonth"), leases.Column("name")
	for _, c := range []struct {
		col  schema.Column
		text string
		want grid.Cell
	}{
		{price, "1200", grid.Number(1200, grid.WithFormat(grid.StyleInput, "$#,##0.00"))},
		{price, "ask", grid.Text("ask", grid.StyleInput)},
		{name, "42", grid.Text("42", grid.StyleInput)},
	} {
		if got := tableCell(c.col, c.text); got != c.want {
			t.Errorf("tableCell(%s, %q) = %+v, want %+v", c.col.Key, c.text, got, c.want)
		}
	}
}
