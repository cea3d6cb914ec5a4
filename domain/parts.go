package domain

import "planner/diag"

// The parts of a model that the evaluator does not read itself: how models
// are deployed, how uncertain inputs are correlated, and the what-ifs a
// workbook asks for. The packages that own them check them as Build runs
// (see Check).

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
	Offer         string  // an offer's label; "": the GPU's offer cheapest to rent for its hours
	Scenario      string  // the scenario that owns nodes of this GPU; "": chosen by GPU
	// Tokens a second one replica serves (a benchmark the user gives) and
	// at peak; 0: not given. FromDemand: replicas are ceil(peak ÷ per replica).
	TokensPerReplica, PeakTokens float64
	FromDemand                   bool
	// Targets are the latency limits the replica's tokens per second are
	// read at from the Benchmarks sheet's curve, instead of typed; Operating
	// is the point read (nil when the tokens are typed).
	Targets   Targets
	Operating *OperatingPoint
	// Mix is the input:output token mix (input:cached input:output with a
	// cached share) as typed, and its parts; API names the APIs row to
	// compare with, "": the cheapest of the model.
	Mix                      string
	MixIn, MixCached, MixOut float64
	API                      string
	// Profile is the share of the replicas busy in each hour of the day,
	// hour 0 first (24 of them), when the busy hours profile gives one;
	// nil otherwise. HoursPerMonth is then days per month × its sum.
	Profile     []float64
	ProfileText string // the profile as typed, trimmed
	Notes       string
	Origin      diag.Origin
	Where       map[string]diag.Origin // the cell of each column
	Texts       map[string]bool        // the number columns typed as text ("264")
}

// Correlation is a rank correlation between two uncertain inputs, induced
// in Monte Carlo samples by the Iman–Conover method.
type Correlation struct {
	A, B   string
	Rho    float64
	Notes  string
	Origin diag.Origin
}

// TargetSpec is a tornado target the workbook names.
type TargetSpec struct {
	Name   string
	Notes  string
	Origin diag.Origin
}

// Axis is one dimension of a data table: an input stepped from From to To
// in Steps values, or the offers of the scenario's GPU.
type Axis struct {
	Input    string
	From, To float64
	Steps    int
	Offers   bool
}

// TableSpec is a data table a user configured: one output over one or two
// axes.
type TableSpec struct {
	Name   string
	Output string
	Row    Axis
	Col    *Axis // nil: a one-way table
	Shade  Shade // how the sheet colours the cells
	Notes  string
	Origin diag.Origin
	Where  map[string]diag.Origin
}

// Shade says which cells of a data table are good news, in green: those
// below (or above) a threshold, the rest red; or, as a colour scale, the
// lowest (or highest) values. The zero Shade colours nothing.
type Shade struct {
	Below, Above bool    // green below or above Threshold
	Threshold    float64 // for Below and Above
	Low, High    bool    // a colour scale, green at that end
}

// Goal asks which value of one input makes a formula reach a value: Excel's
// Goal Seek, headless.
type Goal struct {
	Name     string
	For      string // the input to solve for
	Target   string // the formula that must reach Value
	Value    float64
	Offer    string           // for a per-offer target: the offer's label
	With     map[string]Value // other inputs set while solving
	Low      float64          // where to look, when HasRange
	High     float64
	HasRange bool
	Notes    string
	Origin   diag.Origin            // the goal's row
	Where    map[string]diag.Origin // the cell of each column
}

// API is a hosted model's price per million tokens, an APIs row.
type API struct {
	Provider, Model       string
	Input, Output, Cached float64 // the workbook's currency per million tokens; Cached 0: not given
	// Currency is the currency the API is listed in when it is not the
	// workbook's ("" when it is); its prices were converted by the FX rate at
	// RateAt, and Listed holds them as listed (input, output, cached).
	Currency                            string
	Listed                              [3]float64
	RateAt                              diag.Origin
	AsOf, Source                        string
	Origin, InputAt, OutputAt, CachedAt diag.Origin
}

// Label names the API row for people: "Together Llama 3.1 70B".
func (a API) Label() string { return a.Provider + " " + a.Model }
