package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/evaluate"
	"planner/facts"
	"planner/fleet"
	"planner/montecarlo"
	"planner/units"
	"planner/view"
)

// printReport shows one workbook's outcome: the table or JSON on stdout,
// warnings, problems and what happened to the file on stderr. It returns
// the workbook's error, if any, the JSON's own included. An interrupted
// evaluation shows no results: they would lack the Monte Carlo run.
func printReport(cmd *cobra.Command, p printed, format string) error {
	stderr := cmd.ErrOrStderr()
	if errors.Is(p.err, context.Canceled) {
		p.Report = &evaluate.Report{File: p.File, Warnings: p.Warnings}
	}
	for _, w := range p.Warnings {
		fmt.Fprintln(stderr, "warning:", oneLine(w.Error()))
	}
	if format == "json" {
		// Without its document, a failed evaluation still says why, and
		// why the document is missing.
		if err := writeJSON(cmd.OutOrStdout(), p); err != nil && p.err == nil {
			p.err = err
		} else if err != nil {
			fmt.Fprintln(stderr, err)
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

func writeJSON(w io.Writer, p printed) error {
	if err := writeDoc(w, p.Report.JSON(p.only, p.err)); err != nil {
		return fmt.Errorf("%s: the results cannot be written as JSON: %v", p.File, err)
	}
	return nil
}

// writeDoc prints one JSON document, indented, or nothing. Only a number
// JSON cannot hold stops it, which no document should hold: the error
// names the field, as a bug of planner's.
func writeDoc(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	err := enc.Encode(doc)
	if err == nil {
		return nil
	}
	if at := evaluate.NotFinite(doc); at != "" {
		return fmt.Errorf("%s, not a number; this is a bug in planner, not a mistake of yours: please report it with the command you ran", at)
	}
	return err
}

// writeTable prints what a person reads: every formula per scenario, then
// the offers of the node's GPU with break-even and verdict.
func writeTable(w io.Writer, p printed) {
	base := p.shown()[0]
	fmt.Fprintf(w, "%s · GPU %s\n\n", p.File, base.Text[domain.GPU])
	t := &table{right: []bool{false, false}}
	head := []string{"formula", "unit"}
	for _, r := range p.shown() {
		head = append(head, r.Scenario)
		t.right = append(t.right, true)
	}
	t.add(head...)
	cur := p.Plan.Currency()
	for _, f := range p.Plan.Formulas() {
		if p.Plan.PerOffer(f.Name) {
			continue
		}
		cells := []string{f.Name, cur.Unit(f.Unit)}
		for _, r := range p.shown() {
			cells = append(cells, shown(cur, r.Values, r.Errors, f.Name, f.Unit))
		}
		t.add(cells...)
	}
	if base.Sizing != nil {
		for _, name := range []string{domain.WeightsGB, domain.UsualCardsName} {
			cells := []string{name, ""}
			for _, r := range p.shown() {
				cells = append(cells, shown(cur, r.Values, nil, name, ""))
			}
			t.add(cells...)
		}
	}
	t.write(w)
	writeOffers(w, p.Plan, base, p.MonteCarloOf(base.Scenario))
	writeScenarioOffers(w, p)
	writeOthers(w, p.shown(), cur)
	writeMonteCarlo(w, p.MonteCarloOf(base.Scenario), cur)
	deployments := view.DeploymentsOf(p.Deployments, cur)
	writeDeployments(w, deployments)
	writeOperating(w, deployments)
	writeTokens(w, deployments)
	writeFleet(w, p.Fleet)
	writeWhatIfs(w, p.Plan, p.WhatIfs)
}

func writeOffers(w io.Writer, plan *engine.Plan, base *engine.Result, mc *montecarlo.Result) {
	offers := view.OffersOf(plan, base, mc)
	t := figureTable([]string{"offer"}, offers.Figures, view.Terminal)
	for _, o := range offers.All {
		if !o.Compared {
			continue
		}
		t.add(figureRow([]string{o.Offer.Label()}, offers.Figures, view.Terminal, o.Cells)...)
	}
	if len(t.rows) > 1 {
		fmt.Fprintf(w, "\nCloud offers for %s at %s utilisation (buy when utilisation ≥ break-even)\n\n",
			base.Text[domain.GPU], units.Format(base.Values[domain.Utilization], units.Share))
		t.write(w)
	}
	if base.NoOffer != "" {
		fmt.Fprintf(w, "\nCloud offers for %s: %s\n", base.Text[domain.GPU], base.NoOffer)
	}
	if out := montecarlo.BaseOutside(mc, plan.Currency()); out != "" {
		fmt.Fprintf(w, "\nMonte Carlo, scenario %s: %s\n", base.Scenario, out)
	}
}

// writeScenarioOffers prints every other scenario's verdicts against the
// offers of its own GPU in one table, a scenario's name and GPU on its
// first row only; then the scenarios with nothing to compare, and those whose base
// lies outside their own Monte Carlo band.
func writeScenarioOffers(w io.Writer, p printed) {
	var t *table
	var lacking, outside []string
	figures := view.OfferFiguresOf(p.Plan)
	for _, r := range p.shown()[1:] {
		mc := p.MonteCarloOf(r.Scenario)
		offers := figures.Of(r, mc)
		if t == nil {
			t = figureTable([]string{"scenario", "GPU", "offer"}, offers.Figures, view.Terminal)
		}
		name, gpu := r.Scenario, r.Text[domain.GPU]
		for _, o := range offers.All {
			if o.Compared {
				t.add(figureRow([]string{name, gpu, o.Offer.Label()}, offers.Figures, view.Terminal, o.Cells)...)
				name, gpu = "", ""
			}
		}
		if r.NoOffer != "" {
			lacking = append(lacking, r.Scenario+": "+r.NoOffer)
		}
		if out := montecarlo.BaseOutside(mc, p.Plan.Currency()); out != "" {
			outside = append(outside, r.Scenario+": "+out)
		}
	}
	if t != nil && len(t.rows) > 1 {
		fmt.Fprint(w, "\nThe other scenarios, each against the offers of its own GPU at its own utilisation\n\n")
		t.write(w)
	}
	if len(lacking) > 0 {
		fmt.Fprintf(w, "\nNothing to compare in scenario %s\n", strings.Join(lacking, "; scenario "))
	}
	for _, o := range outside {
		fmt.Fprintf(w, "\nMonte Carlo, scenario %s\n", o)
	}
}

// writeOthers lists the offers no shown scenario compares: of a GPU none
// of them owns, their prices in currency cur.
func writeOthers(w io.Writer, shown []*engine.Result, cur units.Currency) {
	var others []string
	for j, o := range shown[0].Offers {
		compared := false
		for _, r := range shown {
			compared = compared || r.Offers[j].Compared
		}
		if !compared {
			others = append(others, fmt.Sprintf("%s %s", o.Offer.Label(), cur.Format(o.Offer.Price, "$/GPU-h")))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(w, "\nOther GPUs, not compared: %s\n", diag.List(others))
	}
}

// shown formats a value for the table, in currency cur, or the error that
// stands in for it.
func shown(cur units.Currency, values map[string]float64, errs map[string]*engine.EvalError, name, unit string) string {
	if v, ok := values[name]; ok {
		return cur.Format(v, unit)
	}
	if e, ok := errs[name]; ok {
		code, _, _ := strings.Cut(e.Short(), ":")
		return code
	}
	return "#N/A"
}

// writeDeployments prints each deployment costed, one line each.
func writeDeployments(w io.Writer, ds *view.Deployments) {
	if len(ds.All) == 0 {
		return
	}
	t := figureTable(nil, ds.Figures, view.Terminal)
	for _, d := range ds.All {
		t.add(figureRow(nil, ds.Figures, view.Terminal, d.Cells)...)
	}
	fmt.Fprintln(w, "\nDeployments (rent per month, against owning whole nodes)")
	fmt.Fprintln(w)
	t.write(w)
}

// writeOperating prints the deployments that read their throughput from
// the Benchmarks sheet at latency targets: the targets, the operating
// point, the tokens a second there and the measured points read.
func writeOperating(w io.Writer, ds *view.Deployments) {
	t := figureTable(nil, ds.Figures, view.Operating)
	for _, d := range ds.All {
		if d.Operating != nil && d.Costed() {
			t.add(figureRow(nil, ds.Figures, view.Operating, d.Cells)...)
		}
	}
	if len(t.rows) > 1 {
		fmt.Fprint(w, "\nOperating points (tokens a second a replica at the latency targets, from the Benchmarks sheet)\n\n")
		t.write(w)
	}
}

// writeTokens prints the deployments that give a throughput: their tokens
// a month, a million of them rented, owned and from the API, and the
// cheapest month.
func writeTokens(w io.Writer, ds *view.Deployments) {
	t := figureTable(nil, ds.Figures, view.Tokens)
	for _, d := range ds.All {
		if d.Tokens.PerMonth > 0 {
			t.add(figureRow(nil, ds.Figures, view.Tokens, d.Cells)...)
		}
	}
	if len(t.rows) > 1 {
		fmt.Fprint(w, "\nTokens (a million of them rented, owned as the cards' share of their nodes, and from the API; the cheapest month owns whole nodes)\n\n")
		t.write(w)
	}
}

// figureTable is a table whose columns are the figures a rendering
// shows, after the columns first, each with its heading; figures with a
// unit align right.
func figureTable(first []string, figs []view.Figure, in view.Where) *table {
	t := &table{right: make([]bool, len(first))}
	head := append([]string(nil), first...)
	for _, f := range figs {
		if f.In&in != 0 {
			head = append(head, f.Heading())
			t.right = append(t.right, f.Unit != "")
		}
	}
	t.add(head...)
	return t
}

// figureRow is one row of a figureTable: the cells first, then each shown
// figure's cell as text.
func figureRow(first []string, figs []view.Figure, in view.Where, cells []view.Cell) []string {
	row := append([]string(nil), first...)
	for k, f := range figs {
		if f.In&in != 0 {
			row = append(row, f.Text(cells[k]))
		}
	}
	return row
}

// writeFleet prints every deployment together, per GPU, and the cheapest
// mix of owning and renting.
func writeFleet(w io.Writer, f fleet.Fleet) {
	if len(f.GPUs) == 0 {
		if len(f.Best.Skipped) > 0 {
			fmt.Fprintf(w, "\nFleet: %s; %s\n", f.Best.Words, fleet.LeftOut(f.Best.Skipped))
		}
		return
	}
	t := &table{right: []bool{false, true, true, true, true, true, true}}
	t.add("GPU", "cards", "nodes", "busy", "own all/month", "rent all/month", "cheapest/month")
	for _, g := range f.GPUs {
		nodes, busy, own := "", "", ""
		if g.Scenario != "" && g.Note == "" {
			nodes, busy, own = strconv.Itoa(g.Nodes), units.Format(g.Utilization, units.Share), f.Currency.Format(g.OwnPerMonth, "$/month")
		}
		t.add(facts.FleetLabel(g), strconv.Itoa(g.Cards), nodes, busy, own, f.Currency.Format(g.RentPerMonth, "$/month"), f.Currency.Format(g.Best.PerMonth, "$/month"))
	}
	fmt.Fprint(w, "\nFleet (every deployment together, each replica within one node)\n\n")
	t.write(w)
	fmt.Fprintf(w, "\nCheapest mix: %s\n", f.Best.Words)
	for _, g := range f.GPUs {
		if u := g.Unproven(); u != "" {
			fmt.Fprintf(w, "  %s: %s\n", facts.FleetLabel(g), u)
		}
	}
	if len(f.Best.Skipped) > 0 {
		fmt.Fprintf(w, "  %s\n", fleet.LeftOut(f.Best.Skipped))
	}
	writeCheapest(w, f.Cheapest, f.Currency)
}

// writeCheapest prints how the cheapest mix buys each deployment, and its
// month, in currency cur: owned replicas at their cards' share of the
// owned nodes.
func writeCheapest(w io.Writer, cs []fleet.Cheapest, cur units.Currency) {
	t := &table{right: []bool{false, false, true}}
	t.add("deployment", "cheapest", "month")
	for _, c := range cs {
		t.add(c.Deployment, c.Words, cur.Format(c.PerMonth, "$/month"))
	}
	fmt.Fprint(w, "\nCheapest, deployment by deployment (owned replicas at their cards' share of the nodes the mix owns)\n\n")
	t.write(w)
}

// writeMonteCarlo prints the base scenario's Monte Carlo: every output that
// varies, and the chance that owning beats each offer.
func writeMonteCarlo(w io.Writer, mc *montecarlo.Result, cur units.Currency) {
	if mc == nil {
		return
	}
	held := ""
	if names := montecarlo.HeldNames(mc.Held); len(names) > 0 {
		held = "; held at values outside their ranges: " + diag.List(names)
	}
	fmt.Fprintf(w, "\nMonte Carlo, scenario %s: %s samples (seed %d) of %d uncertain inputs%s\n\n",
		mc.Scenario, units.Format(float64(mc.Samples), ""), mc.Seed, len(mc.Sampled), held)
	if mc.Good == 0 {
		fmt.Fprintf(w, "No sample gave a number, so there are no figures; the first, %s\n", mc.FirstFailure)
		return
	}
	v := view.MonteCarloOf(mc, cur)
	t := figureTable([]string{"output", "unit"}, v.Statistics, view.Terminal)
	for i := range t.right[2:] {
		t.right[2+i] = true // a statistic without a unit is in its output's
	}
	for _, d := range v.Outputs {
		if d.P5 != d.P95 {
			t.add(statisticsRow(d.Name, v.Statistics, d)...)
		}
	}
	var odds, gains []string
	for _, oc := range v.Offers {
		if oc.Evaluated == 0 {
			odds = append(odds, oc.Offer.Label()+" "+units.NoNumber+" (no sample evaluated against it)")
			continue
		}
		odds = append(odds, fmt.Sprintf("%s %s", oc.Offer.Label(), units.Format(oc.Probability, units.Share)))
		if d := oc.NPVSaving; d != nil && d.Mean == d.Mean {
			t.add(statisticsRow(d.Name+" vs "+oc.Offer.Label(), v.Statistics, *d)...)
			gains = append(gains, fmt.Sprintf("%s %s", oc.Offer.Label(), units.Format(oc.NPVAboveZero, units.Share)))
		}
	}
	t.write(w)
	same := len(gains) > 0 && montecarlo.SameShares(mc)
	if len(odds) > 0 && same {
		fmt.Fprintf(w, "\nChance that owning is cheaper, and that its NPV is above zero: %s\n", diag.List(odds))
	} else if len(odds) > 0 {
		fmt.Fprintf(w, "\nChance that owning is cheaper: %s\n", diag.List(odds))
	}
	if len(gains) > 0 && !same {
		fmt.Fprintf(w, "Chance that owning's NPV is above zero: %s\n", diag.List(gains))
	}
}

// statisticsRow is one output's row of the Monte Carlo table: its name,
// its unit and each statistic the terminal shows, in the output's unit.
func statisticsRow(name string, figs []view.Figure, d view.Distribution) []string {
	row := []string{name, d.Currency.Unit(d.Unit)}
	for k, f := range figs {
		if f.In&view.Terminal != 0 {
			row = append(row, d.Statistic(f).Text(d.Cells[k]))
		}
	}
	return row
}

// formatFlag binds --format: text, the default, or json.
func formatFlag(cmd *cobra.Command, format *string) {
	cmd.Flags().StringVar(format, "format", "text", "output format: text or json")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
}

// checkFormat reads --format as text or json; table, text's old name in
// eval, solve and size, still means text.
func checkFormat(format string) (string, error) {
	switch format {
	case "text", "table":
		return "text", nil
	case "json":
		return format, nil
	}
	return "", fmt.Errorf("--format %s: use text or json", format)
}
