package sheets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/workbooks/internal/grid"
)

// specOutput is SPEC.md's default node evaluated, as eval hands it to the
// sheets.
func specOutput(t *testing.T) Output {
	t.Helper()
	plan, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	results, err := plan.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Output{Version: "test", Plan: plan, Results: results}
}

// specCostPerGPUHour is the default node's cost per GPU-hour worked out
// here: the price over 36 months, the power at PUE 1.3 and $0.12/kWh, the
// rack, over 8 GPUs' 730 hours.
func specCostPerGPUHour() float64 {
	month := 285000.0/36 + 8*700*1.3/1000*730*0.12 + 1000
	return month / (8 * 730)
}

// rowNamed is the row of Results whose Name column (B) holds name, from
// row from on.
func rowNamed(t *testing.T, g *grid.Grid, name string, from int) int {
	t.Helper()
	for row := from; row <= g.LastRow(); row++ {
		if s, _ := g.At(2, row).TextValue(); s == name {
			return row
		}
	}
	t.Fatalf("Results has no row named %s", name)
	return 0
}

func number(t *testing.T, g *grid.Grid, col, row int) float64 {
	t.Helper()
	v, ok := g.At(col, row).NumberValue()
	if !ok {
		t.Fatalf("%s holds no number", grid.CellName(col, row))
	}
	return v
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

func TestResultsOffersSection(t *testing.T) {
	g, lay := resultsGrid(specOutput(t))
	// The H100 SXM offers in Cloud's order, one column each from D.
	offers := []struct {
		label        string
		price        float64
		verdict      string
		payback      string  // words, where owning does not pay back in time
		paybackMonth float64 // else the month
	}{
		{"RunPod H100 SXM, Community", 2.69, "rent", "no payback within 36 months", 0},
		{"RunPod H100 SXM, Secure", 3.29, "buy", "", 36},
		{"Lambda H100, 8-GPU plan", 3.99, "buy", "", 29},
		{"AWS p5.48xlarge Capacity Block", 5.97, "buy", "", 19},
	}
	header := lay.priceRow - 1
	running := 8*700*1.3/1000*730*0.12 + 1000
	for i, o := range offers {
		col := firstValue + i
		if s, _ := g.At(col, header).TextValue(); s != o.label {
			t.Errorf("offer column %d is %q, want %q", i, s, o.label)
		}
		if got := number(t, g, col, lay.priceRow); got != o.price {
			t.Errorf("%s: price %v, want %v", o.label, got, o.price)
		}
		be := specCostPerGPUHour() / o.price
		if got := number(t, g, col, lay.offerRow[domain.Breakeven]); !near(got, be) {
			t.Errorf("%s: break-even %v, want %v", o.label, got, be)
		}
		if s, _ := g.At(col, lay.verdictRow).TextValue(); s != o.verdict {
			t.Errorf("%s: verdict %q, want %q", o.label, s, o.verdict)
		}
		// The payback worked out here: the rent of the used half of the
		// hours less the running cost, into the price, rounded up.
		saving := o.price*8*730*0.5 - running
		if m := math.Ceil(285000 / saving); m <= 36 && m != o.paybackMonth {
			t.Fatalf("%s: the table's payback %v is not the month %v worked out", o.label, o.paybackMonth, m)
		}
		cell := g.At(col, lay.paybackRow)
		if s, ok := cell.TextValue(); o.payback != "" && s != o.payback || o.payback == "" && ok {
			t.Errorf("%s: payback %q, want %q", o.label, s, o.payback)
		}
		if v, ok := cell.NumberValue(); o.payback == "" && (!ok || v != o.paybackMonth || !strings.HasSuffix(cell.Style(), "|0")) {
			t.Errorf("%s: payback %v (%s), want %v months in format 0", o.label, v, cell.Style(), o.paybackMonth)
		}
		// The verdict follows the break-even live, against the base
		// scenario's utilisation.
		beCell := grid.CellName(col, lay.offerRow[domain.Breakeven])
		if f := g.At(col, lay.verdictRow).Formula(); !strings.Contains(f, ">="+beCell) || !strings.HasPrefix(f, "IF(") {
			t.Errorf("%s: verdict formula %q does not compare the utilisation with %s", o.label, f, beCell)
		}
		if f := g.At(col, lay.offerRow[domain.Breakeven]).Formula(); !strings.Contains(f, grid.CellName(col, lay.priceRow)) {
			t.Errorf("%s: break-even formula %q does not read the price in %s", o.label, f, grid.CellName(col, lay.priceRow))
		}
		if name := domain.Breakeven + "_" + domain.Slug(o.label); !slices.Contains(g.Names(), name) {
			t.Errorf("no defined name %s", name)
		}
	}
	if s, _ := g.At(firstValue+len(offers), header).TextValue(); s != "Description" {
		t.Errorf("the column after the offers is %q, not the notes: only the H100 SXM offers are compared", s)
	}
	for row, want := range map[int][3]string{
		lay.priceRow:   {"Offer price", domain.OfferPrice, "$/GPU-h"},
		lay.verdictRow: {"Verdict", "verdict", ""},
		lay.paybackRow: {"Payback", "payback_months", "months"},
		lay.asOfRow:    {"Price as of", "as_of", "date"},
	} {
		for c, w := range want {
			if s, _ := g.At(1+c, row).TextValue(); s != w {
				t.Errorf("row %d column %d: %q, want %q", row, 1+c, s, w)
			}
		}
	}
	if !(lay.priceRow < lay.offerRow[domain.Breakeven] && lay.offerRow[domain.Breakeven]+1 == lay.verdictRow &&
		lay.verdictRow < lay.paybackRow && lay.paybackRow+1 == lay.asOfRow) {
		t.Errorf("rows out of reading order: price %d, break-even %d, verdict %d, payback %d, as of %d",
			lay.priceRow, lay.offerRow[domain.Breakeven], lay.verdictRow, lay.paybackRow, lay.asOfRow)
	}
}

func TestResultsFormulaRows(t *testing.T) {
	out := specOutput(t)
	g, lay := resultsGrid(out)
	row := lay.formulaRow["cost_per_gpu_hour"]
	if row != rowNamed(t, g, "cost_per_gpu_hour", HeaderRow+1) {
		t.Fatalf("the layout's row %d of cost_per_gpu_hour is not the sheet's", row)
	}
	if got, want := number(t, g, firstValue, row), specCostPerGPUHour(); !near(got, want) {
		t.Errorf("cost per GPU-hour %v, want %v", got, want)
	}
	if s, _ := g.At(3, row).TextValue(); s != "$/GPU-h" {
		t.Errorf("cost per GPU-hour's unit %q, want $/GPU-h", s)
	}
	if !slices.Contains(g.Names(), "cost_per_gpu_hour") {
		t.Error("cost_per_gpu_hour has no defined name")
	}
	if s, _ := g.At(1, ProvenanceRow).TextValue(); !strings.HasPrefix(s, "planner test · inputs ") {
		t.Errorf("provenance %q", s)
	} else if _, ok := Computed(s); !ok {
		t.Errorf("Computed does not read its own provenance line %q", s)
	}
}
