package sheets

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"planner/deploy"
	"planner/diag"
	"planner/domain"
	"planner/fleet"
	"planner/view"
	"planner/workbooks/internal/grid"
)

// costsLayout is where the Deployment costs sheet holds each deployment's
// figures: the column of each figure, the row of each deployment.
type costsLayout struct {
	cols        map[string]int
	row         map[string]int // by deployment name
	first, last int
}

func costsLayoutOf(out Output) costsLayout {
	ds := view.DeploymentsOf(out.Deployments, out.currency())
	l := costsLayout{cols: costColumns(ds.Figures), row: map[string]int{}, first: HeaderRow + 1, last: HeaderRow + len(ds.All)}
	for i, d := range ds.All {
		l.row[d.Name] = HeaderRow + 1 + i
	}
	return l
}

func (l costsLayout) cell(figure, deployment string) string {
	return grid.Absolute(DeploymentCosts, l.cols[figure], l.row[deployment])
}

func (l costsLayout) span(figure string) string {
	return grid.Span(DeploymentCosts, l.cols[figure], l.first, l.last)
}

// scenarioCells are the Results cells of a scenario the fleet reads: its
// node's cards, the node a month, the hours of a month; "" where Results
// has none.
type scenarioCells struct{ gpus, nodeCost, hours string }

func scenarioRefs(out Output, lay *resultsLayout, scenario string) scenarioCells {
	cell := scenarioCell(out, scenario)
	return scenarioCells{gpus: cell(lay.inputRow, domain.GPUs), nodeCost: cell(lay.formulaRow, domain.NodeCostPerMonth),
		hours: cell(lay.inputRow, domain.HoursPerMonth)}
}

// scenarioCell gives, for a section's rows of Results (its formulas' or
// its inputs'), the cell of a name in the scenario's column; "" where
// Results has no such row or no such scenario.
func scenarioCell(out Output, scenario string) func(rows map[string]int, name string) string {
	col := -1
	for i, r := range out.Results {
		if r.Scenario == scenario {
			col = firstValue + i
		}
	}
	return func(rows map[string]int, name string) string {
		row, ok := rows[name]
		if !ok || col < 0 {
			return ""
		}
		return grid.Absolute(Results, col, row)
	}
}

// fleetLinks links a GPU row of the Fleet sheet where a formula can say
// it: the node's cards and cost from Results; the cards and the rent of
// every deployment from Deployment costs; when the sizes divide each other
// and the node, the nodes of owning all (whole nodes for a replica larger
// than one, the rest filling nodes with no gap but the last) and owning
// all's month. The rest (how busy, the cheapest mix) planner computes:
// values, which the sheet's flag says are stale once an input changes.
func fleetLinks(g *grid.Grid, out Output, lay *resultsLayout, costs costsLayout, gpu fleet.GPU, row int) {
	members := groupMembers(out, gpu)
	if len(members) == 0 || len(costs.cols) == 0 {
		return
	}
	for _, d := range members {
		if !strings.EqualFold(d.GPU, gpu.GPU) || (d.Own == nil) != (gpu.Scenario == "") {
			return // spelt otherwise: the sheet's condition would miss it
		}
	}
	in := fmt.Sprintf("(%s=%s)*(%s=%s)", costs.span(view.DeploymentGPU), excelString(gpu.GPU), costs.span(view.OwnScenario), excelString(gpu.Scenario))
	cards, replicas := costs.span(view.CardsPerReplica), costs.span(view.Replicas)
	g.Link(5, row, fmt.Sprintf("SUMPRODUCT(%s,%s,%s)", in, cards, replicas))
	g.Link(9, row, fmt.Sprintf("SUMPRODUCT(%s,%s)", in, costs.span(view.RentPerMonth)))
	if gpu.Scenario == "" {
		return
	}
	s := scenarioRefs(out, lay, gpu.Scenario)
	g.Link(3, row, s.gpus)
	g.Link(4, row, s.nodeCost)
	if s.gpus == "" || gpu.Note != "" || gpu.NodesLeast != gpu.Nodes || !dividing(members, gpu.NodeGPUs) {
		return
	}
	n := grid.CellName(3, row)
	g.Link(6, row, fmt.Sprintf("SUMPRODUCT(%s*(%s>%s)*ROUNDUP(%s/%s,0),%s)+ROUNDUP(SUMPRODUCT(%s*(%s<=%s),%s,%s)/%s,0)",
		in, cards, n, cards, n, replicas, in, cards, n, cards, replicas, n))
	g.Link(8, row, grid.CellName(6, row)+"*"+grid.CellName(4, row))
}

// groupMembers are the costed deployments of the fleet's GPU row.
func groupMembers(out Output, gpu fleet.GPU) []deploy.Result {
	in := make(map[string]bool, len(gpu.Deployments))
	for _, name := range gpu.Deployments {
		in[name] = true
	}
	var ms []deploy.Result
	for _, d := range out.Deployments {
		if d.Costed() && in[d.Name] {
			ms = append(ms, d)
		}
	}
	return ms
}

// dividing reports whether the cards per replica up to the node's divide
// each other and the node: then the cards alone decide the nodes.
func dividing(ms []deploy.Result, node float64) bool {
	n := int(node)
	var sizes []int
	for _, d := range ms {
		if d.Cards < n && !slices.Contains(sizes, d.Cards) {
			sizes = append(sizes, d.Cards)
		}
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	larger := n
	for _, s := range sizes {
		if s <= 0 || larger%s != 0 {
			return false
		}
		larger = s
	}
	return true
}

// fleetChecks lists, from row, the inputs planner's own figures on the
// Fleet sheet read, each as a cell that is 1 while it holds what eval read
// and 0 once it does not: every costed deployment's cells (its cards,
// replicas, hours and rent on Deployment costs, its model, precision, GPU,
// offer, scenario and busy hours profile in Deployments), each owning
// scenario's node and month on Results, and every offer of the fleet's
// GPUs in Cloud, and every cell of the input sheets planner read. It returns the range of the checks, "" when there are
// none.
func fleetChecks(g *grid.Grid, out Output, lay *resultsLayout, costs costsLayout, row int) string {
	var rows []checkRow
	for _, d := range out.Deployments {
		if d.Costed() && len(costs.cols) > 0 {
			rows = append(rows, checkRow{"deployment " + d.Name, deploymentChecks(costs, d)})
		}
	}
	scenarios := map[string]bool{}
	for _, gpu := range out.Fleet.GPUs {
		if gpu.Scenario != "" && !scenarios[gpu.Scenario] {
			scenarios[gpu.Scenario] = true
			rows = append(rows, checkRow{"scenario " + gpu.Scenario + " on Results", scenarioChecks(out, lay, gpu.Scenario)})
		}
	}
	if len(out.Results) > 0 && !scenarios[out.Results[0].Scenario] {
		rows = append(rows, checkRow{"scenario " + out.Results[0].Scenario + " on Results: the hours of a month", scenarioChecks(out, lay, out.Results[0].Scenario)})
	}
	m := out.Plan.Model()
	for _, o := range m.Offers {
		if slices.ContainsFunc(out.Fleet.GPUs, func(gpu fleet.GPU) bool { return domain.SameGPU(gpu.GPU, o.GPU) }) {
			rows = append(rows, checkRow{"offer " + o.Label() + " in Cloud", offerChecks(o)})
		}
	}
	rows = append(rows, censusChecks(m.Read, true)...)
	return writeChecks(g, "The inputs planner eval read for the fleet: 1 while a row is as it read it, 0 once it changed", fleetLastCol, row, rows)
}

// nearCell compares a cell's number with the value planner read or
// computed, within what recalculating the same formula elsewhere may
// round; an error in the cell is a change. The constants are written as a
// spreadsheet writes them back (plain digits, at most 12 significant), so
// that a workbook LibreOffice saved still holds planner's formula.
func nearCell(ref string, v float64) string {
	c := constant(v)
	return fmt.Sprintf("IFERROR(ABS(%s-(%s))<=MAX(1,ABS(%s))/1000000000,0)", ref, c, c)
}

// constant is v in plain digits, rounded to 12 significant ones.
func constant(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// sameText compares a cell's text, as planner trims it, with what planner
// read: without regard to case, as planner names offers, GPUs and models.
func sameText(at diag.Origin, s string) string {
	return fmt.Sprintf("TRIM(%s&\"\")=%s", cellRef(at), excelString(s))
}

func deploymentChecks(costs costsLayout, d deploy.Result) []string {
	checks := []string{
		nearCell(costs.cell(view.CardsPerReplica, d.Name), float64(d.Cards)),
		nearCell(costs.cell(view.Replicas, d.Name), float64(d.Replicas)),
		fmt.Sprintf("%s=%s", costs.cell(view.Usage, d.Name), excelString(d.Usage)),
		nearCell(costs.cell(view.RentPerMonth, d.Name), d.RentPerMonth),
	}
	for key, v := range map[string]string{"model": d.Model, "precision": d.Precision, "gpu": d.GPU, "offer": d.Deployment.Offer,
		"scenario": d.Scenario, "profile": d.ProfileText} {
		if at, ok := d.Where[key]; ok && at.Sheet != "" {
			checks = append(checks, sameText(at, v))
		}
	}
	slices.Sort(checks[4:]) // the map's order is not the same twice
	return checks
}

func scenarioChecks(out Output, lay *resultsLayout, scenario string) []string {
	s := scenarioRefs(out, lay, scenario)
	var checks []string
	for _, r := range out.Results {
		if r.Scenario != scenario {
			continue
		}
		for ref, name := range map[string]string{s.gpus: domain.GPUs, s.nodeCost: domain.NodeCostPerMonth, s.hours: domain.HoursPerMonth} {
			if v, ok := r.Values[name]; ok && ref != "" {
				checks = append(checks, nearCell(ref, v))
			}
		}
	}
	slices.Sort(checks)
	return checks
}

// offerChecks compare an offer's price (in the workbook's currency) and
// billing cells with what planner read.
func offerChecks(o domain.Offer) []string {
	var checks []string
	if o.PriceAt.Sheet != "" {
		checks = append(checks, nearCell(priceRef(o), o.Price))
	}
	b := o.Billing
	if b.KindAt.Sheet != "" {
		checks = append(checks, fmt.Sprintf("LOWER(TRIM(%s&\"\"))=%s", cellRef(b.KindAt), excelString(b.Kind)))
	}
	if b.FallbackAt.Sheet != "" {
		checks = append(checks, sameText(b.FallbackAt, b.Fallback))
	}
	for _, c := range []struct {
		at diag.Origin
		v  float64
	}{{b.TermAt, b.TermMonths}, {b.UpfrontAt, b.Upfront}, {b.InterruptionAt, b.Interruption}, {b.ExtrasAt, b.Extras}} {
		if c.at.Sheet != "" {
			checks = append(checks, nearCell(fmt.Sprintf("IF(%s=\"\",0,VALUE(%s&\"\"))", cellRef(c.at), cellRef(c.at)), c.v))
		}
	}
	return checks
}
