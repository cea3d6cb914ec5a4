package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// node is one owned node's inputs, by the names planner gives them. Its
// methods work the figures out as SPEC.md §3 and §4 state them, here and
// not by planner, so that the scripts can hold planner's tables to them.
type node map[string]float64

// articleNode is SPEC.md §3's 8×H100 node at the midpoint, as the default
// workbook holds it.
func articleNode() node {
	return node{"capex": 285000, "gpus": 8, "amortization_months": 36, "hours_per_month": 730, "residual": 0,
		"gpu_watts": 700, "pue": 1.3, "electricity_price": 0.12, "rack_per_month": 1000, "utilization": 0.5,
		"cost_of_capital": 0, "maintenance_per_year": 0, "staff_per_month": 0, "network_per_month": 0}
}

// specWatts are SPEC.md §1's board watts of the GPUs that have them.
var specWatts = map[string]float64{"H100 SXM": 700, "H200": 700, "B200": 1000}

// specPrices are SPEC.md §2's list prices per GPU-hour.
var specPrices = map[string]float64{
	"RunPod H100 SXM, Community": 2.69, "RunPod H100 SXM, Secure": 3.29, "RunPod H100 PCIe, Community": 1.99,
	"RunPod H200": 3.59, "RunPod B200": 5.98, "RunPod RTX 5090, Community": 0.69, "Lambda H100, 8-GPU plan": 3.99,
	"Lambda B200, 8-GPU plan": 6.69, "AWS p5.48xlarge Capacity Block, US East (N. Virginia)": 5.97,
}

// lines are the node's cost lines: the capital written off (less the
// residual) over the amortisation, or with a cost of capital the monthly
// payment whose present value, with the residual's, is the price; the
// node's power at its PUE; the rack, maintenance, staff and network; all
// per GPU-hour and per month.
func (n node) lines() map[string]float64 {
	capex, gpus, months, hours := n["capex"], n["gpus"], n["amortization_months"], n["hours_per_month"]
	rate := n["cost_of_capital"] / 12
	discount := math.Pow(1+rate, -months)
	annuity, capitalMonth := months, capex*(1-n["residual"])/months
	if rate != 0 {
		annuity = 0
		for m := 1.0; m <= months; m++ {
			annuity += math.Pow(1+rate, -m)
		}
		capitalMonth = (capex - n["residual"]*capex*discount) / annuity
	}
	kw := n["gpu_watts"] * gpus * n["pue"] / 1000
	power := kw * hours * n["electricity_price"]
	maintenance := capex * n["maintenance_per_year"] / 12
	perGPUHour := func(month float64) float64 { return month / gpus / hours }
	cost := perGPUHour(capitalMonth + power + n["rack_per_month"] + maintenance + n["staff_per_month"] + n["network_per_month"])
	return map[string]float64{
		"per_gpu_capex": capex / gpus, "amortization_hours": months * hours, "monthly_rate": rate,
		"discount_factor": discount, "annuity_factor": annuity, "capital_per_month": capitalMonth,
		"capital_per_gpu_hour": perGPUHour(capitalMonth), "node_kw": kw, "power_per_month": power,
		"power_per_gpu_hour": perGPUHour(power), "rack_per_gpu_hour": perGPUHour(n["rack_per_month"]),
		"maintenance_per_month": maintenance, "maintenance_per_gpu_hour": perGPUHour(maintenance),
		"staff_per_gpu_hour": perGPUHour(n["staff_per_month"]), "network_per_gpu_hour": perGPUHour(n["network_per_month"]),
		"cost_per_gpu_hour": cost, "cost_per_used_hour": cost / n["utilization"],
		"node_cost_per_month":    cost * gpus * hours,
		"running_cost_per_month": power + n["rack_per_month"] + maintenance + n["staff_per_month"] + n["network_per_month"],
	}
}

// against are the node's figures against a cloud price per GPU-hour
// (SPEC.md §4): break-even is the cost over the price; renting the used
// hours of the node's cards against owning it, and the cash it saves
// over the amortisation, discounted, with the residual sold at the end.
func (n node) against(price float64) map[string]float64 {
	l := n.lines()
	rentNode := price * n["gpus"] * n["hours_per_month"]
	rentUsed := rentNode * n["utilization"]
	cash := rentUsed - l["running_cost_per_month"]
	return map[string]float64{
		"breakeven_utilization": l["cost_per_gpu_hour"] / price, "own_minus_rent_per_used_hour": l["cost_per_used_hour"] - price,
		"rent_per_gpu_month": price * n["hours_per_month"], "rent_node_per_month": rentNode, "rent_used_per_month": rentUsed,
		"own_saving_per_month": rentUsed - l["node_cost_per_month"], "cash_saving_per_month": cash,
		"npv_saving": -n["capex"] + cash*l["annuity_factor"] + n["residual"]*n["capex"]*l["discount_factor"],
	}
}

// evalDoc is what the scripts read of planner eval --format json.
type evalDoc struct {
	File        string
	Scenarios   []evalScenario
	Deployments []evalDeployment
	Fleet       struct {
		GPUs []fleetGPU
		Best struct {
			Own, Rent    []string
			PerMonth     float64 `json:"per_month"`
			OwnAllMonth  float64 `json:"own_all_per_month"`
			RentAllMonth float64 `json:"rent_all_per_month"`
		}
	}
}

type evalScenario struct {
	Name       string
	Values     map[string]float64
	Text       map[string]string
	Offers     []evalOffer
	MonteCarlo *struct {
		Samples, Evaluated int
		Outputs            map[string]sampledOutput
	}
}

type evalOffer struct {
	Provider, Offer, GPU string
	Price                float64 `json:"price_per_gpu_hour"`
	Compared             bool
	Verdict, Words       string
	CloseCall            *struct {
		POwnCheaper float64 `json:"p_own_cheaper"`
		Favours     string  `json:"monte_carlo_favours"`
		Words       string
	} `json:"close_call"`
	Values map[string]float64
}

func (o evalOffer) label() string { return o.Provider + " " + o.Offer }

type evalDeployment struct {
	Name, GPU, Offer, Verdict string
	Cards                     float64  `json:"cards_per_replica"`
	Replicas                  float64  `json:"replicas"`
	Hours                     float64  `json:"hours_per_month"`
	RentPerReplicaHour        float64  `json:"rent_per_replica_hour"`
	RentPerMonth              float64  `json:"rent_per_month"`
	OwnScenario               string   `json:"own_scenario"`
	OwnNodes                  *float64 `json:"own_nodes"`
	OwnPerMonth               *float64 `json:"own_per_month"`
	OwnNodeBusy               *float64 `json:"own_node_busy"`
}

type fleetGPU struct {
	GPU, Scenario string
	Cards         float64
	Nodes         *float64
	Utilization   *float64 `json:"node_utilization"`
	OwnPerMonth   *float64 `json:"own_per_month"`
	RentPerMonth  float64  `json:"rent_per_month"`
	Rent          []string
	BestNodes     float64 `json:"best_nodes"`
	BestPerMonth  float64 `json:"best_per_month"`
}

// readEvals reads the one or more documents planner eval --format json
// printed into a script's file.
func readEvals(ts *testscript.TestScript, file string) []evalDoc {
	data := ts.ReadFile(file)
	var docs []evalDoc
	for dec := json.NewDecoder(strings.NewReader(data)); ; {
		var d evalDoc
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			ts.Fatalf("%s: %v", file, err)
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		ts.Fatalf("%s: no JSON document", file)
	}
	return docs
}

// evalOf is the document of one workbook: "" when there is only one.
func evalOf(ts *testscript.TestScript, file, workbook string) evalDoc {
	docs := readEvals(ts, file)
	for _, d := range docs {
		if d.File == workbook || (workbook == "" && len(docs) == 1) {
			return d
		}
	}
	ts.Fatalf("%s: no document of workbook %q", file, workbook)
	return evalDoc{}
}

func (d evalDoc) scenario(ts *testscript.TestScript, name string) evalScenario {
	for _, s := range d.Scenarios {
		if s.Name == name {
			return s
		}
	}
	ts.Fatalf("%s: no scenario %q", d.File, name)
	return evalScenario{}
}

// number reads a value as --set takes the simple ones: 0.3 or 264/730.
func number(ts *testscript.TestScript, s string) float64 {
	num, den, ratio := strings.Cut(s, "/")
	v, err := strconv.ParseFloat(num, 64)
	ts.Check(err)
	if ratio {
		d, err := strconv.ParseFloat(den, 64)
		ts.Check(err)
		v /= d
	}
	return v
}

// expectedNode is the article's node with the inputs a script names,
// NAME=VALUE, and the GPU's name if one is set (gpu=B200).
func expectedNode(ts *testscript.TestScript, sets []string) (node, string) {
	n, gpu := articleNode(), "H100 SXM"
	for _, s := range sets {
		name, v, ok := strings.Cut(s, "=")
		if !ok {
			ts.Fatalf("want NAME=VALUE, got %q", s)
		}
		if name == "gpu" {
			gpu = v
			n["gpu_watts"] = specWatts[gpu]
			continue
		}
		n[name] = number(ts, v)
	}
	return n, gpu
}

// checker gathers every figure that misses its hand computation, so that
// one run says all of them.
type checker struct{ misses []string }

func (c *checker) value(what string, got map[string]float64, want map[string]float64) {
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if g, ok := got[name]; !ok || !near(g, want[name]) {
			c.misses = append(c.misses, fmt.Sprintf("%s %s: planner %v, by hand %v", what, name, g, want[name]))
		}
	}
}

func (c *checker) that(ok bool, format string, args ...any) {
	if !ok {
		c.misses = append(c.misses, fmt.Sprintf(format, args...))
	}
}

func (c *checker) done(ts *testscript.TestScript, neg bool) {
	switch {
	case neg && len(c.misses) == 0:
		ts.Fatalf("every figure is as worked out by hand")
	case !neg && len(c.misses) > 0:
		ts.Fatalf("%d figures are not as worked out by hand:\n%s", len(c.misses), strings.Join(c.misses, "\n"))
	}
}

// scenarioSets is a scenario and the inputs it sets, NAME=VALUE.
type scenarioSets struct {
	name string
	sets []string
}

// articleScenarios are the default workbook's scenarios, each with what
// it sets over Assumptions; H100 mid takes the Assumptions' capex.
var articleScenarios = []scenarioSets{
	{"base", nil}, {"H100 low", []string{"capex=250000"}}, {"H100 mid", nil}, {"H100 high", []string{"capex=320000"}},
	{"H100 mid, 30 % residual", []string{"residual=0.3"}}, {"H200 node", []string{"gpu=H200", "capex=315000"}},
	{"B200 node", []string{"gpu=B200", "capex=450000"}}, {"2 of 8 busy", []string{"utilization=0.25"}},
}

// owning [-workbook W] FILE SCENARIO [NAME=VALUE...] holds a scenario of
// planner eval's JSON in FILE to SPEC.md's article node with those inputs:
// the inputs as set, every cost line, and against each offer of its GPU
// the break-even, the verdict (buy exactly when the utilisation reaches
// break-even) and what owning saves. SCENARIO "all" checks each of the
// default workbook's scenarios, the inputs given set under its own.
func checkOwning(ts *testscript.TestScript, neg bool, args []string) {
	workbook := ""
	if len(args) > 1 && args[0] == "-workbook" {
		workbook, args = args[1], args[2:]
	}
	if len(args) < 2 {
		ts.Fatalf("usage: owning [-workbook W] FILE SCENARIO|all [NAME=VALUE...]")
	}
	doc := evalOf(ts, args[0], workbook)
	var c checker
	if args[1] != "all" {
		owningScenario(ts, &c, doc.scenario(ts, args[1]), args[2:])
		c.done(ts, neg)
		return
	}
	c.that(len(doc.Scenarios) == len(articleScenarios), "%d scenarios, the default workbook has %d", len(doc.Scenarios), len(articleScenarios))
	for _, s := range articleScenarios {
		owningScenario(ts, &c, doc.scenario(ts, s.name), append(append([]string{}, args[2:]...), s.sets...))
	}
	c.done(ts, neg)
}

func owningScenario(ts *testscript.TestScript, c *checker, s evalScenario, sets []string) {
	n, gpu := expectedNode(ts, sets)
	c.value(s.Name+" input", s.Values, n)
	c.that(s.Text["gpu"] == gpu, "%s: gpu %q, want %q", s.Name, s.Text["gpu"], gpu)
	c.value(s.Name, s.Values, n.lines())
	for _, o := range s.Offers {
		checkOffer(c, s.Name, n, gpu, o)
	}
}

func checkOffer(c *checker, scenario string, n node, gpu string, o evalOffer) {
	what := scenario + " vs " + o.label()
	if price, ok := specPrices[o.label()]; ok {
		c.that(o.Price == price, "%s: price %v, SPEC says %v", what, o.Price, price)
	}
	c.that(o.Compared == (o.GPU == gpu), "%s: compared %v, but the offer is for %s and the node holds %s", what, o.Compared, o.GPU, gpu)
	if !o.Compared {
		return
	}
	want := n.against(o.Price)
	c.value(what, o.Values, want)
	verdict := "rent"
	if n["utilization"] >= want["breakeven_utilization"] {
		verdict = "buy"
	}
	c.that(o.Verdict == verdict && strings.HasPrefix(o.Words, verdict+": "), "%s: verdict %s (%q), want %s at %v busy against break-even %v",
		what, o.Verdict, o.Words, verdict, n["utilization"], want["breakeven_utilization"])
}

// renting FILE holds every deployment of planner eval's JSON in FILE to
// SPEC.md §2's arithmetic: its cards at the offer's price, times replicas
// and hours; owning is its nodes at the owning scenario's node cost, and
// the verdict buys exactly when that is less than renting. The fleet adds
// the deployments of each GPU up, and its cheapest mix rents what it says
// it rents and owns the rest on the nodes it names.
func checkRenting(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: renting FILE")
	}
	doc := evalOf(ts, args[0], "")
	nodeCost := func(scenario string) float64 { return doc.scenario(ts, scenario).Values["node_cost_per_month"] }
	var c checker
	rent := map[string]float64{}
	cards := map[string]float64{}
	for _, d := range doc.Deployments {
		price, ok := specPrices[d.Offer]
		if !ok {
			price = doc.offerPrice(ts, d.Offer)
		}
		month := d.Cards * price * d.Replicas * d.Hours
		c.that(near(d.RentPerReplicaHour, d.Cards*price) && near(d.RentPerMonth, month), "%s: rents at %v an hour, %v a month; by hand %v × $%v, %v a month",
			d.Name, d.RentPerReplicaHour, d.RentPerMonth, d.Cards, price, month)
		rent[d.GPU] += d.RentPerMonth
		cards[d.GPU] += d.Cards * d.Replicas
		if d.OwnScenario == "" {
			continue
		}
		own := *d.OwnNodes * nodeCost(d.OwnScenario)
		verdict := map[bool]string{true: "buy", false: "rent"}[own < month]
		c.that(near(*d.OwnPerMonth, own) && d.Verdict == verdict, "%s: owns at %v a month, %s; by hand %v nodes × %v = %v, %s",
			d.Name, *d.OwnPerMonth, d.Verdict, *d.OwnNodes, nodeCost(d.OwnScenario), own, verdict)
	}
	best := 0.0
	for _, g := range doc.Fleet.GPUs {
		c.that(near(g.RentPerMonth, rent[g.GPU]) && g.Cards == cards[g.GPU], "fleet %s: %v cards renting at %v a month; the deployments add up to %v cards, %v",
			g.GPU, g.Cards, g.RentPerMonth, cards[g.GPU], rent[g.GPU])
		// The mix rents each deployment it does not own from the offer of
		// its GPU that costs least for its hours: these bill by used hours.
		mix := 0.0
		for _, name := range g.Rent {
			d := doc.deployment(ts, name)
			least := math.Inf(1)
			for _, o := range doc.Scenarios[0].Offers {
				if strings.EqualFold(o.GPU, d.GPU) {
					least = math.Min(least, d.Cards*d.Replicas*d.Hours*o.Price)
				}
			}
			mix += least
		}
		if g.Scenario != "" {
			mix += g.BestNodes * nodeCost(g.Scenario)
			c.that(near(*g.OwnPerMonth, *g.Nodes*nodeCost(g.Scenario)), "fleet %s: owning all at %v, by hand %v nodes × %v", g.GPU, *g.OwnPerMonth, *g.Nodes, nodeCost(g.Scenario))
			c.that(g.BestPerMonth <= *g.OwnPerMonth+1e-6, "fleet %s: the cheapest mix %v costs more than owning all, %v", g.GPU, g.BestPerMonth, *g.OwnPerMonth)
		}
		c.that(near(g.BestPerMonth, mix) && g.BestPerMonth <= g.RentPerMonth+1e-6, "fleet %s: cheapest mix %v a month; by hand %v (renting all %v)",
			g.GPU, g.BestPerMonth, mix, g.RentPerMonth)
		best += g.BestPerMonth
	}
	c.that(near(doc.Fleet.Best.PerMonth, best), "fleet: the cheapest mix %v a month, the GPUs' add up to %v", doc.Fleet.Best.PerMonth, best)
	c.done(ts, neg)
}

func (d evalDoc) deployment(ts *testscript.TestScript, name string) evalDeployment {
	for _, dep := range d.Deployments {
		if dep.Name == name {
			return dep
		}
	}
	ts.Fatalf("%s: no deployment %q", d.File, name)
	return evalDeployment{}
}

func (d evalDoc) offerPrice(ts *testscript.TestScript, label string) float64 {
	for _, o := range d.Scenarios[0].Offers {
		if o.label() == label {
			return o.Price
		}
	}
	ts.Fatalf("%s: no offer %q", d.File, label)
	return 0
}

// sampled FILE SCENARIO holds a scenario's Monte Carlo in planner eval's
// JSON in FILE to what sampling must give: every sample evaluated, P5 ≤
// P50 ≤ P95, the base the deterministic value and ranked where it lies,
// the written-off hours (from fixed inputs) never moving, and each close
// call's share of flipping samples the complement of owning's chance when
// the verdict is buy. At the article's node the capex per GPU and the
// node's kW average the triangular ranges' means, (low + mode + high) ÷ 3,
// within five standard errors.
func checkSampled(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sampled FILE SCENARIO")
	}
	s := evalOf(ts, args[0], "").scenario(ts, args[1])
	mc := s.MonteCarlo
	if mc == nil {
		ts.Fatalf("%s: no Monte Carlo", s.Name)
	}
	var c checker
	c.that(mc.Evaluated == mc.Samples && mc.Samples > 0, "%d of %d samples evaluated", mc.Evaluated, mc.Samples)
	for name, o := range mc.Outputs {
		c.that(o.P5 <= o.P50 && o.P50 <= o.P95, "%s: P5 %v, P50 %v, P95 %v out of order", name, o.P5, o.P50, o.P95)
		c.that(near(o.Base, s.Values[name]), "%s: base %v, the scenario's value %v", name, o.Base, s.Values[name])
		c.that(rankFits(o.Base, o.P5, o.P95, o.BaseRank), "%s: base %v ranked %v, but P5 is %v and P95 %v", name, o.Base, o.BaseRank, o.P5, o.P95)
	}
	hours := mc.Outputs["amortization_hours"]
	c.that(hours.P5 == hours.Base && hours.P95 == hours.Base && hours.Mean == hours.Base, "amortization_hours moves: %+v", hours)
	for _, o := range s.Offers {
		if o.CloseCall == nil {
			continue
		}
		flips, other := o.CloseCall.POwnCheaper, "buy"
		if o.Verdict == "buy" {
			flips, other = 1-flips, "rent"
		}
		// Rounded half away from zero, as verdicts' words round.
		pct := math.Round(flips*100*10) / 10
		want := fmt.Sprintf("close call: flips in %.1f %% of Monte Carlo samples", pct)
		if flips > 0.5 {
			want = fmt.Sprintf("Monte Carlo favours %s in %.1f %% of samples", other, pct)
			c.that(o.CloseCall.Favours == other, "%s: favours %q, want %q", o.label(), o.CloseCall.Favours, other)
		}
		c.that(strings.HasPrefix(o.CloseCall.Words, want), "%s: %q, want %q", o.label(), o.CloseCall.Words, want)
	}
	n := articleNode()
	if s.Values["capex"] == n["capex"] && s.Values["pue"] == n["pue"] && s.Values["gpu_watts"] == n["gpu_watts"] {
		c.meanNear(mc.Samples, "per_gpu_capex", mc.Outputs["per_gpu_capex"], (250000+285000+320000)/3.0/8)
		c.meanNear(mc.Samples, "node_kw", mc.Outputs["node_kw"], 700*8*(1.2+1.3+1.4)/3/1000)
	}
	c.done(ts, neg)
}

type sampledOutput = struct {
	Mean, P5, P50, P95, Base float64
	BaseRank                 float64 `json:"base_rank"`
}

// rankFits: a base below P5 ranks below 5 %, above P95 above 95 %, and
// between them between (a sample's width either side).
func rankFits(base, p5, p95, rank float64) bool {
	const slack = 0.001
	switch {
	case rank < 0 || rank > 1:
		return false
	case base < p5:
		return rank <= 0.05+slack
	case base > p95:
		return rank >= 0.95-slack
	}
	return rank >= 0.05-slack && rank <= 0.95+slack
}

// meanNear checks a sample mean against the distribution's, the standard
// error taken from the P5–P95 spread as a normal's 3.29 deviations.
func (c *checker) meanNear(samples int, name string, o sampledOutput, mean float64) {
	se := (o.P95 - o.P5) / 3.29 / math.Sqrt(float64(samples))
	c.that(math.Abs(o.Mean-mean) <= 5*se, "%s: mean %v, the distribution's %v (standard error %v)", name, o.Mean, mean, se)
}

// diffDoc is what the scripts read of planner diff --format json.
type diffDoc struct {
	Decisions []struct {
		Scenario, Offer, Deployment, Old, New string
		Fleet                                 bool
		OldPerMonth                           *float64 `json:"old_per_month"`
		PerMonth                              *float64 `json:"per_month"`
		Change                                *float64
	}
	Results []struct {
		Scenario, Offer, Deployment, Fleet, Name string
		Old, New, Change, Relative               *float64
	}
}

// figures flattens an evaluation into what diff compares: each scenario's
// formulas (not its inputs), its offers' figures, the deployments' and
// the fleet's; and the decisions: each offer's verdict, each deployment's
// and its part in the fleet's cheapest mix.
func figures(ts *testscript.TestScript, file string) (values map[string]float64, decisions map[string]string) {
	doc := evalOf(ts, file, "")
	values, decisions = map[string]float64{}, map[string]string{}
	inputs := articleNode()
	for _, s := range doc.Scenarios {
		for name, v := range s.Values {
			if _, input := inputs[name]; !input && name != "kv_headroom" {
				values[key(s.Name, "", "", "", name)] = v
			}
		}
		for _, o := range s.Offers {
			for name, v := range o.Values {
				values[key(s.Name, o.label(), "", "", name)] = v
			}
			if o.Compared {
				decisions[key(s.Name, o.label(), "", "", "")] = o.Verdict
			}
		}
	}
	for _, d := range deploymentFigures(ts, file) {
		name := d["name"].(string)
		for field, v := range d {
			if v, ok := v.(float64); ok && !deploymentNotResult[field] {
				values[key("", "", name, "", field)] = v
			}
		}
		if verdict, ok := d["verdict"].(string); ok {
			decisions[key("", "", name, "", "")] = verdict
		}
	}
	for _, g := range doc.Fleet.GPUs {
		label := g.GPU
		if g.Scenario != "" {
			label += " (" + g.Scenario + ")"
		}
		for name, v := range map[string]*float64{"cards": &g.Cards, "nodes": g.Nodes, "own_per_month": g.OwnPerMonth,
			"rent_per_month": &g.RentPerMonth, "best_per_month": &g.BestPerMonth, "node_utilization": g.Utilization} {
			if v != nil {
				values[key("", "", "", label, name)] = *v
			}
		}
	}
	best := doc.Fleet.Best
	for name, v := range map[string]float64{"own_per_month": best.OwnAllMonth, "rent_per_month": best.RentAllMonth, "best_per_month": best.PerMonth} {
		values[key("", "", "", "every GPU", name)] = v
	}
	for _, name := range doc.Fleet.Best.Own {
		decisions[key("", "", name, "fleet", "")] = "buy"
	}
	for _, name := range doc.Fleet.Best.Rent {
		decisions[key("", "", name, "fleet", "")] = "rent"
	}
	return values, decisions
}

// deploymentNotResult are the deployment's fields that diff does not list
// as its results: what the row gives (facts), and the break-even, which is
// the owning scenario's against the offer and listed under the scenario.
var deploymentNotResult = map[string]bool{"replicas": true, "hours_per_month": true, "tokens_per_second_per_replica": true,
	"own_breakeven_utilization": true}

// deploymentFigures are the deployments of an evaluation, every field of
// each, since the figures a deployment has depend on what its row gives.
func deploymentFigures(ts *testscript.TestScript, file string) []map[string]any {
	var doc struct{ Deployments []map[string]any }
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(file)), &doc))
	return doc.Deployments
}

func key(scenario, offer, deployment, fleet, name string) string {
	return strings.Join([]string{scenario, offer, deployment, fleet, name}, " · ")
}

// diffed OLD.json NEW.json DIFF.json holds planner diff's JSON to the two
// workbooks' evaluations: every result it lists is new − old of the two,
// every figure that moved is listed, and the decisions it names are those
// whose verdict differs, with what owning saves a month on each side.
func checkDiffed(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: diffed OLD.json NEW.json DIFF.json")
	}
	oldValues, oldDecisions := figures(ts, args[0])
	newValues, newDecisions := figures(ts, args[1])
	var doc diffDoc
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[2])), &doc))
	var c checker
	listed := map[string]bool{}
	for _, r := range doc.Results {
		k := key(r.Scenario, r.Offer, r.Deployment, r.Fleet, r.Name)
		listed[k] = true
		c.that(sameFigure(r.Old, oldValues, k) && sameFigure(r.New, newValues, k), "%s: %s → %s in the diff, %s → %s in the evaluations",
			k, show(r.Old), show(r.New), lookup(oldValues, k), lookup(newValues, k))
		if r.Old != nil && r.New != nil {
			change := *r.New - *r.Old
			c.that(r.Change != nil && near(*r.Change, change), "%s: change %s, new − old is %v", k, show(r.Change), change)
		}
	}
	for k, v := range newValues {
		old, was := oldValues[k]
		c.that(listed[k] || (was && old == v), "%s moved from %s to %v, and the diff does not say so", k, lookup(oldValues, k), v)
	}
	flips := 0
	for k, v := range newDecisions {
		if oldDecisions[k] != v {
			flips++
		}
	}
	c.that(len(doc.Decisions) == flips, "%d decisions in the diff, %d verdicts differ", len(doc.Decisions), flips)
	for _, d := range doc.Decisions {
		fleet := map[bool]string{true: "fleet"}[d.Fleet]
		k := key(d.Scenario, d.Offer, d.Deployment, fleet, "")
		c.that(d.Old == oldDecisions[k] && d.New == newDecisions[k] && d.Old != d.New, "decision %s: %s → %s in the diff, %s → %s in the evaluations",
			k, d.Old, d.New, oldDecisions[k], newDecisions[k])
		if d.Offer != "" {
			saving := key(d.Scenario, d.Offer, "", "", "own_saving_per_month")
			c.that(sameFigure(d.OldPerMonth, oldValues, saving) && sameFigure(d.PerMonth, newValues, saving), "decision %s: owning saves %s → %s a month, the evaluations %s → %s",
				k, show(d.OldPerMonth), show(d.PerMonth), lookup(oldValues, saving), lookup(newValues, saving))
		}
	}
	c.done(ts, neg)
}

func sameFigure(got *float64, values map[string]float64, k string) bool {
	want, ok := values[k]
	return (got == nil && !ok) || (got != nil && ok && near(*got, want))
}

func show(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

func lookup(values map[string]float64, k string) string {
	if v, ok := values[k]; ok {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return "—"
}

// shown FILE SCENARIO|all [NAME=VALUE...] holds the result lines of planner
// show in FILE, result "SCENARIO" ["OFFER"] NAME = VALUE ..., to the article
// node with those inputs, as owning does eval's JSON (show prints no
// verdicts). Show rounds to 12 significant digits.
func checkShown(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: shown FILE SCENARIO|all [NAME=VALUE...]")
	}
	shown := shownResults(ts, ts.ReadFile(args[0]))
	scenarios := articleScenarios
	if args[1] != "all" {
		scenarios = []scenarioSets{{args[1], nil}}
	}
	var c checker
	for _, s := range scenarios {
		n, _ := expectedNode(ts, append(append([]string{}, args[2:]...), s.sets...))
		got := shown[s.name]
		c.that(len(got) > 0, "no results of scenario %q", s.name)
		c.shownValues(s.name, got[""], n.lines())
		for offer, values := range got {
			if offer != "" {
				c.shownValues(s.name+" vs "+offer, values, n.against(specPrices[offer]))
			}
		}
	}
	c.done(ts, neg)
}

// shownResults are show's result lines by scenario, then offer ("" for the
// scenario's own formulas), then name.
func shownResults(ts *testscript.TestScript, text string) map[string]map[string]map[string]float64 {
	out := map[string]map[string]map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "result ")
		if !ok {
			continue
		}
		var names []string
		for strings.HasPrefix(rest, `"`) {
			name, after, _ := strings.Cut(rest[1:], `" `)
			names, rest = append(names, name), after
		}
		formula, value, _ := strings.Cut(rest, " = ")
		number, _, _ := strings.Cut(value, " ")
		v, err := strconv.ParseFloat(number, 64)
		if err != nil || len(names) == 0 {
			ts.Fatalf("show: cannot read %q", line)
		}
		offer := ""
		if len(names) > 1 {
			offer = names[1]
		}
		if out[names[0]] == nil {
			out[names[0]] = map[string]map[string]float64{}
		}
		if out[names[0]][offer] == nil {
			out[names[0]][offer] = map[string]float64{}
		}
		out[names[0]][offer][formula] = v
	}
	return out
}

// shownValues compares show's figures, at its 12 significant digits, with
// those worked out by hand that show prints.
func (c *checker) shownValues(what string, got, want map[string]float64) {
	for name, g := range got {
		w, ok := want[name]
		if !ok {
			continue // sizing and the like, not cost lines
		}
		c.that(math.Abs(g-w) <= 1e-11*math.Max(1, math.Abs(w)), "%s %s: show %v, by hand %v", what, name, g, w)
	}
	for name := range want {
		_, ok := got[name]
		c.that(ok, "%s: show prints no %s", what, name)
	}
}
