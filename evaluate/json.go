package evaluate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/fleet"
	"planner/montecarlo"
	"planner/units"
	"planner/view"
	"planner/whatif"
)

// The JSON documents planner prints are its machine interface: keep their
// shape stable. Each is built here from what the library computed, so that
// a program using planner as a library gets the same document as one
// reading planner's output; the command line only encodes them.

// Shown are the results of the scenarios named, in the order evaluated, or
// all when none is named.
func (rep *Report) Shown(only []string) []*engine.Result {
	if len(only) == 0 {
		return rep.Results
	}
	var out []*engine.Result
	for _, r := range rep.Results {
		for _, name := range only {
			if r.Scenario == name {
				out = append(out, r) // as often as it was asked for
			}
		}
	}
	return out
}

// JSON is the evaluation's document: the scenarios named (all when none
// is), and err, the evaluation's error, if any.
func (rep *Report) JSON(only []string, err error) *FileJSON {
	doc := &FileJSON{File: rep.File, Warnings: DiagnosticsJSON(rep.Warnings)}
	if rep.Plan != nil && !rep.Plan.Currency().IsUSD() {
		doc.Currency = rep.Plan.Currency().Code()
	}
	if err != nil {
		doc.Error = err.Error()
	}
	monteCarloOf := map[string]*montecarlo.Result{}
	for _, mc := range slices.Backward(rep.MonteCarlo) {
		monteCarloOf[mc.Scenario] = mc // the first of a name, as MonteCarloOf
	}
	figures := view.OfferFiguresOf(rep.Plan)
	for _, r := range rep.Shown(only) {
		s := ScenarioJSON{Name: r.Scenario, Values: r.Values, Text: r.Text, Errors: messages(r.Errors), Offers: []OfferJSON{}, NoOffer: r.NoOffer}
		mc := monteCarloOf[r.Scenario]
		offers := figures.Of(r, mc)
		for _, o := range offers.All {
			s.Offers = append(s.Offers, offerJSON(offers, o))
		}
		if r.Sizing != nil {
			s.Sizing = r.Sizing.Note
		}
		s.MonteCarlo = monteCarloJSON(mc, rep.Plan.Currency())
		doc.Scenarios = append(doc.Scenarios, s)
	}
	deployments := view.DeploymentsOf(rep.Deployments, rep.Plan.Currency())
	for _, d := range deployments.All {
		doc.Deployments = append(doc.Deployments, deploymentJSON(deployments.Figures, d))
	}
	doc.Fleet = fleetJSON(rep.Fleet)
	whatIfsJSON(doc, rep.WhatIfs, rep.Plan)
	return doc
}

// FileJSON is one workbook's evaluation, as eval --format json prints it.
type FileJSON struct {
	File string `json:"file"`
	// Currency is the ISO 4217 code every amount is in, where the
	// workbook's input currency names another than US dollars.
	Currency    string           `json:"currency,omitempty"`
	Error       string           `json:"error,omitempty"`
	Warnings    []DiagnosticJSON `json:"warnings,omitempty"`
	Scenarios   []ScenarioJSON   `json:"scenarios,omitempty"`
	Deployments []DeploymentJSON `json:"deployments,omitempty"`
	Fleet       *FleetJSON       `json:"fleet,omitempty"`
	Sensitivity []TornadoJSON    `json:"sensitivity,omitempty"`
	DataTables  []TableJSON      `json:"data_tables,omitempty"`
	Breakeven   []CrossingJSON   `json:"breakeven,omitempty"`
	Goals       []SolutionJSON   `json:"goals,omitempty"`
}

// DiagnosticJSON is a warning as stderr prints it (text), and its parts:
// where it belongs and what it says.
type DiagnosticJSON struct {
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Sheet    string `json:"sheet,omitempty"`
	Cell     string `json:"cell,omitempty"`
	Line     int    `json:"line,omitempty"`
	Name     string `json:"name,omitempty"`
	Message  string `json:"message"`
	Text     string `json:"text"`
}

// DiagnosticsJSON are the diagnostics as JSON lists them.
func DiagnosticsJSON(ds diag.Diagnostics) []DiagnosticJSON {
	var out []DiagnosticJSON
	for _, err := range ds {
		d, ok := err.(*diag.Diagnostic)
		if !ok {
			d = &diag.Diagnostic{Severity: diag.Warning, Msg: err.Error()}
		}
		o := d.Origin
		out = append(out, DiagnosticJSON{Severity: d.Severity.String(), File: o.File, Sheet: o.Sheet, Cell: o.Cell(), Line: o.Line,
			Name: d.Name, Message: d.Msg, Text: d.Error()})
	}
	return out
}

type ScenarioJSON struct {
	Name       string             `json:"name"`
	Values     map[string]float64 `json:"values"`
	Text       map[string]string  `json:"text"`
	Errors     map[string]string  `json:"errors"`
	Sizing     string             `json:"sizing,omitempty"`
	NoOffer    string             `json:"no_offer,omitempty"` // why no offer is compared
	Offers     []OfferJSON        `json:"offers"`
	MonteCarlo *MonteCarloJSON    `json:"montecarlo,omitempty"`
}

type MonteCarloJSON struct {
	Samples      int                      `json:"samples"`
	Seed         uint64                   `json:"seed"`
	Evaluated    int                      `json:"evaluated"`
	FirstFailure string                   `json:"first_failure,omitempty"`
	Held         []string                 `json:"held,omitempty"`
	Outputs      map[string]QuantilesJSON `json:"outputs"`
	POwnCheaper  map[string]float64       `json:"p_own_cheaper"`
	// NPVSaving is owning's net present value against each compared offer,
	// by offer; PNPVAboveZero the share of samples in which it is above zero.
	NPVSaving     map[string]QuantilesJSON `json:"npv_saving,omitempty"`
	PNPVAboveZero map[string]float64       `json:"p_npv_above_zero,omitempty"`
}

// QuantilesJSON is an output's statistics over the samples: each that the
// view declares for JSON, under its key, in the view's order.
type QuantilesJSON []StatisticJSON

// StatisticJSON is one statistic of an output: base is the scenario's own
// value, without sampling, and base_rank where it falls among the samples,
// 0..1.
type StatisticJSON struct {
	Key   string
	Value float64
}

// MarshalJSON writes the statistics as one object, keyed in their order.
func (q QuantilesJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, s := range q {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, s.Key)
		v, err := json.Marshal(s.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(b, ':'), v...)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the statistics back in the order they were written.
func (q *QuantilesJSON) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("statistics: want an object, %v", err)
	}
	*q = nil
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		var v float64
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*q = append(*q, StatisticJSON{Key: key.(string), Value: v})
	}
	return nil
}

// Of is the statistic under key; NaN when there is none.
func (q QuantilesJSON) Of(key string) float64 {
	for _, s := range q {
		if s.Key == key {
			return s.Value
		}
	}
	return math.NaN()
}

// quantilesJSON is an output's statistics as JSON holds them.
func quantilesJSON(figs []view.Figure, d view.Distribution) QuantilesJSON {
	var q QuantilesJSON
	for k, f := range figs {
		if f.In&view.JSON != 0 {
			q = append(q, StatisticJSON{Key: f.Key, Value: d.Cells[k].Value})
		}
	}
	return q
}

// CloseCallJSON marks a verdict the Monte Carlo run (or a thin margin)
// makes uncertain.
type CloseCallJSON struct {
	OwnWins *float64 `json:"p_own_cheaper,omitempty"`
	AtStake *float64 `json:"own_saving_per_month,omitempty"`
	// Favours is the verdict most samples take when it is not the base
	// case's: "rent" or "buy".
	Favours string `json:"monte_carlo_favours,omitempty"`
	Words   string `json:"words"`
}

type DeploymentJSON struct {
	Name          string  `json:"name"`
	Model         string  `json:"model"`
	GPU           string  `json:"gpu"`
	Cards         int     `json:"cards_per_replica,omitempty"`
	Replicas      int     `json:"replicas"`
	HoursPerMonth float64 `json:"hours_per_month"`
	// Offer is the offer the deployment rents from; null when it is not
	// costed (words say why).
	Offer              *string  `json:"offer"`
	RentPerReplicaHour float64  `json:"rent_per_replica_hour,omitempty"`
	RentPerMonth       float64  `json:"rent_per_month,omitempty"`
	OwnScenario        string   `json:"own_scenario,omitempty"`
	OwnNodes           int      `json:"own_nodes,omitempty"`
	OwnBusy            *float64 `json:"own_node_busy,omitempty"`
	OwnPerMonth        *float64 `json:"own_per_month,omitempty"`
	OwnBreakeven       *float64 `json:"own_breakeven_utilization,omitempty"`
	Verdict            string   `json:"verdict,omitempty"`
	Words              string   `json:"words"`
	// The tokens, when the deployment gives a throughput.
	TokensPerSecond *float64     `json:"tokens_per_second_per_replica,omitempty"`
	PeakTokens      *float64     `json:"peak_tokens_per_second,omitempty"`
	FromDemand      bool         `json:"replicas_from_demand,omitempty"`
	TokensPerMonth  *float64     `json:"tokens_per_month,omitempty"`
	PerMillionRent  *float64     `json:"cost_per_million_tokens_rent,omitempty"`
	PerMillionOwn   *float64     `json:"cost_per_million_tokens_own,omitempty"`
	API             *APICostJSON `json:"api,omitempty"`
	Cheapest        string       `json:"cheapest,omitempty"` // rent, own or api
	// OperatingPoint is where a replica runs under the deployment's latency
	// targets, read from the Benchmarks sheet; none when it types its
	// tokens per second.
	OperatingPoint *OperatingPointJSON `json:"operating_point,omitempty"`
	// Figures are the figures the view adds for JSON, by their keys.
	Figures map[string]FigureJSON `json:"figures,omitempty"`
}

// OperatingPointJSON is the highest load of a benchmark curve that meets
// a deployment's latency targets, and the measured points it was read
// between.
type OperatingPointJSON struct {
	Percentile   string  `json:"percentile"`
	TTFTTargetMS float64 `json:"ttft_target_ms,omitempty"`
	TPOTTargetMS float64 `json:"tpot_target_ms,omitempty"`
	Load         string  `json:"load"` // "concurrency" or "request rate"
	At           float64 `json:"at"`
	Tokens       float64 `json:"tokens_per_second"`
	TTFTMS       float64 `json:"ttft_ms"`
	TPOTMS       float64 `json:"tpot_ms"`
	// TPOTFrom is the measured latency the TPOT target is held to: "tpot",
	// or "itl" where the curve gives inter-token latency only.
	TPOTFrom string `json:"tpot_from"`
	// Binding is the latency that reaches its target between the points;
	// none at a measured point.
	Binding string `json:"binding,omitempty"`
	// Capped says every measured load meets the targets: the highest
	// stands, and nothing beyond it is extrapolated.
	Capped bool                 `json:"capped,omitempty"`
	From   float64              `json:"measured_from"`
	To     float64              `json:"measured_to"`
	Points []BenchmarkPointJSON `json:"points"`
}

// BenchmarkPointJSON is one measured point an operating point was read
// from: its row of the Benchmarks sheet and its figures.
type BenchmarkPointJSON struct {
	Cell   string  `json:"cell"`
	At     float64 `json:"at"`
	Tokens float64 `json:"output_tokens_per_second"`
	TTFTMS float64 `json:"ttft_ms"`
	TPOTMS float64 `json:"tpot_ms"`
	Source string  `json:"source,omitempty"`
}

func operatingPointJSON(op *domain.OperatingPoint) *OperatingPointJSON {
	if op == nil {
		return nil
	}
	p, _ := domain.PercentileAt(op.Percentile)
	j := &OperatingPointJSON{Percentile: op.Percentile, TTFTTargetMS: op.Targets.TTFT, TPOTTargetMS: op.Targets.TPOT,
		Load: op.Load, At: op.At, Tokens: op.Tokens, TTFTMS: op.TTFT, TPOTMS: op.TPOT, TPOTFrom: op.TPOTFrom,
		Binding: op.Binding, Capped: op.Capped, From: op.From, To: op.To}
	for _, b := range op.Used {
		tpot := b.TPOT[p]
		if op.TPOTFrom == "itl" {
			tpot = b.ITL[p]
		}
		j.Points = append(j.Points, BenchmarkPointJSON{Cell: b.Origin.Where(), At: b.LoadOf(op.Load), Tokens: b.OutputTokens,
			TTFTMS: b.TTFT[p], TPOTMS: tpot, Source: b.Source})
	}
	return j
}

// APICostJSON is a month of a deployment's tokens paid to a hosted API.
type APICostJSON struct {
	Provider    string  `json:"provider"`
	Model       string  `json:"model"`
	Mix         string  `json:"mix"`
	PerMillion  float64 `json:"cost_per_million_tokens"`
	PerMonth    float64 `json:"per_month"`
	AsOf        string  `json:"as_of,omitempty"`
	InputPrice  float64 `json:"per_million_input_tokens"`
	OutputPrice float64 `json:"per_million_output_tokens"`
	CachedPrice float64 `json:"per_million_cached_input_tokens,omitempty"`
}

// FleetJSON is every deployment together: per GPU, and the cheapest mix.
type FleetJSON struct {
	GPUs []FleetGPUJSON `json:"gpus"`
	Best FleetBestJSON  `json:"best"`
	// Cheapest is how the cheapest mix buys each deployment costed, in
	// the Deployments' order; their months add up to best's.
	Cheapest []FleetCheapestJSON `json:"cheapest"`
	Power    FleetPowerJSON      `json:"power"`
}

// FleetPowerJSON is the owned nodes' power under the cheapest mix, and the
// site's limit (fleet.Power): limit_kw and short_kw absent without a limit,
// g_co2_per_million_tokens without a grid intensity.
type FleetPowerJSON struct {
	KW             float64  `json:"kw"`
	AverageKW      float64  `json:"average_kw"`
	KWhPerMonth    float64  `json:"kwh_per_month"`
	TokensPerMonth float64  `json:"tokens_per_month"`
	TokensPerKWh   float64  `json:"tokens_per_kwh"`
	LimitKW        *float64 `json:"limit_kw,omitempty"`
	UnlimitedKW    float64  `json:"unlimited_kw"`
	ShortKW        *float64 `json:"short_kw,omitempty"`
	Binds          bool     `json:"limit_binds"`
	GCO2PerMillion *float64 `json:"g_co2_per_million_tokens,omitempty"`
	Unknown        []string `json:"power_unknown,omitempty"`
}

func fleetPowerJSON(pw fleet.Power) FleetPowerJSON {
	j := FleetPowerJSON{KW: pw.KW, AverageKW: pw.AverageKW, KWhPerMonth: pw.KWhPerMonth, TokensPerMonth: pw.TokensPerMonth,
		TokensPerKWh: pw.TokensPerKWh, UnlimitedKW: pw.UnlimitedKW, Binds: pw.Binds, Unknown: pw.Unknown}
	if pw.LimitKW > 0 {
		j.LimitKW, j.ShortKW = &pw.LimitKW, &pw.ShortKW
	}
	if pw.GridCO2 > 0 {
		j.GCO2PerMillion = &pw.GCO2PerMillion
	}
	return j
}

// FleetCheapestJSON is how the cheapest mix buys one deployment: the
// replicas it owns and their cards' share of the owned nodes' month, and
// the parts it rents, each from the offer that bills it least.
type FleetCheapestJSON struct {
	Deployment  string              `json:"deployment"`
	Cheapest    string              `json:"cheapest"` // in words
	PerMonth    float64             `json:"per_month"`
	OwnReplicas int                 `json:"own_replicas"`
	OwnPerMonth float64             `json:"own_per_month"`
	Rent        []FleetRentPartJSON `json:"rent"`
}

// FleetRentPartJSON is replicas of a deployment rented from one offer:
// all of them, or a profile's base or peak (part).
type FleetRentPartJSON struct {
	Part     string  `json:"part,omitempty"` // "base" or "peak"; none for the deployment whole
	Replicas int     `json:"replicas"`
	Hours    float64 `json:"hours_per_month_each"`
	Offer    string  `json:"offer"`
	Billing  string  `json:"billing"`
	PerMonth float64 `json:"per_month"`
}

type FleetGPUJSON struct {
	GPU             string    `json:"gpu"`
	Scenario        string    `json:"scenario,omitempty"` // whose nodes own it; none when no scenario does
	NodeGPUs        float64   `json:"node_gpus,omitempty"`
	Cards           int       `json:"cards"`
	Deployments     []string  `json:"deployments"`
	Nodes           *int      `json:"nodes"`
	NodeUtilization *float64  `json:"node_utilization"`
	OwnPerMonth     *float64  `json:"own_per_month"`
	RentPerMonth    float64   `json:"rent_per_month"`
	ByNodes         []float64 `json:"per_month_by_owned_nodes,omitempty"` // the least month owning 0, 1, ... nodes
	// AtNodes is the curve when ByNodes cannot be: sampled over many
	// nodes, or past planner's search not the least months.
	AtNodes      []FleetPointJSON `json:"per_month_at_owned_nodes,omitempty"`
	Own          []string         `json:"own"`
	Rent         []string         `json:"rent"`
	BestNodes    int              `json:"best_nodes"`
	BestPerMonth float64          `json:"best_per_month"`
	// AtLeast and NodesAtLeast are there when planner's search stopped at
	// its bound: the cheapest month is at least AtLeast, and owning every
	// deployment takes at least NodesAtLeast; Unproven says so in words.
	AtLeast      *float64 `json:"cheapest_at_least_per_month,omitempty"`
	NodesAtLeast *int     `json:"nodes_at_least,omitempty"`
	Unproven     string   `json:"not_proven,omitempty"`
	Note         string   `json:"note,omitempty"`
}

// FleetPointJSON is the month of a mix on a number of owned nodes.
type FleetPointJSON struct {
	Nodes    int     `json:"nodes"`
	PerMonth float64 `json:"per_month"`
}

type FleetBestJSON struct {
	Own      []string `json:"own"`
	Rent     []string `json:"rent"`
	Nodes    int      `json:"nodes"`
	PerMonth float64  `json:"per_month"`
	OwnAll   float64  `json:"own_all_per_month"`
	RentAll  float64  `json:"rent_all_per_month"`
	Words    string   `json:"words"`
	Skipped  []string `json:"not_costed,omitempty"`
	// AtLeast is there when some GPU's mix is within a bound of the
	// cheapest: the cheapest month of the fleet is at least this.
	AtLeast *float64 `json:"cheapest_at_least_per_month,omitempty"`
}

func fleetJSON(f fleet.Fleet) *FleetJSON {
	if len(f.GPUs) == 0 {
		return nil
	}
	list := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	j := &FleetJSON{GPUs: []FleetGPUJSON{}, Best: FleetBestJSON{Own: list(f.Best.Own), Rent: list(f.Best.Rent), Nodes: f.Best.Nodes,
		PerMonth: f.Best.PerMonth, OwnAll: f.Best.OwnAll, RentAll: f.Best.RentAll, Words: f.Best.Words, Skipped: f.Best.Skipped}}
	if f.Best.Bounded {
		j.Best.AtLeast = &f.Best.AtLeast
	}
	j.Power = fleetPowerJSON(f.Power)
	j.Cheapest = []FleetCheapestJSON{}
	for _, c := range f.Cheapest {
		jc := FleetCheapestJSON{Deployment: c.Deployment, Cheapest: c.Words, PerMonth: c.PerMonth, OwnReplicas: c.Owned,
			OwnPerMonth: c.OwnPerMonth, Rent: []FleetRentPartJSON{}}
		for _, p := range c.Rented {
			part := ""
			if p.Base {
				part = "base"
			} else if p.Peak {
				part = "peak"
			}
			jc.Rent = append(jc.Rent, FleetRentPartJSON{Part: part, Replicas: p.Replicas, Hours: p.Hours, Offer: p.Offer.Label(),
				Billing: p.Offer.KindOrDefault(), PerMonth: p.PerMonth})
		}
		j.Cheapest = append(j.Cheapest, jc)
	}
	for _, g := range f.GPUs {
		jg := FleetGPUJSON{GPU: g.GPU, Scenario: g.Scenario, NodeGPUs: g.NodeGPUs, Cards: g.Cards, Deployments: list(g.Deployments),
			Own: list(g.Best.Own), Rent: list(g.Best.Rent), RentPerMonth: g.RentPerMonth,
			BestNodes: g.Best.Nodes, BestPerMonth: g.Best.PerMonth, Unproven: g.Unproven(), Note: g.Note}
		if g.CurveLeast && len(g.Curve) == g.Nodes+1 {
			for _, p := range g.Curve {
				jg.ByNodes = append(jg.ByNodes, p.PerMonth)
			}
		} else {
			for _, p := range g.Curve {
				jg.AtNodes = append(jg.AtNodes, FleetPointJSON{Nodes: p.Nodes, PerMonth: p.PerMonth})
			}
		}
		if !g.Exact && g.Note == "" {
			jg.AtLeast = &g.AtLeast
		}
		if g.NodesLeast < g.Nodes {
			jg.NodesAtLeast = &g.NodesLeast
		}
		if g.Scenario != "" && g.Note == "" {
			nodes, busy, own := g.Nodes, g.Utilization, g.OwnPerMonth
			jg.Nodes, jg.NodeUtilization, jg.OwnPerMonth = &nodes, &busy, &own
		}
		j.GPUs = append(j.GPUs, jg)
	}
	return j
}

type OfferJSON struct {
	Provider string  `json:"provider"`
	Offer    string  `json:"offer"`
	GPU      string  `json:"gpu"`
	Price    float64 `json:"price_per_gpu_hour"`
	AsOf     string  `json:"as_of,omitempty"`
	// Listed is the price as the offer lists it in ListedCurrency, when
	// that is not the workbook's; Price is it converted by the FX rate.
	Listed         *float64 `json:"listed_price_per_gpu_hour,omitempty"`
	ListedCurrency string   `json:"listed_currency,omitempty"`
	Compared       bool     `json:"compared"`
	// Breakeven is the break-even utilisation, or null against an offer
	// that has none (a term); BreakevenWhy then says why.
	Breakeven    json.RawMessage `json:"breakeven_utilization,omitempty"`
	BreakevenWhy string          `json:"breakeven,omitempty"`
	Verdict      string          `json:"verdict,omitempty"`
	Words        string          `json:"words,omitempty"`
	CloseCall    *CloseCallJSON  `json:"close_call,omitempty"`
	// PaybackMonths is the month owning has paid for itself in, or null
	// when it does not within the amortisation; Payback says it in words.
	PaybackMonths json.RawMessage    `json:"payback_months,omitempty"`
	Payback       string             `json:"payback,omitempty"`
	Values        map[string]float64 `json:"values,omitempty"`
	Errors        map[string]string  `json:"errors,omitempty"`
	// Figures are the figures the view adds for JSON, by their keys.
	Figures map[string]FigureJSON `json:"figures,omitempty"`
}

// offerJSON is an offer as eval's JSON lists it: the documented fields,
// kept stable for scripts, and the view's figures declared for JSON under
// their keys.
func offerJSON(offers *view.Offers, o view.Offer) OfferJSON {
	j := OfferJSON{Provider: o.Offer.Provider, Offer: o.Offer.Name, GPU: o.Offer.GPU, Price: o.Offer.Price,
		AsOf: o.Offer.AsOf, Compared: o.Compared, Verdict: o.Verdict, Words: o.Words, Values: o.Values, Errors: messages(o.Errors)}
	if o.Offer.Currency != "" {
		listed := o.Offer.Listed
		j.Listed, j.ListedCurrency = &listed, o.Offer.Currency
	}
	if be, ok := o.Values[domain.Breakeven]; ok {
		j.Breakeven, _ = json.Marshal(be)
	} else if o.Compared && !o.Offer.HasBreakeven() {
		j.Breakeven, j.BreakevenWhy = json.RawMessage("null"), domain.NoBreakeven
	}
	if b, _ := offers.Cell(o, domain.PaybackMonths); b.Words != "" {
		j.PaybackMonths, j.Payback = json.RawMessage("null"), b.Words
		if b.Value > 0 { // with the sale at the end too: the last month
			j.PaybackMonths = json.RawMessage(strconv.Itoa(int(b.Value)))
		}
	}
	if c := o.Call; c.Close {
		j.CloseCall = &CloseCallJSON{OwnWins: OrNull(c.OwnWins), AtStake: OrNull(c.AtStake), Favours: c.Favours, Words: c.Why}
	}
	j.Figures = figuresJSON(offers.Figures, o.Cells)
	return j
}

// figuresJSON are the cells of the figures declared for JSON, by their
// keys; nil when none has a value.
func figuresJSON(figs []view.Figure, cells []view.Cell) map[string]FigureJSON {
	var out map[string]FigureJSON
	for k, f := range figs {
		if c := cells[k]; f.In&view.JSON != 0 && !c.Empty() {
			if out == nil {
				out = map[string]FigureJSON{}
			}
			out[f.Key] = figureJSON(c)
		}
	}
	return out
}

// FigureJSON is an offer's figure: its number (null where it has none),
// its words, or the error that stands for the number.
type FigureJSON struct {
	Value *float64 `json:"value"`
	Words string   `json:"words,omitempty"`
	Error string   `json:"error,omitempty"`
}

func figureJSON(c view.Cell) FigureJSON {
	j := FigureJSON{Words: c.Words}
	if c.Number {
		j.Value = OrNull(c.Value)
	}
	if c.Err != nil {
		j.Error = c.Err.Msg
	}
	return j
}

func messages(errs map[string]*engine.EvalError) map[string]string {
	if errs == nil {
		return nil
	}
	out := map[string]string{}
	for name, e := range errs {
		out[name] = e.Msg
	}
	return out
}

// deploymentJSON is a deployment as eval's JSON lists it: the documented
// fields, kept stable for scripts, and the view's figures declared for JSON
// under their keys.
func deploymentJSON(figs []view.Figure, v view.Deployment) DeploymentJSON {
	d := v.Result
	j := DeploymentJSON{Name: d.Name, Model: d.Model, GPU: d.GPU, Cards: d.Cards, Replicas: d.Replicas,
		HoursPerMonth: d.HoursPerMonth, RentPerReplicaHour: d.RentPerReplicaHour,
		RentPerMonth: d.RentPerMonth, Verdict: d.Verdict, Words: d.Words}
	if d.Costed() {
		offer := d.Offer.Label()
		j.Offer = &offer
	}
	if o := d.Own; o != nil {
		j.OwnScenario, j.OwnNodes, j.OwnBusy, j.OwnPerMonth = o.Scenario, o.Nodes, &o.Busy, &o.CostPerMonth
		if o.Breakeven > 0 {
			j.OwnBreakeven = &o.Breakeven
		}
	}
	if d.TokensPerReplica > 0 {
		per := d.TokensPerReplica
		j.TokensPerSecond = &per
	}
	if d.PeakTokens > 0 {
		peak := d.PeakTokens
		j.PeakTokens = &peak
	}
	j.FromDemand = d.FromDemand
	if t := d.Tokens; t.PerMonth > 0 {
		j.TokensPerMonth, j.PerMillionRent, j.Cheapest = &t.PerMonth, &t.PerMillionRent, t.Cheapest
		if d.Own != nil {
			j.PerMillionOwn = &t.PerMillionOwn
		}
		if a := t.API; a != nil {
			j.API = &APICostJSON{Provider: a.Provider, Model: a.Model, Mix: d.Mix, PerMillion: a.PerMillion, PerMonth: a.PerMonth,
				AsOf: a.AsOf, InputPrice: a.Input, OutputPrice: a.Output, CachedPrice: a.Cached}
		}
	}
	j.OperatingPoint = operatingPointJSON(d.Operating)
	j.Figures = figuresJSON(figs, v.Cells)
	return j
}

func monteCarloJSON(mc *montecarlo.Result, cur units.Currency) *MonteCarloJSON {
	if mc == nil {
		return nil
	}
	v := view.MonteCarloOf(mc, cur)
	j := &MonteCarloJSON{Samples: mc.Samples, Seed: mc.Seed, Evaluated: mc.Good, FirstFailure: mc.FirstFailure, Held: montecarlo.HeldNames(mc.Held),
		Outputs: map[string]QuantilesJSON{}, POwnCheaper: map[string]float64{}}
	for _, d := range v.Outputs {
		if d.Mean == d.Mean { // NaN when no sample evaluated
			j.Outputs[d.Name] = quantilesJSON(v.Statistics, d)
		}
	}
	for _, oc := range v.Offers {
		if oc.Probability == oc.Probability {
			j.POwnCheaper[oc.Offer.Label()] = oc.Probability
		}
		if d := oc.NPVSaving; d != nil && d.Mean == d.Mean {
			if j.NPVSaving == nil {
				j.NPVSaving, j.PNPVAboveZero = map[string]QuantilesJSON{}, map[string]float64{}
			}
			j.NPVSaving[oc.Offer.Label()] = quantilesJSON(v.Statistics, *d)
			j.PNPVAboveZero[oc.Offer.Label()] = oc.NPVAboveZero
		}
	}
	return j
}

// The what-ifs in JSON: numbers a program can use; null where the model
// gives no number.
type TornadoJSON struct {
	Target string    `json:"target"`
	Offer  string    `json:"offer,omitempty"`
	Unit   string    `json:"unit"`
	Base   float64   `json:"base"`
	Bars   []BarJSON `json:"bars"`
	Held   []string  `json:"held,omitempty"` // inputs outside their range: not swung
}

type BarJSON struct {
	Input  string   `json:"input"`
	Low    float64  `json:"low"`
	High   float64  `json:"high"`
	AtLow  *float64 `json:"at_low"`
	AtHigh *float64 `json:"at_high"`
	Swing  *float64 `json:"swing"`
	Why    string   `json:"why,omitempty"`
}

type TableJSON struct {
	Name      string       `json:"name"`
	Output    string       `json:"output"`
	Unit      string       `json:"unit"`
	RowInput  string       `json:"row_input"`
	RowValues []float64    `json:"row_values"`
	ColInput  string       `json:"column_input,omitempty"`
	ColValues []float64    `json:"column_values,omitempty"`
	Offers    []string     `json:"column_offers,omitempty"`
	Cells     [][]*float64 `json:"cells"`         // null where the output has no number
	Why       string       `json:"why,omitempty"` // why the first null cell has none
}

type CrossingJSON struct {
	Scenario    string   `json:"scenario"`
	Offer       string   `json:"offer"`
	Price       float64  `json:"price_per_gpu_hour"`
	Utilization *float64 `json:"breakeven_utilization"` // null where the curve does not meet the price; why says where it would
	Why         string   `json:"why,omitempty"`         // "above 100 %", "below 1 %", or why the curve has no number
}

func whatIfsJSON(doc *FileJSON, w *whatif.Report, plan *engine.Plan) {
	if w == nil {
		return
	}
	cur := plan.Currency()
	for _, t := range w.Tornadoes {
		jt := TornadoJSON{Target: t.Target.Name, Unit: cur.Unit(t.Unit), Base: t.Base, Bars: []BarJSON{}, Held: montecarlo.HeldNames(t.Held)}
		if t.Target.Offer != nil {
			jt.Offer = t.Target.Offer.Label()
		}
		for _, b := range t.Bars {
			bar := BarJSON{Input: b.Input.Name, Low: b.Input.Low, High: b.Input.High, Why: b.Why,
				AtLow: OrNull(b.AtLow), AtHigh: OrNull(b.AtHigh)}
			if b.Why == "" {
				bar.Swing = OrNull(b.Swing)
			}
			jt.Bars = append(jt.Bars, bar)
		}
		doc.Sensitivity = append(doc.Sensitivity, jt)
	}
	for _, t := range w.Tables {
		jt := TableJSON{Name: t.Spec.Name, Output: t.Spec.Output, Unit: cur.Unit(t.Unit), RowInput: t.Spec.Row.Input,
			RowValues: t.RowValues, ColValues: t.ColValues, Offers: t.ColLabels, Why: t.Why}
		if t.Spec.Col != nil && !t.Spec.Col.Offers {
			jt.ColInput = t.Spec.Col.Input
		}
		for _, row := range t.Cells {
			cells := make([]*float64, len(row))
			for i, v := range row {
				cells[i] = OrNull(v)
			}
			jt.Cells = append(jt.Cells, cells)
		}
		doc.DataTables = append(doc.DataTables, jt)
	}
	if w.Curve != nil {
		for _, c := range w.Curve.Crossings {
			doc.Breakeven = append(doc.Breakeven, CrossingJSON{Scenario: c.Scenario, Offer: c.Offer.Label(),
				Price: c.Offer.Price, Utilization: OrNull(c.Utilization), Why: c.Why})
		}
	}
	for _, s := range w.Solutions {
		j := Solution(s)
		j.Name = s.Name
		doc.Goals = append(doc.Goals, j)
	}
}

// OrNull is v as JSON can hold it: nil, which encodes as null, for NaN
// and the infinities.
func OrNull(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// SolutionJSON is a goal's answer: solve's document, or a row of eval's goals.
type SolutionJSON struct {
	File       string             `json:"file,omitempty"`
	Scenario   string             `json:"scenario,omitempty"`
	Name       string             `json:"name,omitempty"`
	For        string             `json:"for"`
	Target     string             `json:"target"`
	Value      float64            `json:"value"`
	Offer      string             `json:"offer,omitempty"`
	With       map[string]float64 `json:"with,omitempty"`
	Found      bool               `json:"found"`
	Answer     *float64           `json:"answer,omitempty"`
	Reached    *float64           `json:"reached,omitempty"`
	Iterations int                `json:"iterations,omitempty"`
	Why        string             `json:"why,omitempty"`
}

// Solution is s as JSON lists it.
func Solution(s whatif.Solution) SolutionJSON {
	j := SolutionJSON{For: s.For, Target: s.Target, Value: s.Value, Offer: s.Offer, Found: s.Found, Why: s.Why}
	if len(s.With) > 0 {
		j.With = map[string]float64{}
		for k, v := range s.With {
			j.With[k] = v.Num
		}
	}
	if s.Found {
		j.Answer, j.Reached, j.Iterations = &s.X, &s.Reached, s.Iterations
	}
	return j
}
