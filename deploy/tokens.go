package deploy

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"planner/diag"
	"planner/domain"
)

// Choices a deployment's month can cost least as (Tokens.Cheapest).
const (
	CheapestRent = "rent"
	CheapestOwn  = "own"
	CheapestAPI  = "api"
)

// Tokens is what a deployment's throughput says: the tokens its replicas
// serve a month and what a million of them cost rented, owned and from a
// hosted API. All zero when the deployment gives no throughput.
type Tokens struct {
	PerSecond      float64 // one replica's tokens a second, as the user gave them
	PerMonth       float64 // PerSecond × 3,600 × hours a month × replicas
	PerMillionRent float64 // rent a month ÷ millions of tokens
	// PerMillionOwn is the deployment's cards' share of the owned nodes'
	// cost a month ÷ millions of tokens; 0 when no scenario owns its GPU.
	PerMillionOwn float64
	API           *APISide // nil when no APIs row is compared
	// Cheapest is rent, own or api: the least month of renting, owning
	// whole nodes (Own.CostPerMonth, as the verdict) and the API, of
	// those known. Not the cards' share: alone, the deployment pays for
	// its nodes whole.
	Cheapest string
}

// APISide is a month of the same tokens paid to a hosted API.
type APISide struct {
	domain.API
	PerMillion float64 // the input, cached and output prices blended by the mix
	PerMonth   float64
}

func tokens(m *domain.Model, r Result) Tokens {
	t := Tokens{PerSecond: r.TokensPerReplica}
	if r.Phrase == nil || t.PerSecond <= 0 {
		return t
	}
	t.PerMonth = t.PerSecond * 3600 * r.HoursPerMonth * float64(r.Replicas)
	if t.PerMonth <= 0 || !finite(t.PerMonth) {
		return Tokens{PerSecond: t.PerSecond}
	}
	millions := t.PerMonth / 1e6
	t.PerMillionRent = r.RentPerMonth / millions
	t.Cheapest = CheapestRent
	least := r.RentPerMonth
	if o := r.Own; o != nil {
		t.PerMillionOwn = float64(r.Cards*r.Replicas) * o.NodeCost / o.NodeGPUs / millions
		if o.CostPerMonth <= least { // at a tie, as the verdict: own
			t.Cheapest, least = CheapestOwn, o.CostPerMonth
		}
	}
	if a, ok := apiOf(m, r.Deployment); ok && r.MixIn+r.MixCached+r.MixOut > 0 {
		per := blended(a, r.Deployment)
		t.API = &APISide{API: a, PerMillion: per, PerMonth: per * millions}
		if t.API.PerMonth < least {
			t.Cheapest = CheapestAPI
		}
	}
	return t
}

// blended is an API's price per million tokens of the deployment's mix.
func blended(a domain.API, d domain.Deployment) float64 {
	parts := d.MixIn + d.MixCached + d.MixOut
	if parts <= 0 {
		return 0
	}
	return (d.MixIn*a.Input + d.MixCached*a.Cached + d.MixOut*a.Output) / parts
}

// apiOf is the APIs row the deployment names, by its label or its model,
// or, when it names none, the one for its model; of several, the cheapest
// for its mix, the first of equals.
func apiOf(m *domain.Model, d domain.Deployment) (domain.API, bool) {
	want := strings.TrimSpace(d.API)
	var best *domain.API
	for i, a := range m.APIs {
		if want != "" && strings.EqualFold(strings.TrimSpace(a.Label()), want) {
			return a, true
		}
		model := d.Model
		if want != "" {
			model = want
		}
		if strings.EqualFold(strings.TrimSpace(a.Model), strings.TrimSpace(model)) && (best == nil || blended(a, d) < blended(*best, d)) {
			best = &m.APIs[i]
		}
	}
	if best == nil {
		return domain.API{}, false
	}
	return *best, true
}

// apiLabels lists the APIs rows, sorted, for messages.
func apiLabels(m *domain.Model) string {
	var labels []string
	for _, a := range m.APIs {
		labels = append(labels, a.Label())
	}
	if len(labels) == 0 {
		return "(none: the workbook has no APIs sheet, or it has no rows)"
	}
	return diag.List(sortedCopy(labels))
}

// checkTokens reports a deployment's API comparison that cannot be made.
func checkTokens(m *domain.Model, d domain.Deployment, at func(string) diag.Origin) diag.Diagnostics {
	var out diag.Diagnostics
	fail := func(col, format string, args ...any) {
		out = append(out, &diag.Diagnostic{Origin: at(col), Name: d.Name, Msg: fmt.Sprintf(format, args...)})
	}
	a, found := apiOf(m, d)
	switch {
	case d.API != "" && !found:
		fail("api", "no APIs row %q, by provider and model or by model; name one of: %s", d.API, apiLabels(m))
	case d.API != "" && d.Mix == "":
		fail("api", "comparing with the API %s needs the deployment's input:output token mix; type one, such as 1:1, in its column", a.Label())
	case d.API != "" && d.TokensPerReplica == 0:
		fail("api", "comparing with the API %s needs the tokens per second per replica, to know the tokens a month; type them in their column", a.Label())
	case found && d.MixCached > 0 && a.Cached == 0:
		fail("mix", "the mix %s has a cached share, but the API %s has no cached-input price; %s, or give the mix as input:output", d.Mix, a.Label(), cachedWhere(a))
	}
	return out
}

// cachedWhere says where an API's cached-input price belongs: its cell, or
// the column its sheet lacks.
func cachedWhere(a domain.API) string {
	switch {
	case a.CachedAt.Sheet != "" && a.CachedAt.Row > 0:
		return "type it in " + a.CachedAt.Where()
	case a.Origin.Sheet != "":
		return "add a column headed $ per million cached input tokens to the " + a.Origin.Sheet + " sheet and type it in row " + fmt.Sprint(a.Origin.Row)
	}
	return "give the API a cached-input price"
}

// checkSpan warns of typed cards per replica that are larger than the
// node the deployment would be owned on and do not fill whole nodes: a
// replica stays within one node up to the node's size and takes whole
// nodes beyond it, so the rest of its last node stands idle. It offers
// the whole nodes' cards either side that hold the weights, at least
// minCards (0: not known).
func checkSpan(d domain.Deployment, nodeGPUs float64, scenario string, minCards int) string {
	if d.Cards == 0 || nodeGPUs < 1 || nodeGPUs != math.Trunc(nodeGPUs) || float64(d.Cards) <= nodeGPUs || math.Mod(float64(d.Cards), nodeGPUs) == 0 {
		return ""
	}
	n := int(nodeGPUs)
	whole := (d.Cards + n - 1) / n
	up, down := max(whole, (minCards+n-1)/n)*n, (whole-1)*n
	advice := fmt.Sprintf("type %d or %d cards to fill the nodes", up, down)
	if down < minCards {
		advice = fmt.Sprintf("type %d cards to fill the nodes (%d cannot hold the weights, which need at least %d)", up, down, minCards)
	}
	return fmt.Sprintf("a replica of %d cards is larger than the %d-card %s node the scenario %s owns: owned, each replica takes %d whole nodes and leaves %d of their cards idle; %s",
		d.Cards, n, d.GPU, scenario, whole, whole*n-d.Cards, advice)
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// nodeOf is the scenario whose node a deployment would be owned on, by the
// model's inputs as Build sees them, and the node's cards; "" when none.
func nodeOf(m *domain.Model, d domain.Deployment) (string, float64) {
	base, _ := m.Input(domain.GPU)
	gpus, _ := m.Input(domain.GPUs)
	if d.Scenario == "" && domain.SameGPU(base.Value.Text, d.GPU) {
		return domain.Base, gpus.Value.Num
	}
	for _, s := range m.Scenarios {
		gpu, n := base.Value.Text, gpus.Value.Num
		if v, ok := s.Set[domain.GPU]; ok {
			gpu = v.Text
		}
		if v, ok := s.Set[domain.GPUs]; ok {
			n = v.Num
		}
		if strings.EqualFold(s.Name, d.Scenario) || (d.Scenario == "" && domain.SameGPU(gpu, d.GPU)) {
			return s.Name, n
		}
	}
	if strings.EqualFold(d.Scenario, domain.Base) {
		return domain.Base, gpus.Value.Num
	}
	return "", 0
}
