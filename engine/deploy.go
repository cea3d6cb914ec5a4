package engine

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"planner/formulas"
	"planner/sizing"
)

// Deployment is one way of serving a model: so many replicas of so many
// cards, busy so many hours a month, rented from one offer, compared with
// owning nodes of that GPU.
type Deployment struct {
	Name          string
	Model         string
	Precision     string // "": the model's own
	GPU           string
	Cards         int // cards per replica; 0: from sizing
	Replicas      int
	HoursPerMonth float64 // hours each replica is busy in a month
	Usage         string  // how the hours were given, for people: "12 h × 22 days"
	Offer         string  // an offer's label; "": the cheapest offer of the GPU
	Scenario      string  // the scenario that owns nodes of this GPU; "": chosen by GPU
	Notes         string
	Origin        formulas.Origin
	Where         map[string]formulas.Origin // the cell of each column
	Texts         map[string]bool            // the number columns typed as text ("264")
}

// OwnSide is what owning nodes for a deployment would cost.
type OwnSide struct {
	Scenario     string
	Nodes        int
	NodeGPUs     float64
	Busy         float64 // share of the owned cards' calendar hours they work
	CostPerMonth float64
	Breakeven    float64 // against the deployment's offer; 0 when not known
}

// DeploymentResult is a deployment costed.
type DeploymentResult struct {
	Deployment
	Sizing             *sizing.Result // when the cards come from sizing
	Cards              int
	SizedCards         int // what sizing gives, whether or not the deployment typed its own cards; 0 when it cannot
	Offer              Offer
	RentPerReplicaHour float64
	RentPerMonth       float64
	Own                *OwnSide // nil when no scenario owns a node of the GPU
	Verdict            string   // buy or rent; "" when there is nothing to compare or it is not costed
	Words              string   // the verdict, or why there is none, in words
	Phrase             Phrase   // the verdict in words, word by word; nil when not costed
}

// Deploy costs every deployment of the model, using the scenarios' results
// (base first, then the named scenarios) for the owning side.
func (p *Plan) Deploy(results []*Result) []DeploymentResult {
	var out []DeploymentResult
	for _, d := range p.model.Deployments {
		out = append(out, p.deploy(d, results))
	}
	return out
}

func (p *Plan) deploy(d Deployment, results []*Result) DeploymentResult {
	r := DeploymentResult{Deployment: d, Cards: d.Cards}
	own := p.ownScenario(d, results)
	s, err := p.sizeDeployment(d, own, results)
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
	r.Offer, _ = p.deploymentOffer(d)
	r.RentPerReplicaHour = float64(r.Cards) * r.Offer.Price
	r.RentPerMonth = r.RentPerReplicaHour * d.HoursPerMonth * float64(d.Replicas)
	if !finite(r.RentPerMonth) {
		r.RentPerReplicaHour, r.RentPerMonth = 0, 0
		r.Words = "not costed: the rent per month is too large to be a number; check the offer's price, the cards and the replicas"
		return r
	}
	if own != nil {
		r.Own = ownSide(own, r)
	}
	r.Verdict, r.Phrase = deploymentVerdict(r)
	r.Words = r.Phrase.String()
	return r
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
func (p *Plan) ownScenario(d Deployment, results []*Result) *Result {
	for _, r := range results {
		if d.Scenario != "" && strings.EqualFold(r.Scenario, d.Scenario) {
			return r
		}
	}
	if d.Scenario != "" {
		return nil
	}
	for _, r := range results {
		if SameGPU(r.Text[GPU], d.GPU) {
			return r
		}
	}
	return nil
}

// sizeDeployment sizes the deployment's model with the KV headroom and node
// size of its owning scenario, or of the base.
func (p *Plan) sizeDeployment(d Deployment, own *Result, results []*Result) (sizing.Result, error) {
	rules := own
	if rules == nil && len(results) > 0 {
		rules = results[0]
	}
	m, _ := p.model.ModelSpec(d.Model)
	if d.Precision != "" {
		m.Precision, m.BytesPerParam = d.Precision, 0
	}
	g, _ := p.model.GPUSpec(d.GPU)
	return sizing.Size(m, g, rules.SizingRule())
}

// deploymentOffer is the offer the deployment names, or the cheapest offer
// of its GPU.
func (p *Plan) deploymentOffer(d Deployment) (Offer, bool) {
	var best *Offer
	for i, o := range p.model.Offers {
		if d.Offer != "" && strings.EqualFold(o.Label(), strings.TrimSpace(d.Offer)) {
			return o, true
		}
		if d.Offer == "" && SameGPU(o.GPU, d.GPU) && (best == nil || o.Price < best.Price) {
			best = &p.model.Offers[i]
		}
	}
	if best == nil {
		return Offer{}, false
	}
	return *best, true
}

func ownSide(own *Result, r DeploymentResult) *OwnSide {
	nodeCost, ok := own.Values[NodeCostPerMonth]
	nodeGPUs, hours := own.Values[GPUs], own.Values[HoursPerMonth]
	if !ok || nodeGPUs <= 0 || hours <= 0 {
		return nil
	}
	cards := float64(r.Cards * r.Replicas)
	s := &OwnSide{Scenario: own.Scenario, NodeGPUs: nodeGPUs, Nodes: int(math.Ceil(cards / nodeGPUs))}
	// A 31-day month of 744 hours keeps owned cards busy all of a 730-hour month.
	s.Busy = min(1, cards*r.HoursPerMonth/(float64(s.Nodes)*nodeGPUs*hours))
	s.CostPerMonth = float64(s.Nodes) * nodeCost
	for _, o := range own.Offers {
		if o.Offer.Label() == r.Offer.Label() {
			s.Breakeven = o.Values[Breakeven]
		}
	}
	return s
}

// deploymentVerdict compares renting with owning whole nodes, in words a
// memo can quote. With no scenario owning a node of the GPU there is
// nothing to compare, and no verdict.
func deploymentVerdict(r DeploymentResult) (string, Phrase) {
	rent := Phrase{number(QuantityRent, r.RentPerMonth, AsDollars), text(" a month rented from " + r.Offer.Label())}
	if r.Own == nil {
		return "", append(Phrase{text("nothing to compare: ")}, append(rent,
			text("; no scenario owns "+r.GPU+" nodes; add a scenario whose gpu is "+r.GPU+" to compare owning them"))...)
	}
	verdict := Rent
	if r.Own.CostPerMonth <= r.RentPerMonth { // at a tie, as for offers: buy
		verdict = Buy
	}
	return verdict, verdictPhrase(r, verdict)
}

// verdictPhrase is the deployment's verdict in words, as it reads for the
// verdict given: a spreadsheet that recalculates picks one of the two.
func verdictPhrase(r DeploymentResult, verdict string) Phrase {
	rent := Phrase{number(QuantityRent, r.RentPerMonth, AsDollars), text(" a month rented from " + r.Offer.Label())}
	o := r.Own
	node := Phrase{number(QuantityNodes, float64(o.Nodes), AsCount), text(" "), number(QuantityNodes, float64(o.Nodes), AsNodes),
		text(" of "), number(QuantityNodeGPUs, o.NodeGPUs, AsCount), text("×" + r.GPU)}
	own := number(QuantityOwn, o.CostPerMonth, AsDollars)
	busy := Phrase{text("busy "), number(QuantityBusy, o.Busy, AsPercent), text(" of the month")}
	if o.Breakeven > 0 {
		busy = append(busy, text(", break-even against "+r.Offer.Label()+" is "), number(QuantityBreakeven, o.Breakeven, AsBreakevenShare))
	}
	var p Phrase
	if verdict == Buy {
		p = Phrase{verdictWord(verdict), text(": owning ")}
		p = append(append(p, node...), text(" costs "), own, text(" a month against "))
		p = append(append(p, rent...), text("; the cards would be "))
	} else {
		p = append(Phrase{verdictWord(verdict), text(": ")}, rent...)
		p = append(append(append(p, text(" against "), own, text(" for owning ")), node...), text(", whose cards would be "))
	}
	return append(p, busy...)
}

// Phrases are the deployment's verdict in words as they would read for
// either verdict, buy first; nil when there is nothing to compare.
func (r DeploymentResult) Phrases() (buy, rent Phrase) {
	if r.Own == nil || r.Phrase == nil {
		return nil, nil
	}
	return verdictPhrase(r, Buy), verdictPhrase(r, Rent)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func dollars(v float64) string {
	if !finite(v) {
		return fmt.Sprint(v)
	}
	s := fmt.Sprintf("%.0f", math.Round(v))
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return "$" + s
}

// offerPhrase is the verdict for one offer in words: "rent: busy 50.0 % of
// the month, break-even against RunPod H100 SXM, Community is 60.8 %".
func offerPhrase(verdict string, utilization, breakeven float64, o Offer) Phrase {
	return Phrase{verdictWord(verdict), text(": busy "), number(QuantityUtilization, utilization, AsPercent),
		text(" of the month, break-even against " + o.Label() + " is "), number(QuantityBreakeven, breakeven, AsBreakeven)}
}

// checkDeployments reports deployments that name what the model lacks.
func (p *Plan) checkDeployments() formulas.List {
	var problems formulas.List
	base, _ := p.model.Input(GPU)
	scenarioGPU := map[string]string{Base: base.Value.Text}
	for _, s := range p.model.Scenarios {
		gpu := base.Value.Text
		if v, ok := s.Set[GPU]; ok {
			gpu = v.Text
		}
		scenarioGPU[strings.ToLower(s.Name)] = gpu
	}
	for _, d := range p.model.Deployments {
		at := func(col string) formulas.Origin {
			if o, ok := d.Where[col]; ok {
				return o
			}
			return d.Origin
		}
		if _, ok := p.model.ModelSpec(d.Model); !ok {
			problems = append(problems, &formulas.Error{Origin: at("model"), Name: d.Name,
				Msg: fmt.Sprintf("the model %q is not in the Models sheet; known models: %s", d.Model, p.catalogNames())})
		}
		if _, ok := p.model.GPUSpec(d.GPU); !ok {
			problems = append(problems, &formulas.Error{Origin: at("gpu"), Name: d.Name,
				Msg: fmt.Sprintf("the GPU %q is not in the GPUs sheet; known GPUs: %s", d.GPU, p.gpuNames())})
		}
		if _, ok := sizing.BytesPer(d.Precision); d.Precision != "" && !ok {
			problems = append(problems, &formulas.Error{Origin: at("precision"), Name: d.Name,
				Msg: fmt.Sprintf("the precision %q is not known; use one of %s", d.Precision, sizing.PrecisionNames())})
		}
		if o, ok := p.deploymentOffer(d); !ok {
			problems = append(problems, &formulas.Error{Origin: at("offer"), Name: d.Name,
				Msg: fmt.Sprintf("no Cloud offer %s; name one of: %s", quoteOr(d.Offer, "for the GPU "+d.GPU), p.offerLabels(d.GPU))})
		} else if !SameGPU(o.GPU, d.GPU) {
			problems = append(problems, &formulas.Error{Origin: at("offer"), Name: d.Name,
				Msg: fmt.Sprintf("the offer %s is for %s, not %s", o.Label(), o.GPU, d.GPU)})
		}
		if d.Scenario != "" {
			if gpu, ok := scenarioGPU[strings.ToLower(d.Scenario)]; !ok {
				problems = append(problems, &formulas.Error{Origin: at("scenario"), Name: d.Name,
					Msg: fmt.Sprintf("there is no scenario %q; the scenarios are base and those in the Scenarios sheet", d.Scenario)})
			} else if !SameGPU(gpu, d.GPU) {
				problems = append(problems, &formulas.Error{Origin: at("scenario"), Name: d.Name,
					Msg: fmt.Sprintf("the scenario %s owns %s nodes, not %s; name a scenario of that GPU, or leave the cell empty", d.Scenario, gpu, d.GPU)})
			}
		}
		if msg := p.tooFewCards(d); msg != "" {
			problems = append(problems, &formulas.Error{Origin: at("cards"), Name: d.Name, Msg: msg})
		}
	}
	return problems
}

// tooFewCards says when typed cards per replica cannot hold the weights.
func (p *Plan) tooFewCards(d Deployment) string {
	m, okM := p.model.ModelSpec(d.Model)
	g, okG := p.model.GPUSpec(d.GPU)
	if d.Cards == 0 || !okM || !okG {
		return ""
	}
	if d.Precision != "" {
		m.Precision, m.BytesPerParam = d.Precision, 0
	}
	s, err := sizing.Size(m, g, sizing.Rule{})
	if err != nil || d.Cards >= s.MinCards {
		return ""
	}
	return fmt.Sprintf("%d cards per replica cannot hold %s: %.0f GB of weights need at least %d×%s", d.Cards, d.Model, s.WeightsGB, s.MinCards, g.Name)
}

func quoteOr(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return fmt.Sprintf("%q", s)
}

func (p *Plan) offerLabels(gpu string) string {
	var labels []string
	for _, o := range p.model.Offers {
		if gpu == "" || SameGPU(o.GPU, gpu) {
			labels = append(labels, o.Label())
		}
	}
	if len(labels) == 0 {
		return "(none: the Cloud sheet has no offer for " + gpu + ")"
	}
	sort.Strings(labels)
	return strings.Join(labels, "; ") // offer labels hold commas of their own
}

func (p *Plan) gpuNames() string {
	var names []string
	for _, g := range p.model.GPUs {
		names = append(names, g.Name)
	}
	return joinSorted(names)
}

func (p *Plan) catalogNames() string {
	var names []string
	for _, m := range p.model.Catalog {
		names = append(names, m.Name)
	}
	return joinSorted(names)
}

func joinSorted(s []string) string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return strings.Join(s, ", ")
}
