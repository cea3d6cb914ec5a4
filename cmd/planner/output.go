package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"planner/deploy"
	"planner/diag"
	"planner/engine"
	"planner/montecarlo"
	"planner/sizing"
	"planner/units"
)

// printReport shows one workbook's outcome: the table or JSON on stdout,
// warnings, problems and what happened to the file on stderr. It returns
// the workbook's error, if any, the JSON's own included.
func printReport(cmd *cobra.Command, p printed, format string) error {
	stderr := cmd.ErrOrStderr()
	for _, w := range p.Warnings {
		fmt.Fprintln(stderr, "warning:", oneLine(w.Error()))
	}
	if format == "json" {
		if err := writeJSON(cmd.OutOrStdout(), p); err != nil && p.err == nil {
			p.err = err
		}
	} else if len(p.shown()) > 0 && !p.quiet {
		writeTable(cmd.OutOrStdout(), p)
	}
	if p.err != nil {
		fmt.Fprintln(stderr, p.err)
	}
	if p.Note != "" {
		fmt.Fprintln(stderr, p.Note)
	}
	return p.err
}

// The JSON shape is planner's machine interface: keep it stable.
type jsonFile struct {
	File        string           `json:"file"`
	Error       string           `json:"error,omitempty"`
	Warnings    []jsonDiagnostic `json:"warnings,omitempty"`
	Scenarios   []jsonScenario   `json:"scenarios,omitempty"`
	Deployments []jsonDeployment `json:"deployments,omitempty"`
	Sensitivity []jsonTornado    `json:"sensitivity,omitempty"`
	DataTables  []jsonTable      `json:"data_tables,omitempty"`
	Breakeven   []jsonCrossing   `json:"breakeven,omitempty"`
	Goals       []jsonSolution   `json:"goals,omitempty"`
}

// jsonDiagnostic is a warning as stderr prints it (text), and its parts:
// where it belongs and what it says.
type jsonDiagnostic struct {
	Severity string `json:"severity"`
	File     string `json:"file,omitempty"`
	Sheet    string `json:"sheet,omitempty"`
	Cell     string `json:"cell,omitempty"`
	Line     int    `json:"line,omitempty"`
	Name     string `json:"name,omitempty"`
	Message  string `json:"message"`
	Text     string `json:"text"`
}

func diagnosticsJSON(ds diag.Diagnostics) []jsonDiagnostic {
	var out []jsonDiagnostic
	for _, err := range ds {
		d, ok := err.(*diag.Diagnostic)
		if !ok {
			d = &diag.Diagnostic{Severity: diag.Warning, Msg: err.Error()}
		}
		o := d.Origin
		out = append(out, jsonDiagnostic{Severity: d.Severity.String(), File: o.File, Sheet: o.Sheet, Cell: o.Cell(), Line: o.Line,
			Name: d.Name, Message: d.Msg, Text: d.Error()})
	}
	return out
}

type jsonScenario struct {
	Name       string             `json:"name"`
	Values     map[string]float64 `json:"values"`
	Text       map[string]string  `json:"text"`
	Errors     map[string]string  `json:"errors"`
	Sizing     string             `json:"sizing,omitempty"`
	NoOffer    string             `json:"no_offer,omitempty"` // why no offer is compared
	Offers     []jsonOffer        `json:"offers"`
	MonteCarlo *jsonMonteCarlo    `json:"montecarlo,omitempty"`
}

type jsonMonteCarlo struct {
	Samples      int                      `json:"samples"`
	Seed         uint64                   `json:"seed"`
	Evaluated    int                      `json:"evaluated"`
	FirstFailure string                   `json:"first_failure,omitempty"`
	Held         []string                 `json:"held,omitempty"`
	Outputs      map[string]jsonQuantiles `json:"outputs"`
	POwnCheaper  map[string]float64       `json:"p_own_cheaper"`
}

type jsonQuantiles struct {
	Mean     float64 `json:"mean"`
	P5       float64 `json:"p5"`
	P50      float64 `json:"p50"`
	P95      float64 `json:"p95"`
	Base     float64 `json:"base"`      // the scenario's own value, without sampling
	BaseRank float64 `json:"base_rank"` // where it falls among the samples, 0..1
}

// jsonCloseCall marks a verdict the Monte Carlo run (or a thin margin)
// makes uncertain.
type jsonCloseCall struct {
	OwnWins *float64 `json:"p_own_cheaper,omitempty"`
	AtStake *float64 `json:"own_saving_per_month,omitempty"`
	Words   string   `json:"words"`
}

type jsonDeployment struct {
	Name               string   `json:"name"`
	Model              string   `json:"model"`
	GPU                string   `json:"gpu"`
	Cards              int      `json:"cards_per_replica,omitempty"`
	Replicas           int      `json:"replicas"`
	HoursPerMonth      float64  `json:"hours_per_month"`
	Offer              string   `json:"offer,omitempty"`
	RentPerReplicaHour float64  `json:"rent_per_replica_hour,omitempty"`
	RentPerMonth       float64  `json:"rent_per_month,omitempty"`
	OwnScenario        string   `json:"own_scenario,omitempty"`
	OwnNodes           int      `json:"own_nodes,omitempty"`
	OwnBusy            *float64 `json:"own_node_busy,omitempty"`
	OwnPerMonth        *float64 `json:"own_per_month,omitempty"`
	OwnBreakeven       *float64 `json:"own_breakeven_utilization,omitempty"`
	Verdict            string   `json:"verdict,omitempty"`
	Words              string   `json:"words"`
}

type jsonOffer struct {
	Provider  string             `json:"provider"`
	Offer     string             `json:"offer"`
	GPU       string             `json:"gpu"`
	Price     float64            `json:"price_per_gpu_hour"`
	AsOf      string             `json:"as_of,omitempty"`
	Compared  bool               `json:"compared"`
	Breakeven *float64           `json:"breakeven_utilization,omitempty"`
	Verdict   string             `json:"verdict,omitempty"`
	Words     string             `json:"words,omitempty"`
	CloseCall *jsonCloseCall     `json:"close_call,omitempty"`
	Values    map[string]float64 `json:"values,omitempty"`
	Errors    map[string]string  `json:"errors,omitempty"`
}

func writeJSON(w io.Writer, p printed) error {
	doc := jsonFile{File: p.File, Warnings: diagnosticsJSON(p.Warnings)}
	if p.err != nil {
		doc.Error = p.err.Error()
	}
	for _, r := range p.shown() {
		s := jsonScenario{Name: r.Scenario, Values: r.Values, Text: r.Text, Errors: messages(r.Errors), Offers: []jsonOffer{}, NoOffer: r.NoOffer}
		for _, o := range r.Offers {
			jo := jsonOffer{Provider: o.Offer.Provider, Offer: o.Offer.Name, GPU: o.Offer.GPU, Price: o.Offer.Price,
				AsOf: o.Offer.AsOf, Compared: o.Compared, Verdict: o.Verdict, Words: o.Words, Values: o.Values, Errors: messages(o.Errors)}
			if be, ok := o.Values[engine.Breakeven]; ok {
				jo.Breakeven = &be
			}
			if c := montecarlo.Closeness(r, o, p.MonteCarloOf(r.Scenario)); c.Close {
				jo.CloseCall = &jsonCloseCall{OwnWins: finiteOrNil(c.OwnWins), AtStake: finiteOrNil(c.AtStake), Words: c.Why}
			}
			s.Offers = append(s.Offers, jo)
		}
		if r.Sizing != nil {
			s.Sizing = r.Sizing.Note
		}
		s.MonteCarlo = monteCarloJSON(p.MonteCarloOf(r.Scenario))
		doc.Scenarios = append(doc.Scenarios, s)
	}
	for _, d := range p.Deployments {
		doc.Deployments = append(doc.Deployments, deploymentJSON(d))
	}
	whatIfsJSON(&doc, p.WhatIfs)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		// Only a number JSON cannot hold gets here; the error says which.
		return fmt.Errorf("%s: the results cannot be written as JSON: %v", p.File, err)
	}
	return nil
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

// writeTable prints what a person reads: every formula per scenario, then
// the offers of the node's GPU with break-even and verdict.
func writeTable(w io.Writer, p printed) {
	base := p.shown()[0]
	fmt.Fprintf(w, "%s · GPU %s\n\n", p.File, base.Text[engine.GPU])
	t := &table{right: []bool{false, false}}
	head := []string{"formula", "unit"}
	for _, r := range p.shown() {
		head = append(head, r.Scenario)
		t.right = append(t.right, true)
	}
	t.add(head...)
	for _, f := range p.Plan.Formulas() {
		if p.Plan.PerOffer(f.Name) {
			continue
		}
		cells := []string{f.Name, f.Unit}
		for _, r := range p.shown() {
			cells = append(cells, shown(r.Values, r.Errors, f.Name, f.Unit))
		}
		t.add(cells...)
	}
	if base.Sizing != nil {
		for _, name := range []string{sizing.WeightsGB, sizing.UsualCardsName} {
			cells := []string{name, ""}
			for _, r := range p.shown() {
				cells = append(cells, shown(r.Values, nil, name, ""))
			}
			t.add(cells...)
		}
	}
	t.write(w)
	writeOffers(w, base, p.MonteCarloOf(base.Scenario))
	var lacking []string
	for _, r := range p.shown()[1:] {
		if r.NoOffer != "" {
			lacking = append(lacking, r.Scenario+": "+r.NoOffer)
		}
	}
	if len(lacking) > 0 {
		fmt.Fprintf(w, "\nNothing to compare in scenario %s\n", strings.Join(lacking, "; scenario "))
	}
	writeMonteCarlo(w, p.MonteCarloOf(base.Scenario))
	writeDeployments(w, p.Deployments)
	writeWhatIfs(w, p.Plan, p.WhatIfs)
}

func writeOffers(w io.Writer, base *engine.Result, mc *montecarlo.Result) {
	var others []string
	t := &table{right: []bool{false, true, true, false, true, false}}
	t.add("offer", "$/GPU-h", "break-even", "verdict", "own saves/month", "")
	for _, o := range base.Offers {
		if !o.Compared {
			others = append(others, fmt.Sprintf("%s %s", o.Offer.Label(), units.Format(o.Offer.Price, "$/GPU-h")))
			continue
		}
		be := shown(o.Values, o.Errors, engine.Breakeven, units.Share)
		if v, ok := o.Values[engine.Breakeven]; ok {
			be = engine.BreakevenText(v)
		}
		c := montecarlo.Closeness(base, o, mc)
		t.add(o.Offer.Label(), units.Format(o.Offer.Price, "$/GPU-h"), be, o.Verdict,
			shown(o.Values, o.Errors, engine.OwnSaving, "$/month"), c.Why)
	}
	if len(t.rows) > 1 {
		fmt.Fprintf(w, "\nCloud offers for %s at %s utilisation (buy when utilisation ≥ break-even)\n\n",
			base.Text[engine.GPU], units.Format(base.Values[engine.Utilization], units.Share))
		t.write(w)
	}
	if base.NoOffer != "" {
		fmt.Fprintf(w, "\nCloud offers for %s: %s\n", base.Text[engine.GPU], base.NoOffer)
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "\nOther GPUs, not compared: %s\n", strings.Join(others, "; "))
	}
}

// shown formats a value for the table, or the error that stands in for it.
func shown(values map[string]float64, errs map[string]*engine.EvalError, name, unit string) string {
	if v, ok := values[name]; ok {
		return units.Format(v, unit)
	}
	if e, ok := errs[name]; ok {
		code, _, _ := strings.Cut(e.Short(), ":")
		return code
	}
	return "#N/A"
}

func deploymentJSON(d deploy.Result) jsonDeployment {
	j := jsonDeployment{Name: d.Name, Model: d.Model, GPU: d.GPU, Cards: d.Cards, Replicas: d.Replicas,
		HoursPerMonth: d.HoursPerMonth, Offer: d.Offer.Label(), RentPerReplicaHour: d.RentPerReplicaHour,
		RentPerMonth: d.RentPerMonth, Verdict: d.Verdict, Words: d.Words}
	if o := d.Own; o != nil {
		j.OwnScenario, j.OwnNodes, j.OwnBusy, j.OwnPerMonth = o.Scenario, o.Nodes, &o.Busy, &o.CostPerMonth
		if o.Breakeven > 0 {
			j.OwnBreakeven = &o.Breakeven
		}
	}
	return j
}

// writeDeployments prints each deployment costed, one line each.
func writeDeployments(w io.Writer, ds []deploy.Result) {
	if len(ds) == 0 {
		return
	}
	t := &table{right: []bool{false, true, false, false, true, true, false}}
	t.add("deployment", "cards", "usage", "offer", "rent/month", "own/month", "verdict")
	for _, d := range ds {
		if d.Cards == 0 {
			t.add(d.Name, "", "", "", "", "", d.Words)
			continue
		}
		own, verdict := "", d.Verdict
		if d.Own != nil {
			own = units.Format(d.Own.CostPerMonth, "$/month")
		} else {
			verdict = "nothing to compare: no scenario owns " + d.GPU + " nodes"
		}
		t.add(d.Name, fmt.Sprintf("%d×%d", d.Replicas, d.Cards), d.Usage, d.Offer.Label(), units.Format(d.RentPerMonth, "$/month"), own, verdict)
	}
	fmt.Fprintln(w, "\nDeployments (rent per month, against owning whole nodes)")
	fmt.Fprintln(w)
	t.write(w)
}

func monteCarloJSON(mc *montecarlo.Result) *jsonMonteCarlo {
	if mc == nil {
		return nil
	}
	j := &jsonMonteCarlo{Samples: mc.Samples, Seed: mc.Seed, Evaluated: mc.Good, FirstFailure: mc.FirstFailure, Held: heldNames(mc.Held),
		Outputs: map[string]jsonQuantiles{}, POwnCheaper: map[string]float64{}}
	for _, o := range mc.Outputs {
		if o.Mean == o.Mean { // NaN when no sample evaluated
			j.Outputs[o.Name] = jsonQuantiles{Mean: o.Mean, P5: o.P5, P50: o.P50, P95: o.P95, Base: o.Base, BaseRank: o.BaseRank}
		}
	}
	for _, oc := range mc.OwnCheaper {
		if oc.Probability == oc.Probability {
			j.POwnCheaper[oc.Offer.Label()] = oc.Probability
		}
	}
	return j
}

// writeMonteCarlo prints the base scenario's Monte Carlo: every output that
// varies, and the chance that owning beats each offer.
func writeMonteCarlo(w io.Writer, mc *montecarlo.Result) {
	if mc == nil {
		return
	}
	held := ""
	if names := heldNames(mc.Held); len(names) > 0 {
		held = "; held at values outside their ranges: " + strings.Join(names, ", ")
	}
	fmt.Fprintf(w, "\nMonte Carlo, scenario %s: %s samples (seed %d) of %d uncertain inputs%s\n\n",
		mc.Scenario, units.Format(float64(mc.Samples), ""), mc.Seed, len(mc.Sampled), held)
	t := &table{right: []bool{false, false, true, true, true, true, true, true}}
	t.add("output", "unit", "mean", "P5", "P50", "P95", "base", "base at")
	for _, o := range mc.Outputs {
		if o.P5 != o.P95 {
			t.add(o.Name, o.Unit, units.Format(o.Mean, o.Unit), units.Format(o.P5, o.Unit), units.Format(o.P50, o.Unit), units.Format(o.P95, o.Unit),
				units.Format(o.Base, o.Unit), montecarlo.RankText(o.BaseRank))
		}
	}
	t.write(w)
	var odds []string
	for _, oc := range mc.OwnCheaper {
		odds = append(odds, fmt.Sprintf("%s %s", oc.Offer.Label(), units.Format(oc.Probability, units.Share)))
	}
	if len(odds) > 0 {
		fmt.Fprintf(w, "\nChance that owning is cheaper: %s\n", strings.Join(odds, "; "))
	}
}
