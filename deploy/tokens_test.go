package deploy

import (
	"math"
	"strings"
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// seventyB is the article's one throughput figure: E2E Networks' table,
// Llama 3.1 70B on 4×H100, short chat, 3,438 tokens a second, here on
// workdays (12 h × 22 days) rented from RunPod Community.
func seventyB() domain.Deployment {
	return domain.Deployment{Name: "70B on 4×H100", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 4, Replicas: 1,
		HoursPerMonth: 264, Offer: "RunPod H100 SXM, Community", TokensPerReplica: 3438}
}

func costOne(t *testing.T, m domain.Model) Result {
	t.Helper()
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	return Cost(p, results)[0]
}

// SPEC.md §3's node, a month: capital 285,000 over 36 months, power
// 7.28 kW × 730 h × $0.12, rack $1,000.
const specNodeMonth = 285000.0/36 + 0.7*8*1.3*730*0.12 + 1000

func TestCostPerMillionTokens70B(t *testing.T) {
	m := enginetest.FullModel()
	m.Deployments = []domain.Deployment{seventyB()}
	d := costOne(t, m)
	tokens := 3438.0 * 3600 * 264 // one replica
	if math.Abs(d.Tokens.PerMonth-tokens) > 1e-3 {
		t.Errorf("tokens a month %v, want %v", d.Tokens.PerMonth, tokens)
	}
	rent := 4 * 2.69 * 264 / (tokens / 1e6)
	own := 4 * specNodeMonth / 8 / (tokens / 1e6)
	if math.Abs(d.Tokens.PerMillionRent-rent) > 1e-9 || math.Abs(d.Tokens.PerMillionOwn-own) > 1e-9 {
		t.Errorf("per million rent %v own %v, want %v and %v", d.Tokens.PerMillionRent, d.Tokens.PerMillionOwn, rent, own)
	}
	// In cents, as the README quotes it: 86.9 ¢ rented, 146.2 ¢ owned.
	if got := math.Round(d.Tokens.PerMillionRent * 1000); got != 869 {
		t.Errorf("rent %v tenths of a cent per million tokens, want 869", got)
	}
	if got := math.Round(d.Tokens.PerMillionOwn * 1000); got != 1462 {
		t.Errorf("own %v tenths of a cent per million tokens, want 1462", got)
	}
	if d.Tokens.Cheapest != CheapestRent || d.Tokens.API != nil {
		t.Errorf("cheapest %q, API %+v; want rent, no API", d.Tokens.Cheapest, d.Tokens.API)
	}
	// Twice the replicas: twice the tokens, the same price per million.
	dd := seventyB()
	dd.Replicas = 2
	m.Deployments = []domain.Deployment{dd}
	if d2 := costOne(t, m); math.Abs(d2.Tokens.PerMonth-2*tokens) > 1e-3 || math.Abs(d2.Tokens.PerMillionRent-rent) > 1e-9 {
		t.Errorf("two replicas: %v tokens at %v a million", d2.Tokens.PerMonth, d2.Tokens.PerMillionRent)
	}
}

func TestAPIComparison(t *testing.T) {
	m := enginetest.FullModel()
	m.APIs = []domain.API{
		{Provider: "Dear", Model: "Llama 3.1 70B", Input: 2, Output: 4, Cached: 1},
		{Provider: "Cheap", Model: "llama 3.1 70b", Input: 0.5, Output: 0.7, Cached: 0.1},
		{Provider: "Other", Model: "Llama 3.1 405B", Input: 3, Output: 3},
	}
	d := seventyB()
	d.Mix, d.MixIn, d.MixOut = "3:1", 3, 1
	m.Deployments = []domain.Deployment{d}
	got := costOne(t, m)
	millions := 3438.0 * 3600 * 264 / 1e6
	per := (3*0.5 + 1*0.7) / 4
	if a := got.Tokens.API; a == nil || a.Provider != "Cheap" || math.Abs(a.PerMillion-per) > 1e-12 || math.Abs(a.PerMonth-per*millions) > 1e-6 {
		t.Fatalf("API %+v, want Cheap at %v a million", a, per)
	}
	// 0.55 a million beats renting at 0.87.
	if got.Tokens.Cheapest != CheapestAPI {
		t.Errorf("cheapest %q, want api", got.Tokens.Cheapest)
	}
	// Named by label, the dear one is compared, and renting wins.
	d.API = "dear llama 3.1 70B"
	d.Mix, d.MixIn, d.MixCached, d.MixOut = "2:1:1", 2, 1, 1
	m.Deployments = []domain.Deployment{d}
	got = costOne(t, m)
	per = (2*2 + 1*1 + 1*4) / 4.0
	if a := got.Tokens.API; a == nil || a.Provider != "Dear" || math.Abs(a.PerMillion-per) > 1e-12 || got.Tokens.Cheapest != CheapestRent {
		t.Errorf("named API %+v, cheapest %q; want Dear at %v, rent", a, got.Tokens.Cheapest, per)
	}
}

func TestTokenChecks(t *testing.T) {
	at := diag.Origin{File: "plan.xlsx", Sheet: "Deployments", Row: 5, Col: 14}
	tests := []struct {
		edit func(*domain.Deployment)
		want string
	}{
		{func(d *domain.Deployment) { d.API = "Nobody" },
			`no APIs row "Nobody", by provider and model or by model; name one of: Cheap Llama 3.1 70B`},
		{func(d *domain.Deployment) { d.API = "Cheap Llama 3.1 70B" },
			"comparing with the API Cheap Llama 3.1 70B needs the deployment's input:output token mix; type one, such as 1:1, in its column"},
		{func(d *domain.Deployment) {
			d.API, d.Mix, d.MixIn, d.MixOut, d.TokensPerReplica = "Cheap Llama 3.1 70B", "1:1", 1, 1, 0
		},
			"comparing with the API Cheap Llama 3.1 70B needs the tokens per second per replica, to know the tokens a month; type them in their column"},
		{func(d *domain.Deployment) { d.Mix, d.MixIn, d.MixCached, d.MixOut = "1:1:1", 1, 1, 1 },
			"the mix 1:1:1 has a cached share, but the API Cheap Llama 3.1 70B has no cached-input price; give the API a cached-input price, or give the mix as input:output"},
	}
	for _, tt := range tests {
		m := enginetest.FullModel()
		m.APIs = []domain.API{{Provider: "Cheap", Model: "Llama 3.1 70B", Input: 0.5, Output: 0.7}}
		d := seventyB()
		d.Where = map[string]diag.Origin{"api": at, "mix": at, "cards": at}
		tt.edit(&d)
		m.Deployments = []domain.Deployment{d}
		_, err := engine.Build(m, Check)
		want := "plan.xlsx: Deployments!N5: 70B on 4×H100: " + tt.want
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
}

// A replica larger than the node that does not fill whole nodes is
// costed, whole nodes each, with a warning at its cards.
func TestReplicaLargerThanANode(t *testing.T) {
	m := enginetest.FullModel()
	d := seventyB()
	d.Cards = 12
	d.Where = map[string]diag.Origin{"cards": {File: "plan.xlsx", Sheet: "Deployments", Row: 5, Col: 5}}
	m.Deployments = []domain.Deployment{d}
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	want := "plan.xlsx: Deployments!E5: 70B on 4×H100: a replica of 12 cards is larger than the 8-card H100 SXM node the scenario base owns: " +
		"owned, each replica takes 2 whole nodes and leaves 4 of their cards idle; type 16 or 8 cards to fill the nodes"
	if w := p.Warnings(); len(w) != 1 || w[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", w, want)
	}
	results, _ := p.EvalAll(nil)
	if c := Cost(p, results)[0]; c.Own == nil || c.Own.Nodes != 2 {
		t.Errorf("own side %+v, want 2 nodes", c.Own)
	}
}

// A replica stays within one node up to the node's size; a larger one
// takes whole nodes.
func TestNodesFor(t *testing.T) {
	for _, tt := range []struct {
		cards, replicas int
		node            float64
		want            int
	}{
		{2, 4, 8, 1}, {2, 5, 8, 2}, {3, 5, 8, 3}, {3, 2, 8, 1}, {8, 3, 8, 3}, {16, 1, 8, 2}, {16, 3, 8, 6}, {5, 2, 8, 2},
	} {
		if got := NodesFor(tt.cards, tt.replicas, tt.node); got != tt.want {
			t.Errorf("%d×%d cards on %g-card nodes: %d nodes, want %d", tt.replicas, tt.cards, tt.node, got, tt.want)
		}
	}
}

// The advice for a replica larger than a node offers only whole nodes'
// cards that hold the weights: Llama 3.1 405B in BF16 is 405 × 2 = 810 GB,
// at least ⌈810 ÷ 80⌉ = 11 H100s, so of 16 and 8 only 16.
func TestSpanAdviceHoldsTheWeights(t *testing.T) {
	m := enginetest.FullModel()
	d := domain.Deployment{Name: "405B in BF16", Model: "Llama 3.1 405B", Precision: "BF16", GPU: "H100 SXM", Cards: 12, Replicas: 1,
		HoursPerMonth: 730, Offer: "Lambda H100, 8-GPU plan",
		Where: map[string]diag.Origin{"cards": {File: "plan.xlsx", Sheet: "Deployments", Row: 6, Col: 5}}}
	m.Deployments = []domain.Deployment{d}
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	want := "plan.xlsx: Deployments!E6: 405B in BF16: a replica of 12 cards is larger than the 8-card H100 SXM node the scenario base owns: " +
		"owned, each replica takes 2 whole nodes and leaves 4 of their cards idle; type 16 cards to fill the nodes (8 cannot hold the weights, which need at least 11)"
	if w := p.Warnings(); len(w) != 1 || w[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", w, want)
	}
	// The card count it offers is allowed; the one it leaves out is not.
	for cards, refused := range map[int]bool{16: false, 8: true} {
		d.Cards = cards
		m.Deployments = []domain.Deployment{d}
		_, err := engine.Build(m, Check)
		wantErr := "plan.xlsx: Deployments!E6: 405B in BF16: 8 cards per replica cannot hold Llama 3.1 405B: 810 GB of weights need at least 11×H100 SXM"
		if refused != (err != nil) || refused && err.Error() != wantErr {
			t.Errorf("%d cards: %v", cards, err)
		}
	}
}

// A cached share with an API that has no cached-input price names the
// cell the price belongs in, or the column the APIs sheet lacks.
func TestCachedPriceWhere(t *testing.T) {
	row := diag.Origin{File: "plan.xlsx", Sheet: "APIs", Row: 3, Col: 1}
	cell := row
	cell.Col = 5
	for _, tt := range []struct {
		cached diag.Origin
		want   string
	}{
		{cell, "type it in APIs!E3"},
		{diag.Origin{}, "add a column headed $ per million cached input tokens to the APIs sheet and type it in row 3"},
	} {
		m := enginetest.FullModel()
		m.APIs = []domain.API{{Provider: "Cheap", Model: "Llama 3.1 70B", Input: 0.5, Output: 0.7, Origin: row, CachedAt: tt.cached}}
		d := seventyB()
		d.Mix, d.MixIn, d.MixCached, d.MixOut = "1:1:1", 1, 1, 1
		d.Where = map[string]diag.Origin{"mix": {File: "plan.xlsx", Sheet: "Deployments", Row: 5, Col: 15}}
		m.Deployments = []domain.Deployment{d}
		_, err := engine.Build(m, Check)
		want := "plan.xlsx: Deployments!O5: 70B on 4×H100: the mix 1:1:1 has a cached share, but the API Cheap Llama 3.1 70B has no cached-input price; " +
			tt.want + ", or give the mix as input:output"
		if err == nil || err.Error() != want {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
}
