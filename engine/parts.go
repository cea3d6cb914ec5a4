package engine

import "planner/formulas"

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
	Offer         string  // an offer's label; "": the cheapest offer of the GPU
	Scenario      string  // the scenario that owns nodes of this GPU; "": chosen by GPU
	Notes         string
	Origin        formulas.Origin
	Where         map[string]formulas.Origin // the cell of each column
	Texts         map[string]bool            // the number columns typed as text ("264")
}

// Correlation is a rank correlation between two uncertain inputs, induced
// in Monte Carlo samples by the Iman–Conover method.
type Correlation struct {
	A, B   string
	Rho    float64
	Notes  string
	Origin formulas.Origin
}

// TargetSpec is a tornado target the workbook names.
type TargetSpec struct {
	Name   string
	Notes  string
	Origin formulas.Origin
}
