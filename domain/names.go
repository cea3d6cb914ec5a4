package domain

import (
	"slices"
	"sync"

	"planner/formulas"
	"planner/units"
)

// The names planner gives a meaning of its own: the inputs and formulas it
// reads or provides by name. Every package that reads one by name uses
// these constants, so that a name is spelled in one place.
const (
	// OfferPrice is the $/GPU-hour of the cloud offer a per-offer formula is
	// evaluated for. Any formula that depends on it is evaluated once per offer.
	OfferPrice = "offer_price"
	// GPU is the text input naming the node's GPU; offers of that GPU are compared.
	GPU = "gpu"
	// Currency is the text input naming, by its ISO 4217 code, the currency
	// every amount of the workbook is in: USD when Assumptions has no such
	// row. It is the workbook's, one for every scenario.
	Currency = "currency"
	// Utilization is the share of calendar hours the GPUs emit tokens.
	Utilization = "utilization"
	// Breakeven is the per-offer formula the verdict compares utilisation with.
	Breakeven = "breakeven_utilization"
	// Base names the scenario of the Assumptions sheet's own values.
	Base = "base"

	// ModelName is the text input naming the model a scenario sizes, from the
	// model catalog; Precision optionally overrides the model's precision;
	// KVHeadroom is the KV-cache reserve as a share of the weights.
	ModelName  = "model"
	Precision  = "precision"
	KVHeadroom = "kv_headroom"

	// GPUs is the number input of cards in one node: sizing's node size, and
	// the cards a deployment's owned nodes hold.
	GPUs = "gpus"
	// HoursPerMonth is the number input of calendar hours in a month.
	HoursPerMonth = "hours_per_month"
	// CostPerGPUHour is what an owned GPU-hour costs, busy or not.
	CostPerGPUHour = "cost_per_gpu_hour"
	// CostPerUsedHour is what an owned GPU-hour costs at the utilisation: the
	// break-even curve follows it.
	CostPerUsedHour = "cost_per_used_hour"
	// NodeCostPerMonth is what owning one node costs a month.
	NodeCostPerMonth = "node_cost_per_month"
	// OwnSaving is the per-offer formula that says what owning saves a month:
	// the money a close call puts at stake.
	OwnSaving = "own_saving_per_month"
	// NPVSaving is the per-offer formula of what owning instead of renting
	// is worth in today's money over the amortisation.
	NPVSaving = "npv_saving"
	// CashSaving is the per-offer formula of what owning saves in cash each
	// month against renting the used hours, before the purchase.
	CashSaving = "cash_saving_per_month"
	// PaybackMonths names the payback where a result is shown by name.
	PaybackMonths = "payback_months"
)

// The names the Cash flow sheet follows month by month, beside capex,
// residual and amortization_months: the monthly cost of capital, the
// running cost a month, per offer the rent of the used hours a month, and
// the power a month, which moves along electricity's path.
const (
	MonthlyRate   = "monthly_rate"
	RunningCost   = "running_cost_per_month"
	RentUsed      = "rent_used_per_month"
	PowerPerMonth = "power_per_month"
)

// The names the engine gives formulas from the sizing of the scenario's
// model on its GPU.
const (
	WeightsGB      = "weights_gb"
	GPUMemoryGB    = "gpu_memory_gb"
	MinCardsName   = "min_cards"
	UsualCardsName = "usual_cards"
	KVGBPerReplica = "kv_gb_per_replica"
)

// SizingNames are the names sizing provides, in display order.
func SizingNames() []string {
	return []string{WeightsGB, GPUMemoryGB, MinCardsName, UsualCardsName, KVGBPerReplica}
}

// GPUWatts is the board power of one GPU of the node, in watts. It comes
// from the GPUs sheet for each scenario's GPU, as its memory does: a node of
// B200s draws a B200's watts, never the H100's 700 W. A scenario (a
// Scenarios row gpu_watts) or --set gpu_watts overrides it.
//
// Workbooks made before the catalog gave the watts have gpu_watts in
// Assumptions. There it is the watts of the Assumptions' GPU: it holds for
// every scenario on that GPU, and a scenario on another GPU takes that
// GPU's watts from the catalog.
const GPUWatts = "gpu_watts"

// The power that follows the load, and the site's. GPUIdleWatts is one
// card's draw while it serves nothing: the busy hours (the utilisation)
// draw the board watts, the idle hours these; 0 takes the GPUs sheet's idle
// watts of the scenario's GPU where its board watts come from there, and
// without any a card draws its board watts all month, as the article
// counts. NodeKW is the node's full draw with the facility factor.
// SiteKW bounds the owned nodes' full draw (0: no limit); GridCO2 is the
// grid's grams of CO2 per kWh (0: none given), for the fleet's carbon.
const (
	GPUIdleWatts = "gpu_idle_watts"
	NodeKW       = "node_kw"
	SiteKW       = "site_kw"
	GridCO2      = "grid_g_co2_per_kwh"
)

// The inputs of the article's cost lines, named here for what planner
// knows of them: the values each plausibly takes (bands.go).
const (
	Capex              = "capex"
	AmortizationMonths = "amortization_months"
	Residual           = "residual"
	PUE                = "pue"
	ElectricityPrice   = "electricity_price"
	RackPerMonth       = "rack_per_month"
)

// The inputs of owning's lines beyond the article's three, which the
// built-in library reads (a workbook made before them is given them at
// zero when read): the cost of capital, maintenance, staff, the network
// and software licences. Each is zero unless the workbook gives it.
const (
	CostOfCapital      = "cost_of_capital"
	MaintenancePerYear = "maintenance_per_year"
	StaffPerMonth      = "staff_per_month"
	NetworkPerMonth    = "network_per_month"
	SoftwarePerGPUYear = "software_per_gpu_year"
)

// The inputs that put owning against renting after tax: the tax rate on
// profits (0: before tax) and the depreciation, 0 for straight line or a
// declining-balance rate a year; with the depreciation a month and the
// tax it saves, which the Cash flow sheet follows month by month.
const (
	TaxRate              = "tax_rate"
	Depreciation         = "depreciation"
	DepreciationPerMonth = "depreciation_per_month"
)

// The paths over the term: how the cloud prices and the electricity
// price change a year, each compounding at each 12th month of the
// amortisation (months 13, 25, …), and, per offer, how many months its
// price holds before it renews at the changed price (12, or an all hours
// term's whole years). With a change, NPV, payback, the verdict and the
// break-even follow the prices month by month.
const (
	RentChange         = "rent_price_change_per_year"
	ElectricityChange  = "electricity_price_change_per_year"
	OfferRenewalMonths = "offer_renewal_months"
	RentPathFactor     = "rent_path_factor"
	PowerPathFactor    = "power_path_factor"
	// ThroughputGain is how the tokens per second one replica serves grow
	// a year (software on the same card), compounding at each 12th month as
	// the prices' changes do: a deployment sized from its demand needs
	// fewer replicas in later years. Only the deployments read it.
	ThroughputGain = "throughput_gain_per_year"
	// AnnuityFactor is what a dollar a month over the amortisation is worth
	// in today's money, at the cost of capital: the path factors without a
	// change.
	AnnuityFactor = "annuity_factor"
)

// LaterInputs are the inputs the built-in cost per GPU-hour came to read
// after workbooks were first made, in the order the library reads them: a
// workbook without one is given it at zero (its unit is the default
// workbook's), and a workbook's own cost per GPU-hour must read each. The
// library and its earlier built-ins say which they are, so that a new
// cost line needs no name here.
func LaterInputs() []string { return slices.Clone(laterInputs()) }

// utilization, which the power a month came to read with idle watts, is
// no later input: every workbook has had it since the first.
var laterInputs = sync.OnceValue(func() []string {
	return slices.DeleteFunc(formulas.AddedInputs(CostPerGPUHour), func(n string) bool { return n == Utilization })
})

// LaterNPVInputs are the inputs the built-in NPV came to read after it was
// first made, beyond the cost's (LaterInputs): the tax rate, the
// depreciation and the paths' yearly changes, not offer_renewal_months,
// which planner sets per offer. A workbook without one is given it at
// zero: before tax, at today's prices.
func LaterNPVInputs() []string { return slices.Clone(laterNPVInputs()) }

var laterNPVInputs = sync.OnceValue(func() []string {
	return slices.DeleteFunc(formulas.AddedInputs(NPVSaving), func(n string) bool {
		return n == OfferRenewalMonths || slices.Contains(laterInputs(), n)
	})
})

// NoneAtZero reports whether 0 of the input named says "none" rather than
// a quantity: no idle watts (the board watts all month), no site limit.
// Its unit would refuse a zero.
func NoneAtZero(name string) bool { return name == GPUIdleWatts || name == SiteKW }

// CheckInput is c.Check of the input named, but for the zero that means
// none (NoneAtZero).
func CheckInput(c units.Currency, name string, v float64, unit string) string {
	if v == 0 && NoneAtZero(name) {
		return ""
	}
	return c.Check(v, unit)
}
