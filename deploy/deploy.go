package deploy

import (
	"fmt"
	"math"
	"strings"
	"unicode"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/sizing"
	"planner/units"
	"planner/wording"
)

// Quantities a deployment's verdict in words names, besides the verdict
// and the break-even (wording.QuantityVerdict, wording.QuantityBreakeven).
const (
	QuantityNodes    = "nodes"
	QuantityNodeGPUs = "node_gpus"
	QuantityBusy     = "node_busy"
	QuantityOwn      = "own_per_month"
	QuantityRent     = "rent_per_month"
)

// OwnSide is what owning nodes for a deployment would cost.
type OwnSide struct {
	Scenario     string
	Nodes        int
	NodeGPUs     float64
	NodeCost     float64 // one node a month
	Hours        float64 // the owning scenario's hours in a month
	Busy         float64 // share of the owned cards' calendar hours they work
	CostPerMonth float64
	Breakeven    float64 // against the deployment's offer; 0 when not known
	// NodeKW is one node's full draw with the facility factor (node_kw),
	// NodeIdleKW its draw with every card idle (the full draw without idle
	// watts); both 0 when the scenario does not say (no node_kw formula).
	NodeKW, NodeIdleKW float64
}

// Site is what the workbook says of the site's power: the limit on owned
// nodes' full draw (0: none), the grid's grams of CO2 per kWh (0: not
// given), and where each was typed, for a message.
type Site struct {
	KW, GridCO2     float64
	KWAt, GridCO2At diag.Origin
}

// SiteOf reads the site's power from the base scenario's inputs.
func SiteOf(m *domain.Model, results []*engine.Result) Site {
	var s Site
	if len(results) == 0 {
		return s
	}
	s.KW, s.GridCO2 = results[0].Values[domain.SiteKW], results[0].Values[domain.GridCO2]
	if in, ok := m.Input(domain.SiteKW); ok {
		s.KWAt = in.Origin
	}
	if in, ok := m.Input(domain.GridCO2); ok {
		s.GridCO2At = in.Origin
	}
	return s
}

// Result is a deployment costed.
type Result struct {
	domain.Deployment
	Sizing             *sizing.Result // when the cards come from sizing
	Cards              int
	SizedCards         int // what sizing gives, whether or not the deployment typed its own cards; 0 when it cannot
	Offer              domain.Offer
	RentPerReplicaHour float64 // what a used replica-hour costs, as the offer bills
	RentPerMonth       float64
	Month              string   // the scenario whose hours_per_month are the calendar hours a term bills
	Own                *OwnSide // nil when no scenario owns a node of the GPU
	// Term is the replicas each year and the rent a month over the term
	// with a throughput gain (throughput.go); nil without one.
	Term   *Term
	Tokens // tokens a month, their cost per million, the API's month
	// Parts are what the fleet buys of it, each at the offer of its GPU
	// that rents it for least (cheapest.go); nil when not costed.
	Parts    []Part
	Verdict  string         // buy or rent; "" when there is nothing to compare or it is not costed
	Words    string         // the verdict, or why there is none, in words
	Phrase   wording.Phrase // the verdict in words, word by word; nil when not costed
	Currency units.Currency // the model's: the currency of every amount
}

// Cost costs every deployment of the plan's model, using the scenarios'
// results (base first, then the named scenarios) for the owning side.
func Cost(p *engine.Plan, results []*engine.Result) []Result {
	m := p.Model()
	var out []Result
	for _, d := range m.Deployments {
		out = append(out, cost(&m, d, results))
	}
	return out
}

func cost(m *domain.Model, d domain.Deployment, results []*engine.Result) Result {
	r := Result{Deployment: d, Cards: d.Cards, Currency: m.Currency}
	own := ownScenario(d, results)
	s, err := size(m, d, own, results)
	if err == nil {
		r.SizedCards = s.UsualCards
	}
	if r.Cards == 0 {
		if r.SizedCards == 0 {
			r.Words = "not costed: " + sizingFailure(s, err)
			return r
		}
		r.Sizing, r.Cards = &s, s.UsualCards
	}
	month := own
	if month == nil && len(results) > 0 {
		month = results[0]
	}
	r.Offer, _ = offerOf(m, d, calendarHours(month))
	rent(m, &r, month)
	if !finite(r.RentPerMonth) {
		r.RentPerReplicaHour, r.RentPerMonth = 0, 0
		r.Words = "not costed: the rent per month is too large to be a number; check the offer's price, the cards and the replicas"
		return r
	}
	if own != nil {
		r.Own = ownSide(own, r)
	}
	r.Term = termOf(r, month)
	r.Parts = parts(m, r, calendarHours(month))
	r.Verdict, r.Phrase = verdict(r)
	r.Words = r.Phrase.String()
	r.Tokens = tokens(m, r)
	return r
}

// calendarHours is the month a term bills, month's hours_per_month; 0
// when there is no scenario to take it from, as rent then bills none.
func calendarHours(month *engine.Result) float64 {
	if month == nil {
		return 0
	}
	return month.Values[domain.HoursPerMonth]
}

// cardMonth is what one card rented on an offer of terms t costs a month:
// its used hours, every calendar hour of the month, and the month's part.
func cardMonth(t domain.PriceTerms, usedHours, calendarHours float64) float64 {
	if calendarHours == 0 {
		return t.PerUsedHour * usedHours
	}
	return t.PerUsedHour*usedHours + t.PerCalendarHour*calendarHours + t.PerMonth
}

// rent prices the deployment's cards as its offer bills (domain.PriceTerms):
// per used hour for the deployment's hours, per calendar hour for every
// hour of month's month, and per month, whatever the cards do.
func rent(m *domain.Model, r *Result, month *engine.Result) {
	t := m.Terms(r.Offer)
	r.RentPerReplicaHour = float64(r.Cards) * t.PerUsedHour
	r.RentPerMonth = r.RentPerReplicaHour * r.HoursPerMonth * float64(r.Replicas)
	if month == nil {
		return
	}
	r.Month = month.Scenario
	fixed := t.PerCalendarHour*month.Values[domain.HoursPerMonth] + t.PerMonth
	if fixed == 0 {
		return
	}
	r.RentPerMonth += fixed * float64(r.Cards*r.Replicas)
	r.RentPerReplicaHour = 0
	if r.HoursPerMonth > 0 {
		r.RentPerReplicaHour = r.RentPerMonth / (r.HoursPerMonth * float64(r.Replicas))
	}
}

func sizingFailure(s sizing.Result, err error) string {
	if err != nil {
		return err.Error()
	}
	return s.Note
}

// ownScenario is the scenario whose node the deployment would own: the one
// it names, else the base when its GPU matches, else the first scenario of
// that GPU.
func ownScenario(d domain.Deployment, results []*engine.Result) *engine.Result {
	for _, r := range results {
		if d.Scenario != "" && strings.EqualFold(r.Scenario, d.Scenario) {
			return r
		}
	}
	if d.Scenario != "" {
		return nil
	}
	for _, r := range results {
		if domain.SameGPU(r.Text[domain.GPU], d.GPU) {
			return r
		}
	}
	return nil
}

// size sizes the deployment's model with the KV headroom and node size of
// its owning scenario, or of the base.
func size(m *domain.Model, d domain.Deployment, own *engine.Result, results []*engine.Result) (sizing.Result, error) {
	rules := own
	if rules == nil && len(results) > 0 {
		rules = results[0]
	}
	spec, _ := m.ModelSpec(d.Model)
	if d.Precision != "" {
		spec.Precision, spec.BytesPerParam = d.Precision, 0
	}
	g, _ := m.GPUSpec(d.GPU)
	return sizing.Size(spec, g, rules.SizingRule())
}

// offerOf is the offer the deployment names, or the offer of its GPU that
// rents a card for the deployment's hours for least a month (cardMonth, a
// month of calendarHours), so that a term idle most of the month is not
// chosen for its low list price. Of equal months the lower list price
// wins, then the first offer.
func offerOf(m *domain.Model, d domain.Deployment, calendarHours float64) (domain.Offer, bool) {
	var best *domain.Offer
	var bestMonth float64
	for i, o := range m.Offers {
		if d.Offer != "" && strings.EqualFold(o.Label(), strings.TrimSpace(d.Offer)) {
			return o, true
		}
		if d.Offer != "" || !domain.SameGPU(o.GPU, d.GPU) {
			continue
		}
		month := cardMonth(m.Terms(o), d.HoursPerMonth, calendarHours)
		if best == nil || month < bestMonth || (month == bestMonth && o.Price < best.Price) {
			best, bestMonth = &m.Offers[i], month
		}
	}
	if best == nil {
		return domain.Offer{}, false
	}
	return *best, true
}

func ownSide(own *engine.Result, r Result) *OwnSide {
	nodeCost, ok := own.Values[domain.NodeCostPerMonth]
	nodeGPUs, hours := own.Values[domain.GPUs], own.Values[domain.HoursPerMonth]
	if !ok || nodeGPUs <= 0 || hours <= 0 {
		return nil
	}
	cards := float64(r.Cards * r.Replicas)
	s := &OwnSide{Scenario: own.Scenario, NodeGPUs: nodeGPUs, NodeCost: nodeCost, Hours: hours, Nodes: NodesFor(r.Cards, r.Replicas, nodeGPUs)}
	// A 31-day month of 744 hours keeps owned cards busy all of a 730-hour month.
	s.Busy = min(1, cards*r.HoursPerMonth/(float64(s.Nodes)*nodeGPUs*hours))
	s.CostPerMonth = float64(s.Nodes) * nodeCost
	s.NodeKW, s.NodeIdleKW = nodePower(own)
	for _, o := range own.Offers {
		if o.Offer.Label() == r.Offer.Label() {
			s.Breakeven = o.Values[domain.Breakeven]
		}
	}
	return s
}

// nodePower is one node's full and idle draw in kW, with the facility
// factor, as the scenario's formulas count them: node_kw, and the idle
// watts times the cards and the PUE (node_kw again without idle watts).
func nodePower(own *engine.Result) (full, idle float64) {
	full, ok := own.Values[domain.NodeKW]
	if !ok || !(full > 0) {
		return 0, 0
	}
	watts := own.Values[domain.GPUIdleWatts]
	if !(watts > 0) {
		return full, full
	}
	pue, ok := own.Values[domain.PUE]
	if !ok {
		pue = 1
	}
	return full, min(full, watts*own.Values[domain.GPUs]*pue/1000)
}

// NodesFor is the nodes of nodeGPUs cards that replicas of cards each
// take: a replica stays within one node up to the node's size, so a node
// holds ⌊nodeGPUs ÷ cards⌋ of them; a larger one takes whole nodes. It
// rounds as the Deployment costs sheet's INT and ROUNDUP do.
func NodesFor(cards, replicas int, nodeGPUs float64) int {
	c := float64(cards)
	if c > nodeGPUs {
		return replicas * int(units.CeilAsSpreadsheets(c/nodeGPUs))
	}
	return int(units.CeilAsSpreadsheets(float64(replicas) / units.FloorAsSpreadsheets(nodeGPUs/c)))
}

// verdict compares renting with owning whole nodes, in words a memo can
// quote. With no scenario owning a node of the GPU there is nothing to
// compare, and no verdict.
func verdict(r Result) (string, wording.Phrase) {
	rent := wording.Phrase{wording.Money(r.Currency, QuantityRent, r.RentPerMonth), text(" a month rented from " + r.Offer.Label())}
	if r.Own == nil {
		return "", append(wording.Phrase{text("nothing to compare: ")}, append(rent,
			text("; no scenario owns "+r.GPU+" nodes; add a scenario whose gpu is "+r.GPU+" to compare owning them"))...)
	}
	v := wording.Rent
	if r.Own.CostPerMonth <= r.RentPerMonth { // at a tie, as for offers: buy
		v = wording.Buy
	}
	return v, phrase(r, v)
}

// phrase is the deployment's verdict in words, as it reads for the verdict
// given: a spreadsheet that recalculates picks one of the two.
func phrase(r Result, verdict string) wording.Phrase {
	rent := wording.Phrase{wording.Money(r.Currency, QuantityRent, r.RentPerMonth), text(" a month rented from " + r.Offer.Label())}
	o := r.Own
	node := wording.Phrase{number(QuantityNodes, float64(o.Nodes), wording.AsCount), text(" "), number(QuantityNodes, float64(o.Nodes), wording.AsNodes),
		text(" of "), number(QuantityNodeGPUs, o.NodeGPUs, wording.AsCount), text("×" + r.GPU)}
	own := wording.Money(r.Currency, QuantityOwn, o.CostPerMonth)
	busy := wording.Phrase{text("busy "), number(QuantityBusy, o.Busy, wording.AsPercent), text(" of the month")}
	if o.Breakeven > 0 {
		busy = append(busy, text(", break-even against "+r.Offer.Label()+" is "), number(wording.QuantityBreakeven, o.Breakeven, wording.AsBreakevenShare))
	}
	var p wording.Phrase
	if verdict == wording.Buy {
		p = wording.Phrase{wording.VerdictWord(verdict), text(": owning ")}
		p = append(append(p, node...), text(" costs "), own, text(" a month against "))
		p = append(append(p, rent...), text("; the cards would be "))
	} else {
		p = append(wording.Phrase{wording.VerdictWord(verdict), text(": ")}, rent...)
		p = append(append(append(p, text(" against "), own, text(" for owning ")), node...), text(", whose cards would be "))
	}
	return append(p, busy...)
}

// Phrases are the deployment's verdict in words as they would read for
// either verdict, buy first; nil when there is nothing to compare.
func (r Result) Phrases() (buy, rent wording.Phrase) {
	if r.Own == nil || r.Phrase == nil {
		return nil, nil
	}
	return phrase(r, wording.Buy), phrase(r, wording.Rent)
}

func text(s string) wording.Word { return wording.Word{Text: s} }

func number(quantity string, v float64, f wording.WordFormat) wording.Word {
	return wording.Word{Quantity: quantity, Value: v, Format: f}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Check reports deployments that name what the model lacks; Build runs it
// with the engine's own checks.
func Check(p *engine.Plan) (problems, warnings diag.Diagnostics) {
	m := p.Model()
	base, _ := m.Input(domain.GPU)
	scenarioGPU := map[string]string{domain.Base: base.Value.Text}
	for _, s := range m.Scenarios {
		gpu := base.Value.Text
		if v, ok := s.Set[domain.GPU]; ok {
			gpu = v.Text
		}
		scenarioGPU[strings.ToLower(s.Name)] = gpu
	}
	problems = append(problems, checkNames(m.Deployments)...)
	for _, d := range m.Deployments {
		at := func(col string) diag.Origin {
			if o, ok := d.Where[col]; ok {
				return o
			}
			return d.Origin
		}
		if _, ok := m.ModelSpec(d.Model); !ok {
			problems = append(problems, &diag.Diagnostic{Origin: at("model"), Name: d.Name,
				Msg: fmt.Sprintf("the model %q is not in the Models sheet%s; known models: %s", d.Model, m.SuggestModel(d.Model, d.Name), m.ModelNames())})
		}
		if _, ok := m.GPUSpec(d.GPU); !ok {
			problems = append(problems, &diag.Diagnostic{Origin: at("gpu"), Name: d.Name,
				Msg: fmt.Sprintf("the GPU %q is not in the GPUs sheet%s; known GPUs: %s", d.GPU, m.SuggestGPU(d.GPU, d.Name+" "+d.Offer), m.GPUNames())})
		}
		if _, ok := sizing.BytesPer(d.Precision); d.Precision != "" && !ok {
			problems = append(problems, &diag.Diagnostic{Origin: at("precision"), Name: d.Name,
				Msg: fmt.Sprintf("the precision %q is not known; use one of %s", d.Precision, sizing.PrecisionNames())})
		}
		if o, ok := offerOf(&m, d, 0); !ok {
			problems = append(problems, &diag.Diagnostic{Origin: at("offer"), Name: d.Name,
				Msg: fmt.Sprintf("no Cloud offer %s; name one of: %s", quoteOr(d.Offer, "for the GPU "+d.GPU), m.OfferLabels(d.GPU))})
		} else if !domain.SameGPU(o.GPU, d.GPU) {
			problems = append(problems, &diag.Diagnostic{Origin: at("offer"), Name: d.Name,
				Msg: fmt.Sprintf("the offer %s is for %s, not %s", o.Label(), o.GPU, d.GPU)})
		}
		if d.Scenario != "" {
			if gpu, ok := scenarioGPU[strings.ToLower(d.Scenario)]; !ok {
				problems = append(problems, &diag.Diagnostic{Origin: at("scenario"), Name: d.Name,
					Msg: fmt.Sprintf("there is no scenario %q; the scenarios are base and those in the Scenarios sheet", d.Scenario)})
			} else if !domain.SameGPU(gpu, d.GPU) {
				problems = append(problems, &diag.Diagnostic{Origin: at("scenario"), Name: d.Name,
					Msg: fmt.Sprintf("the scenario %s owns %s nodes, not %s; name a scenario of that GPU, or leave the cell empty", d.Scenario, gpu, d.GPU)})
			}
		}
		least := 0
		if s, ok := weights(&m, d); ok {
			least = s.MinCards
		}
		if msg := tooFewCards(&m, d); msg != "" {
			problems = append(problems, &diag.Diagnostic{Origin: at("cards"), Name: d.Name, Msg: msg})
		}
		if s, n := nodeOf(&m, d); s != "" {
			if msg := checkSpan(d, n, s, least); msg != "" {
				warnings = append(warnings, diag.Warningf(at("cards"), d.Name, "%s", msg))
			}
		}
		problems = append(problems, checkTokens(&m, d, at)...)
	}
	return problems, warnings
}

// checkNames refuses a deployment whose name an earlier row already has,
// ignoring case and spacing: the fleet, the facts and planner diff find
// deployments by name, so the second row would be costed, compared and
// reported as the first. One pass, by each name's key: comparing every
// pair would take the square of the deployments.
func checkNames(ds []domain.Deployment) diag.Diagnostics {
	var problems diag.Diagnostics
	first := map[string]int{}
	for i, d := range ds {
		key := nameKey(d.Name)
		j, seen := first[key]
		if !seen {
			first[key] = i
			continue
		}
		problems = append(problems, &diag.Diagnostic{Origin: d.Origin, Msg: fmt.Sprintf(
			"the deployment %q is listed twice: also at %s; give each row its own name, or delete one", d.Name, ds[j].Origin.Where())})
	}
	return problems
}

// nameKey is what makes two deployment names name the same deployment, as
// domain.SameGPU compares them: the words one space apart, each letter as
// the least of the letters Unicode folds it with, so that two names have
// one key exactly when strings.EqualFold finds their words the same.
func nameKey(name string) string {
	var b strings.Builder
	for i, w := range strings.Fields(name) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range w {
			least := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				least = min(least, f)
			}
			b.WriteRune(least)
		}
	}
	return b.String()
}

// tooFewCards says when typed cards per replica cannot hold the weights.
func tooFewCards(m *domain.Model, d domain.Deployment) string {
	s, ok := weights(m, d)
	if d.Cards == 0 || !ok || d.Cards >= s.MinCards {
		return ""
	}
	return fmt.Sprintf("%d cards per replica cannot hold %s: %.0f GB of weights need at least %d×%s", d.Cards, d.Model, s.WeightsGB, s.MinCards, s.GPU)
}

// weights sizes the deployment's model on its GPU for its weights alone,
// at its precision; false when the catalogs lack either or sizing fails.
func weights(m *domain.Model, d domain.Deployment) (sizing.Result, bool) {
	spec, okM := m.ModelSpec(d.Model)
	g, okG := m.GPUSpec(d.GPU)
	if !okM || !okG {
		return sizing.Result{}, false
	}
	if d.Precision != "" {
		spec.Precision, spec.BytesPerParam = d.Precision, 0
	}
	s, err := sizing.Size(spec, g, sizing.Rule{})
	return s, err == nil
}

func quoteOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return fmt.Sprintf("%q", s)
}
