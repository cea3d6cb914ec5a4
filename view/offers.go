package view

import (
	"planner/domain"
	"planner/engine"
	"planner/finance"
	"planner/formulas"
	"planner/montecarlo"
	"planner/wording"
)

// offerFigure is a figure with how an offer's value of it is found.
type offerFigure struct {
	Figure
	of func(r *engine.Result, o engine.OfferResult, c montecarlo.CloseCall) Cell
}

// Offer is one offer of a scenario with its value of every figure.
type Offer struct {
	engine.OfferResult
	Call  montecarlo.CloseCall // how close its verdict is
	Cells []Cell               // one per figure of the Offers
}

// Offers is a scenario's offers as a reader reads them: the figures in
// order, and every offer of the model with its cells.
type Offers struct {
	Figures []Figure
	All     []Offer
}

// Compared are the offers of the scenario's GPU, the ones it is compared
// against: the columns of the sheet, the rows of the terminal.
func (os *Offers) Compared() []Offer {
	var out []Offer
	for _, o := range os.All {
		if o.Compared {
			out = append(out, o)
		}
	}
	return out
}

// OffersOf is scenario r's offers as a reader reads them, with its Monte
// Carlo run mc (nil when none) deciding the close calls.
func OffersOf(plan *engine.Plan, r *engine.Result, mc *montecarlo.Result) *Offers {
	return OfferFiguresOf(plan).Of(r, mc)
}

// OfferFigures are the figures a plan's offers are read by, found once
// for every scenario of it.
type OfferFigures struct {
	plan    *engine.Plan
	figs    []offerFigure
	figures []Figure // as Offers.Figures gives them, in the plan's currency
}

// OfferFiguresOf is the figures of plan's offers.
func OfferFiguresOf(plan *engine.Plan) *OfferFigures {
	t := &OfferFigures{plan: plan, figs: offerFigures(plan)}
	for _, f := range t.figs {
		t.figures = append(t.figures, f.Figure)
	}
	t.figures = in(plan.Currency(), t.figures)
	return t
}

// Of is scenario r's offers, as OffersOf gives them.
func (t *OfferFigures) Of(r *engine.Result, mc *montecarlo.Result) *Offers {
	calls := montecarlo.CloseCalls(r, mc, t.plan.Currency())
	// Every scenario's Offers reads the one list of figures: full, so
	// that an append copies it.
	out := &Offers{Figures: t.figures[:len(t.figures):len(t.figures)], All: make([]Offer, len(r.Offers))}
	for i, o := range r.Offers {
		cells := make([]Cell, len(t.figs))
		for k, f := range t.figs {
			cells[k] = f.of(r, o, calls[i])
		}
		out.All[i] = Offer{OfferResult: o, Call: calls[i], Cells: cells}
	}
	return out
}

// Cell is the offer's value of the figure called name, and whether the
// view has such a figure.
func (os *Offers) Cell(o Offer, name string) (Cell, bool) {
	for k, f := range os.Figures {
		if f.Name == name {
			return o.Cells[k], true
		}
	}
	return Cell{}, false
}

// BreakevenFormat shows a break-even as a percentage, and one above 100 %
// (which no utilisation reaches) as such, live.
const BreakevenFormat = `[>1]"above 100 %";0.0%`

// terminalHeads are the per-offer formulas the terminal's table shows, by
// the heading it gives each.
var terminalHeads = map[string]string{
	domain.Breakeven: "break-even",
	domain.OwnSaving: "own saves/month",
	domain.NPVSaving: "NPV of owning",
}

// offerFigures are an offer's figures in reading order: its price, the
// plan's per-offer formulas with break-even and the verdict first, the
// payback, the price's date and how close the verdict is. Without a plan
// (a report put together by hand) there are no formulas, and the verdict
// follows the price.
func offerFigures(plan *engine.Plan) []offerFigure {
	if plan == nil {
		return []offerFigure{price, verdict, payback, asOf, closeCall}
	}
	figs := []offerFigure{price}
	if m := plan.Model(); m.HasBilling() {
		figs = append(figs, billing, termMonths, effectivePrice(&m))
	}
	for _, f := range perOfferFormulas(plan) {
		figs = append(figs, formulaFigure(f))
		if f.Name == domain.Breakeven {
			figs = append(figs, verdict)
		}
	}
	return append(figs, payback, asOf, closeCall)
}

// perOfferFormulas lists the per-offer formulas with break-even first.
func perOfferFormulas(p *engine.Plan) []formulas.Formula {
	var first, rest []formulas.Formula
	for _, f := range p.Formulas() {
		switch {
		case !p.PerOffer(f.Name):
		case f.Name == domain.Breakeven:
			first = append(first, f)
		default:
			rest = append(rest, f)
		}
	}
	return append(first, rest...)
}

func formulaFigure(f formulas.Formula) offerFigure {
	fig := offerFigure{Figure: Figure{Name: f.Name, Label: formulas.LabelOf(f), Head: terminalHeads[f.Name], Unit: f.Unit, Note: f.Doc, In: Sheet, Formula: true}}
	if fig.Head != "" {
		fig.In |= Terminal
	}
	fig.of = func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		if v, ok := o.Values[f.Name]; ok {
			return Cell{Value: v, Number: true}
		}
		if e, ok := o.Errors[f.Name]; ok {
			return Cell{Err: e}
		}
		return Cell{NA: true}
	}
	if f.Name == domain.Breakeven {
		fig.Format = BreakevenFormat
		of := fig.of
		fig.of = func(r *engine.Result, o engine.OfferResult, c montecarlo.CloseCall) Cell {
			if !o.Offer.HasBreakeven() {
				return Cell{Words: domain.NoBreakevenShort, Why: domain.NoBreakeven}
			}
			cell := of(r, o, c)
			if cell.Number {
				cell.Words = wording.BreakevenText(cell.Value)
			}
			return cell
		}
	}
	return fig
}

var price = offerFigure{Figure{Name: domain.OfferPrice, Label: "Offer price", Head: "$/GPU-h", Unit: "$/GPU-h",
	Note: "The offer's list price per GPU-hour.", In: Terminal | Sheet},
	func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		return Cell{Value: o.Offer.Price, Number: true}
	}}

// The figures of how an offer bills, shown when some offer of the model
// bills other than by its used hours alone.
var billing = offerFigure{Figure{Name: Billing, Key: Billing, Label: "Billing", Head: "billing", In: Terminal | Sheet | JSON,
	Note: "used hours: billed for the hours the GPUs are used; all hours: a term billing every calendar hour; spot: interrupted hours served by the fallback."},
	func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		return Cell{Words: o.Offer.KindOrDefault()}
	}}

var termMonths = offerFigure{Figure{Name: TermMonths, Key: TermMonths, Label: "Term", Unit: "months", Format: "0", In: Sheet | JSON, Optional: true,
	Note: "The months an all hours term bills every hour of."},
	func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		if o.Offer.KindOrDefault() != domain.AllHours {
			return Cell{}
		}
		return Cell{Value: o.Offer.TermMonths, Number: true}
	}}

// effectivePrice is what a used GPU-hour really costs on an offer, at the
// scenario's utilisation: the price every per-offer formula reads as
// offer_price.
func effectivePrice(m *domain.Model) offerFigure {
	return offerFigure{Figure{Name: EffectivePrice, Key: EffectivePrice, Label: "Effective price per used GPU-hour", Head: "eff. $/GPU-h", Unit: "$/GPU-h",
		In:   Terminal | Sheet | JSON,
		Note: "What a used hour really costs: a term's price and upfront spread over the hours used, a spot price mixed with its fallback's for the interrupted share, extras per GPU-month spread over the GPU's used hours. The per-offer rows below read it as offer_price."},
		func(r *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
			u, okU := r.Values[domain.Utilization]
			h, okH := r.Values[domain.HoursPerMonth]
			if !okU || !okH {
				return Cell{}
			}
			return Cell{Value: m.Terms(*o.Offer).Effective(u, h), Number: true}
		}}
}

// Names of the figures that are not formulas.
const (
	Billing        = "billing"
	TermMonths     = "term_months"
	EffectivePrice = "effective_price_per_gpu_hour"
	Verdict        = "verdict"
	AsOf           = "as_of"
	CloseCall      = "close_call"
)

var verdict = offerFigure{Figure{Name: Verdict, Label: "Verdict", Head: "verdict", In: Terminal | Sheet,
	Note: "buy: owning the node costs less per used hour than renting this offer; rent: the other way round."},
	func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		return Cell{Words: o.Verdict}
	}}

var payback = offerFigure{Figure{Name: domain.PaybackMonths, Label: "Payback", Head: "payback", Unit: "months", Format: "0", In: Terminal | Sheet, Optional: true,
	Note: "The first month in which owning's cash saving against the offer, undiscounted, has repaid the price, within the amortisation; savings that repay it only with the sale for the residual at the end, as the NPV counts it, pay back in the last month, with the sale."},
	func(r *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell {
		b := finance.PaybackOf(r, o)
		if !b.Known() {
			return Cell{}
		}
		return Cell{Value: float64(b.Months), Number: b.Months > 0 && !b.WithSale, Words: b.Words()}
	}}

var asOf = offerFigure{Figure{Name: AsOf, Label: "Price as of", Unit: "date", Note: "The day the price was listed.", In: Sheet},
	func(_ *engine.Result, o engine.OfferResult, _ montecarlo.CloseCall) Cell { return AsOfCell(*o.Offer) }}

// AsOfCell is the day an offer's price was listed: a date's serial, where
// it has one, and its words as Cloud gives them.
func AsOfCell(o domain.Offer) Cell {
	return Cell{Value: o.AsOfSerial, Number: o.AsOfSerial > 0, Words: o.AsOf}
}

var closeCall = offerFigure{Figure{Name: CloseCall, In: Terminal},
	func(_ *engine.Result, _ engine.OfferResult, c montecarlo.CloseCall) Cell {
		return Cell{Words: c.Why}
	}}
