package deploy

import (
	"math"
	"strings"
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/wording"
)

func deployAll(t *testing.T) map[string]Result {
	t.Helper()
	p, err := engine.Build(enginetest.FullModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Result{}
	for _, d := range Cost(p, results) {
		out[d.Name] = d
	}
	return out
}

// SPEC.md §5 and the monthly figures of §2, through the deployment cases.
func TestSpecDeployments(t *testing.T) {
	ds := deployAll(t)
	tests := []struct {
		name         string
		cards        int
		perHour      float64 // rent per replica-hour, to the cent
		month, round float64 // rent per month, to SPEC's rounding
	}{
		{"internal 8B assistant", 1, 0.69, 121, 1},
		{"public 70B FP8, workdays", 2, 5.38, 1420, 10},
		{"70B FP8 on one H200", 1, 3.59, 0, 0},
		{"one H100 all month", 1, 2.69, 1964, 1},
		{"one H100, workdays", 1, 2.69, 710, 1},
		{"8 cards, Community", 8, 21.52, 15710, 10},
		{"8 cards, Lambda", 8, 31.92, 23300, 100},
		{"8 cards, AWS", 8, 47.76, 34865, 5},
	}
	for _, tt := range tests {
		d := ds[tt.name]
		if d.Cards != tt.cards || math.Round(d.RentPerReplicaHour*100)/100 != tt.perHour {
			t.Errorf("%s: %d cards at $%.4f/h, want %d at $%.2f", tt.name, d.Cards, d.RentPerReplicaHour, tt.cards, tt.perHour)
		}
		if tt.round > 0 && math.Round(d.RentPerMonth/tt.round)*tt.round != tt.month {
			t.Errorf("%s: $%.2f a month, SPEC says ≈ $%v", tt.name, d.RentPerMonth, tt.month)
		}
	}
}

// Two busy cards of eight, 264 h a month: the node would be 9 % busy, far
// below any break-even, so renting wins.
func TestDeploymentOwnSide(t *testing.T) {
	d := deployAll(t)["public 70B FP8, workdays"]
	if d.Own == nil || d.Own.Nodes != 1 || d.Own.Scenario != domain.Base {
		t.Fatalf("own side %+v", d.Own)
	}
	if want := 2 * 264.0 / (8 * 730); math.Abs(d.Own.Busy-want) > 1e-12 {
		t.Errorf("busy %v, want %v", d.Own.Busy, want)
	}
	want := "rent: $1,420 a month rented from RunPod H100 SXM, Community against $9,554 for owning 1 node of 8×H100 SXM, " +
		"whose cards would be busy 9.0 % of the month, break-even against RunPod H100 SXM, Community is 60.8 %"
	if d.Verdict != wording.Rent || d.Words != want {
		t.Errorf("got %s: %s\nwant %s", d.Verdict, d.Words, want)
	}
	// The H200 case is owned by the scenario that has an H200 node.
	if h := deployAll(t)["70B FP8 on one H200"]; h.Own == nil || h.Own.Scenario != "H200 node" {
		t.Errorf("H200 case owned by %+v", h.Own)
	}
	// An AWS-priced node busy all month: owning wins.
	if a := deployAll(t)["8 cards, AWS"]; a.Verdict != wording.Buy || !strings.HasPrefix(a.Words, "buy: owning 1 node of 8×H100 SXM costs $9,554 a month against $34,865") {
		t.Errorf("%s: %s", a.Verdict, a.Words)
	}
}

// A deployment busy more hours than the month the node's break-even counts
// can pay for owning with the break-even above 100 %: its words say the
// break-even is above 100 %, never that owning never pays.
func TestDeploymentWordsNeverContradictTheVerdict(t *testing.T) {
	m := enginetest.FullModel()
	m.Offers[0].Price = 1.62 // RunPod Community, below owning's $1.64 an hour
	m.Deployments = []domain.Deployment{{Name: "all month", Model: "Llama 3.1 405B", GPU: "H100 SXM", Cards: 8, Replicas: 1,
		HoursPerMonth: 744, Offer: "RunPod H100 SXM, Community"}}
	p, _ := engine.Build(m, Check)
	results, _ := p.EvalAll(nil)
	d := Cost(p, results)[0]
	if d.Verdict != wording.Buy || !strings.HasSuffix(d.Words, "is above 100 %") || strings.Contains(d.Words, "never pays") {
		t.Errorf("%s: %s", d.Verdict, d.Words)
	}
}

// A second row with a deployment's name, in another case and spacing, is
// refused at its name cell, naming the first.
func TestDuplicateNamesRefused(t *testing.T) {
	m := enginetest.FullModel()
	one := domain.Deployment{Name: "one H100, all month", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 1,
		HoursPerMonth: 730, Offer: "RunPod H100 SXM, Community", Origin: diag.Origin{File: "plan.xlsx", Sheet: "Deployments", Row: 8, Col: 1}}
	two := one
	two.Name, two.Cards, two.Origin.Row = "  One H100,  all MONTH ", 4, 13
	other := one
	other.Name, other.Origin.Row = "one H100, workdays", 9
	m.Deployments = []domain.Deployment{one, other, two}
	_, err := engine.Build(m, Check)
	want := `plan.xlsx: Deployments!A13: the deployment "  One H100,  all MONTH " is listed twice: also at Deployments!A8; give each row its own name, or delete one`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	m.Deployments = []domain.Deployment{one, other}
	if _, err := engine.Build(m, Check); err != nil {
		t.Errorf("distinct names: %v", err)
	}
}

// Nodes round as the Deployment costs sheet's INT and ROUNDUP do: a node
// of 7.999999999999999 cards (as a program other than a spreadsheet may
// store 8) holds four replicas of 2 cards, on one node, not two.
func TestNodesForAsSpreadsheets(t *testing.T) {
	for _, c := range []struct {
		cards, replicas int
		node            float64
		want            int
	}{
		{2, 4, 7.999999999999999, 1},
		{2, 5, 8, 2},
		{12, 1, 8, 2},
		{16, 3, 8.000000000000002, 6},
		{3, 3, 8, 2},
	} {
		if got := NodesFor(c.cards, c.replicas, c.node); got != c.want {
			t.Errorf("NodesFor(%d, %d, %v) = %d, want %d", c.cards, c.replicas, c.node, got, c.want)
		}
	}
}

// Two names have one key exactly when domain.SameGPU finds them the same:
// on every pair of names made of letters whose case folds are odd (the
// long s folds with s, the Kelvin sign with k, final sigma with sigma, a
// title-case digraph with its capital and small forms), spaces and an
// invalid byte.
func TestNameKeyIsSameGPU(t *testing.T) {
	parts := []string{"s", "S", "ſ", "k", "K", "K", "σ", "ς", "Σ", "ǅ", "Ǆ", "ǆ", "é", "É", " ", "  ", "\xff", "x"}
	var names []string
	for _, a := range parts {
		for _, b := range parts {
			names = append(names, a+b, " "+a+" "+b)
		}
	}
	for _, a := range names {
		for _, b := range names {
			if same := nameKey(a) == nameKey(b); same != domain.SameGPU(a, b) {
				t.Fatalf("%q and %q: one key %v, SameGPU %v", a, b, same, domain.SameGPU(a, b))
			}
		}
	}
}
