package view

import (
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/units"
)

func specOffers(t *testing.T) *Offers {
	t.Helper()
	plan, err := engine.Build(enginetest.SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	r, err := plan.Eval(domain.Scenario{Name: domain.Base})
	if err != nil {
		t.Fatal(err)
	}
	return OffersOf(plan, r, nil)
}

func TestOfferFiguresInReadingOrder(t *testing.T) {
	os := specOffers(t)
	var names []string
	for _, f := range os.Figures {
		names = append(names, f.Name)
	}
	first := []string{domain.OfferPrice, domain.Breakeven, Verdict}
	last := []string{domain.PaybackMonths, AsOf, CloseCall}
	if len(names) < 6 || !slices.Equal(names[:3], first) || !slices.Equal(names[len(names)-3:], last) {
		t.Fatalf("figures %v: want %v first and %v last", names, first, last)
	}
	var heads []string
	for _, f := range os.Figures {
		if f.In&Terminal != 0 {
			heads = append(heads, f.Head)
		}
	}
	if want := []string{"$/GPU-h", "break-even", "verdict", "own saves/month", "NPV of owning", "payback", ""}; !slices.Equal(heads, want) {
		t.Errorf("terminal columns %q, want %q", heads, want)
	}
}

func TestOfferCells(t *testing.T) {
	os := specOffers(t)
	compared := os.Compared()
	if len(compared) != 4 {
		t.Fatalf("%d offers compared, want SPEC.md's four H100 SXM offers", len(compared))
	}
	community := compared[0]
	if community.Offer.Label() != "RunPod H100 SXM, Community" {
		t.Fatalf("first compared offer %s", community.Offer.Label())
	}
	// Worked out here: the node's month over its GPU-hours, against $2.69.
	perGPUHour := (285000.0/36 + 8*700*1.3/1000*730*0.12 + 1000) / (8 * 730)
	be, _ := os.Cell(community, domain.Breakeven)
	if !be.Number || math.Abs(be.Value-perGPUHour/2.69) > 1e-12 || be.Words != "60.8 %" {
		t.Errorf("break-even %+v, want %v in words 60.8 %%", be, perGPUHour/2.69)
	}
	if v, _ := os.Cell(community, Verdict); v.Text(units.USD, "") != "rent" {
		t.Errorf("verdict %q, want rent: utilisation 50 %% is below break-even", v.Text(units.USD, ""))
	}
	// The saving of $6,217 a month repays $285,000 in 46 months, past 36.
	if p, _ := os.Cell(community, domain.PaybackMonths); p.Number || p.Text(units.USD, "months") != "no payback within 36 months" {
		t.Errorf("payback %+v, want none within 36 months", p)
	}
	if p, _ := os.Cell(compared[1], domain.PaybackMonths); !p.Number || p.Value != 36 || p.Text(units.USD, "months") != "36 months" {
		t.Errorf("payback against Secure %+v, want 36 months: $7,969 a month into $285,000", p)
	}
	if price, _ := os.Cell(community, domain.OfferPrice); price.Text(units.USD, "$/GPU-h") != "$2.69" {
		t.Errorf("price %q, want $2.69", price.Text(units.USD, "$/GPU-h"))
	}
	if c, _ := os.Cell(community, CloseCall); c.Words != community.Call.Why {
		t.Errorf("close call %q, want the Monte Carlo verdict's %q", c.Words, community.Call.Why)
	}
}

func TestCellText(t *testing.T) {
	for _, c := range []struct {
		cell Cell
		unit string
		want string
	}{
		{Cell{Value: 1699.591, Number: true}, "$/month", "$1,699.59"},
		{Cell{Value: 36, Number: true, Words: "36 months"}, "months", "36 months"},
		{Cell{Err: &engine.EvalError{Msg: "division by zero"}}, "$", "#DIV/0!"},
		{Cell{Err: &engine.EvalError{Msg: "utilization failed", Skipped: true}}, "$", "#N/A"},
		{Cell{NA: true}, "$", "#N/A"},
		{Cell{}, "$", ""},
	} {
		if got := c.cell.Text(units.USD, c.unit); got != c.want {
			t.Errorf("%+v in %s: %q, want %q", c.cell, c.unit, got, c.want)
		}
	}
}

func TestOffersWithoutAPlan(t *testing.T) {
	r := &engine.Result{Offers: []engine.OfferResult{{Offer: &domain.Offer{Provider: "RunPod", Name: "H200", Price: 3.59}, Verdict: "rent"}}}
	os := OffersOf(nil, r, nil)
	if v, _ := os.Cell(os.All[0], Verdict); v.Words != "rent" {
		t.Errorf("verdict %+v, want rent", v)
	}
	if _, ok := os.Cell(os.All[0], domain.Breakeven); ok {
		t.Error("a break-even figure without a plan to say the formulas")
	}
}
