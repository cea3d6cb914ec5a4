package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planner/deploy"
	"planner/domain"
	"planner/units"
	"planner/wording"
)

// Names of a deployment's figures. Those its verdict's words name are the
// phrase's own quantities, so that a sheet finds the cell of each word.
const (
	DeploymentName     = "deployment"
	DeploymentModel    = "model"
	DeploymentGPU      = "gpu"
	CardsPerReplica    = "cards_per_replica"
	Replicas           = "replicas"
	ReplicasByCards    = "replicas_by_cards"
	Usage              = "usage"
	DeploymentOffer    = "offer"
	RentPerReplicaHour = "rent_per_replica_hour"
	RentPerMonth       = deploy.QuantityRent
	OwnScenario        = "own_scenario"
	OwnNodes           = deploy.QuantityNodes
	OwnBusy            = deploy.QuantityBusy
	OwnPerMonth        = deploy.QuantityOwn
	OwnBreakeven       = wording.QuantityBreakeven
	Words              = "words"
	TokensPerSecond    = "tokens_per_second"
	LatencyTargets     = "latency_targets"
	OperatingLoad      = "operating_load"
	OperatingTTFT      = "operating_ttft_ms"
	OperatingTPOT      = "operating_tpot_ms"
	OperatingLoadText  = "operating_point"
	OperatingLatencies = "operating_latencies"
	BenchmarkPoints    = "benchmark_points"
	TokensPerMonth     = "tokens_per_month"
	RentPerMillion     = "rent_per_million"
	OwnPerMillion      = "own_per_million"
	API                = "api"
	APIText            = "api_text"
	APIPerMillion      = "api_per_million"
	APIPerMonth        = "api_per_month"
	Cheapest           = "cheapest"
	ReplicasByYear     = "replicas_by_year"
	RentOverTerm       = "rent_per_month_over_term"
)

// CheapestLabel says what the cheapest figure compares: the month of
// owning whole nodes, as the verdict does, not the cards' share beside it.
// A deployment alone pays for the whole nodes; the share is what it would
// cost only if other deployments filled the rest, which the fleet works
// out.
const CheapestLabel = "cheapest: whole nodes, rent or API"

// Deployment is one deployment costed, with its value of every figure.
type Deployment struct {
	deploy.Result
	Cells []Cell // one per figure of the Deployments
}

// Costed says planner costed the deployment; when not, its words say why.
func (d Deployment) Costed() bool { return d.Phrase != nil }

// Deployments are the deployments as a reader reads them: the figures in
// order, and every deployment with its cells.
type Deployments struct {
	Figures []Figure
	All     []Deployment
}

// DeploymentsOf are the deployments costed as a reader reads them, their
// money in currency cur.
func DeploymentsOf(ds []deploy.Result, cur units.Currency) *Deployments {
	out := &Deployments{All: make([]Deployment, len(ds))}
	for _, f := range deploymentFigures {
		out.Figures = append(out.Figures, f.Figure)
	}
	out.Figures = in(cur, out.Figures)
	for i, d := range ds {
		cells := make([]Cell, len(deploymentFigures))
		for k, f := range deploymentFigures {
			if d.Phrase != nil || f.always {
				cells[k] = f.of(d)
			}
		}
		if d.Phrase == nil {
			cells[deploymentVerdictAt] = Cell{Why: d.Words}
		}
		out.All[i] = Deployment{Result: d, Cells: cells}
	}
	return withoutUnused(out)
}

// withoutUnused leaves out the Optional figures no deployment has: the
// operating point's, in a workbook whose deployments type their tokens.
func withoutUnused(ds *Deployments) *Deployments {
	keep := make([]bool, len(ds.Figures))
	for k, f := range ds.Figures {
		keep[k] = !f.Optional
		for _, d := range ds.All {
			keep[k] = keep[k] || !d.Cells[k].Empty()
		}
	}
	out := &Deployments{All: make([]Deployment, len(ds.All))}
	for k, f := range ds.Figures {
		if keep[k] {
			out.Figures = append(out.Figures, f)
		}
	}
	for i, d := range ds.All {
		var cells []Cell
		for k, c := range d.Cells {
			if keep[k] {
				cells = append(cells, c)
			}
		}
		out.All[i] = Deployment{Result: d.Result, Cells: cells}
	}
	return out
}

// Cell is the deployment's value of the figure called name, and whether
// the view has such a figure.
func (ds *Deployments) Cell(d Deployment, name string) (Cell, bool) {
	for k, f := range ds.Figures {
		if f.Name == name {
			return d.Cells[k], true
		}
	}
	return Cell{}, false
}

// deploymentFigure is a figure with how a deployment's value of it is
// found; always says a deployment not costed has it too.
type deploymentFigure struct {
	Figure
	of     func(d deploy.Result) Cell
	always bool
}

// deploymentFigures are a deployment's figures in reading order: what it
// is, its cards and hours, renting, owning whole nodes, the verdict, its
// tokens rented, owned and from an API, and last the verdict in words,
// wide enough to print on a page of its own beside the name.
var deploymentFigures = []deploymentFigure{
	{Figure{Name: DeploymentName, Label: "deployment", Head: "deployment", In: Terminal | Sheet | Tokens | Operating}, words(func(d deploy.Result) string { return d.Name }), true},
	{Figure{Name: DeploymentModel, Label: "model", In: Sheet}, words(func(d deploy.Result) string { return d.Model }), true},
	{Figure{Name: DeploymentGPU, Label: "GPU", In: Sheet}, words(func(d deploy.Result) string { return d.GPU }), true},
	{Figure{Name: CardsPerReplica, Label: "cards per replica", Unit: "cards", In: Sheet, Whole: true}, number(func(d deploy.Result) float64 { return float64(d.Cards) }), false},
	{Figure{Name: Replicas, Label: "replicas", Unit: "replicas", In: Sheet, Whole: true}, number(func(d deploy.Result) float64 { return float64(d.Replicas) }), false},
	{Figure{Name: ReplicasByCards, Head: "cards", Unit: "cards", In: Terminal}, words(func(d deploy.Result) string { return fmt.Sprintf("%d×%d", d.Replicas, d.Cards) }), false},
	{Figure{Name: Usage, Label: "usage", Head: "usage", In: Terminal | Sheet}, words(func(d deploy.Result) string { return d.Usage }), false},
	{Figure{Name: DeploymentOffer, Label: "offer", Head: "offer", In: Terminal | Sheet}, words(func(d deploy.Result) string { return d.Offer.Label() }), false},
	{Figure{Name: domain.OfferPrice, Label: "$/GPU-hour", Unit: "$/GPU-h", In: Sheet}, number(func(d deploy.Result) float64 { return d.Offer.Price }), false},
	{Figure{Name: RentPerReplicaHour, Label: "rent per replica-hour", Unit: "$/h", In: Sheet}, number(func(d deploy.Result) float64 { return d.RentPerReplicaHour }), false},
	{Figure{Name: RentPerMonth, Label: "rent per month", Head: "rent/month", Unit: "$/month", In: Terminal | Sheet}, number(func(d deploy.Result) float64 { return d.RentPerMonth }), false},
	{Figure{Name: ReplicasByYear, Label: "replicas by year", Head: "replicas by year", Key: ReplicasByYear, In: Terminal | Sheet | JSON, Optional: true,
		Note: "with throughput_gain_per_year: the replicas the demand needs in each year of the term, the first year first"}, term(func(t *deploy.Term) Cell { return Cell{Words: yearsText(t.Replicas)} }), false},
	{Figure{Name: RentOverTerm, Label: "rent per month over the term", Head: "rent/month, term", Key: RentOverTerm, Unit: "$/month", In: Terminal | Sheet | JSON, Optional: true,
		Note: "with throughput_gain_per_year: each year's replicas at the first year's rent per replica, averaged over the term's months"}, term(func(t *deploy.Term) Cell { return Cell{Value: t.RentPerMonth, Number: true} }), false},
	{Figure{Name: OwnScenario, Label: "own: scenario", In: Sheet}, owned(func(o *deploy.OwnSide) Cell { return Cell{Words: o.Scenario} }), false},
	{Figure{Name: OwnNodes, Label: "nodes", Unit: "nodes", In: Sheet, Whole: true}, owned(func(o *deploy.OwnSide) Cell { return Cell{Value: float64(o.Nodes), Number: true} }), false},
	{Figure{Name: OwnBusy, Label: "node busy", Unit: units.Share, In: Sheet}, owned(func(o *deploy.OwnSide) Cell { return Cell{Value: o.Busy, Number: true} }), false},
	{Figure{Name: OwnPerMonth, Label: "own per month", Head: "own/month", Unit: "$/month", In: Terminal | Sheet}, owned(func(o *deploy.OwnSide) Cell { return Cell{Value: o.CostPerMonth, Number: true} }), false},
	{Figure{Name: OwnBreakeven, Label: "break-even", Unit: units.Share, Format: BreakevenFormat, In: Sheet}, owned(func(o *deploy.OwnSide) Cell { return Cell{Value: o.Breakeven, Number: o.Breakeven > 0} }), false},
	{Figure{Name: Verdict, Label: "verdict", Head: "verdict", In: Terminal | Sheet}, deploymentVerdict, false},
	{Figure{Name: TokensPerSecond, Label: "tokens per second per replica", Head: "tokens/s", Unit: "tokens/s", In: Sheet | Operating, Whole: true}, tokens(func(d deploy.Result) Cell { return Cell{Value: d.Tokens.PerSecond, Number: true} }), false},
	{Figure{Name: LatencyTargets, Label: "latency targets", Head: "targets", In: Sheet | Operating, Optional: true}, operating(func(op *domain.OperatingPoint) Cell { return Cell{Words: op.Targets.Words()} }), true},
	{Figure{Name: OperatingLoad, Label: "operating point: load", Format: "#,##0.0#", In: Sheet, Optional: true}, operating(func(op *domain.OperatingPoint) Cell { return Cell{Value: op.At, Number: true} }), false},
	{Figure{Name: OperatingLoadText, Head: "operating point", In: Operating, Optional: true}, operating(func(op *domain.OperatingPoint) Cell {
		return Cell{Words: op.Load + " " + units.Plain(math.Round(op.At*100)/100)}
	}), false},
	{Figure{Name: OperatingTTFT, Label: "ttft there, ms", Head: "ttft", Format: "#,##0.0", In: Sheet, Optional: true}, operating(func(op *domain.OperatingPoint) Cell { return Cell{Value: op.TTFT, Number: true} }), false},
	{Figure{Name: OperatingTPOT, Label: "tpot there, ms", Head: "tpot", Format: "#,##0.0", In: Sheet, Optional: true}, operating(func(op *domain.OperatingPoint) Cell { return Cell{Value: op.TPOT, Number: true} }), false},
	{Figure{Name: OperatingLatencies, Head: "ttft, tpot", In: Operating, Optional: true}, operating(func(op *domain.OperatingPoint) Cell {
		return Cell{Words: units.Plain(math.Round(op.TTFT*10)/10) + " ms, " + units.Plain(math.Round(op.TPOT*10)/10) + " ms"}
	}), false},
	{Figure{Name: BenchmarkPoints, Label: "benchmark points read", Head: "points read", In: Sheet | Operating, Optional: true}, operating(func(op *domain.OperatingPoint) Cell { return Cell{Words: op.Points()} }), false},
	{Figure{Name: TokensPerMonth, Label: "tokens per month", Head: "tokens/month", Unit: "tokens", In: Sheet | Tokens, Whole: true}, tokens(func(d deploy.Result) Cell { return Cell{Value: d.Tokens.PerMonth, Number: true} }), false},
	{Figure{Name: RentPerMillion, Label: "rent per million tokens", Head: "rent/M", Unit: "$/M tokens", In: Sheet | Tokens}, tokens(func(d deploy.Result) Cell { return Cell{Value: d.Tokens.PerMillionRent, Number: true} }), false},
	{Figure{Name: OwnPerMillion, Label: "own per million tokens: the cards' share", Head: "own/M", Unit: "$/M tokens", In: Sheet | Tokens}, tokens(func(d deploy.Result) Cell { return Cell{Value: d.Tokens.PerMillionOwn, Number: d.Own != nil} }), false},
	{Figure{Name: API, Label: "API", In: Sheet}, api(func(_ deploy.Result, a *deploy.APISide) Cell { return Cell{Words: a.Label()} }), false},
	{Figure{Name: APIText, Head: "API/M", Unit: "$/M tokens", In: Tokens}, api(func(d deploy.Result, a *deploy.APISide) Cell {
		return Cell{Words: d.Currency.Format(a.PerMillion, "$/M tokens") + " " + a.Label()}
	}), false},
	{Figure{Name: APIPerMillion, Label: "API per million tokens", Unit: "$/M tokens", In: Sheet}, api(func(_ deploy.Result, a *deploy.APISide) Cell { return Cell{Value: a.PerMillion, Number: true} }), false},
	{Figure{Name: APIPerMonth, Label: "API per month", Head: "API/month", Unit: "$/month", In: Sheet | Tokens}, api(func(_ deploy.Result, a *deploy.APISide) Cell { return Cell{Value: a.PerMonth, Number: true} }), false},
	{Figure{Name: Cheapest, Label: CheapestLabel, Head: "cheapest month", In: Sheet | Tokens}, tokens(func(d deploy.Result) Cell { return Cell{Words: d.Tokens.Cheapest} }), false},
	{Figure{Name: Words, Label: "in words", In: Sheet}, words(func(d deploy.Result) string { return d.Words }), true},
}

// deploymentVerdictAt is where the verdict stands among the figures: a
// deployment not costed gives its reason there.
var deploymentVerdictAt = func() int {
	for k, f := range deploymentFigures {
		if f.Name == Verdict {
			return k
		}
	}
	panic("view: a deployment has no verdict figure")
}()

// deploymentVerdict is buy or rent; with no scenario owning the GPU's
// nodes, none, and a line of text says why.
func deploymentVerdict(d deploy.Result) Cell {
	if d.Own == nil {
		return Cell{Why: "nothing to compare: no scenario owns " + d.GPU + " nodes"}
	}
	return Cell{Words: d.Verdict}
}

func words(of func(deploy.Result) string) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell { return Cell{Words: of(d)} }
}

func number(of func(deploy.Result) float64) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell { return Cell{Value: of(d), Number: true} }
}

// term is a figure of the replicas over the term with a throughput gain:
// none without one.
func term(of func(*deploy.Term) Cell) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell {
		if d.Term == nil {
			return Cell{}
		}
		return of(d.Term)
	}
}

// yearsText are the replicas of each year as the sheet writes them, one
// after another: "3, 2, 2".
func yearsText(replicas []int) string {
	var parts []string
	for _, n := range replicas {
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ", ")
}

// owned is a figure of owning whole nodes: none when no scenario owns
// the deployment's GPU.
func owned(of func(*deploy.OwnSide) Cell) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell {
		if d.Own == nil {
			return Cell{}
		}
		return of(d.Own)
	}
}

// tokens is a figure of the tokens: none when the deployment gives no
// throughput.
func tokens(of func(deploy.Result) Cell) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell {
		if d.Tokens.PerMonth <= 0 {
			return Cell{}
		}
		return of(d)
	}
}

// operating is a figure of the operating point read from the Benchmarks
// sheet: none when the deployment types its tokens per second.
func operating(of func(*domain.OperatingPoint) Cell) func(deploy.Result) Cell {
	return func(d deploy.Result) Cell {
		if d.Operating == nil {
			return Cell{}
		}
		return of(d.Operating)
	}
}

// api is a figure of the tokens bought from a hosted API: none when no
// APIs row is compared.
func api(of func(deploy.Result, *deploy.APISide) Cell) func(deploy.Result) Cell {
	return tokens(func(d deploy.Result) Cell {
		if d.Tokens.API == nil {
			return Cell{}
		}
		return of(d, d.Tokens.API)
	})
}
