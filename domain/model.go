package domain

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"planner/diag"
	"planner/formulas"
	"planner/sizing"
	"planner/units"
)

// Scenario is a set of input values that differ from the Assumptions'.
type Scenario struct {
	Name   string
	Set    map[string]Value
	Notes  string
	Origin diag.Origin            // the scenario's header cell
	Where  map[string]diag.Origin // the cell of each value it sets
	// Links are the values the scenario takes from another cell by a
	// reference ("Assumptions!D6", the low end of capex's range): planner
	// reads that cell, as a spreadsheet recalculating would.
	Links map[string]string
}

// Value is an input's value: a number, or text where a name is meant.
type Value struct {
	Num    float64
	Text   string
	IsText bool
}

// Num is a number value.
func Num(v float64) Value { return Value{Num: v} }

// Text is a text value.
func Text(s string) Value { return Value{Text: s, IsText: true} }

// String prints a value as a workbook would hold it.
func (v Value) String() string {
	if v.IsText {
		return strconv.Quote(v.Text)
	}
	return num(v.Num)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Input is one assumption a user can change.
type Input struct {
	Name     string
	Value    Value
	Unit     string
	Low      float64 // the range a sensitivity or Monte Carlo run explores,
	High     float64 // when HasRange is set
	HasRange bool
	Dist     *Distribution // how it varies in a Monte Carlo run; nil: fixed
	DistText string        // the distribution cell as typed ("" when empty)
	DistAt   diag.Origin
	Notes    string      // source and notes, as the workbook gives them
	Origin   diag.Origin // the value cell
	LowAt    diag.Origin // the low and high cells, when read from a sheet
	HighAt   diag.Origin
	TextCell bool // the number was typed as text ("50%"): a spreadsheet sees text there
	// Defaulted: the workbook has no row for it; planner gave it the value
	// that keeps the workbook's figures as they were (see workbooks).
	Defaulted bool
}

// Offer is one cloud GPU offer.
type Offer struct {
	Provider string
	Name     string
	GPU      string
	Price    float64 // the workbook's currency (Model.Currency) per GPU-hour
	// Currency is the currency the offer is listed in when it is not the
	// workbook's ("" when it is); Listed is its price in it, which the FX rate
	// at RateAt converts into Price.
	Currency string
	Listed   float64
	RateAt   diag.Origin
	AsOf     string // the date the price was listed, YYYY-MM-DD
	// AsOfSerial is the as-of date as a number in the workbook's own date
	// system; 0 when there is none. AsOfText: the cell holds the date as
	// text (2026-10-10), which a spreadsheet reads with DATEVALUE.
	AsOfSerial float64
	AsOfText   bool
	Source     string
	Notes      string
	Origin     diag.Origin
	AsOfAt     diag.Origin // the as-of cell
	GPUAt      diag.Origin // the gpu cell
	PriceAt    diag.Origin // the price cell
	// PriceText: the price was typed as text; a spreadsheet sees text there.
	PriceText bool
	Billing   // how the offer bills, beyond its price per GPU-hour
}

// Label names the offer for people: "RunPod H100 SXM, Community".
func (o Offer) Label() string { return o.Provider + " " + o.Name }

// Slug turns a label into a name fragment: "RunPod H100 SXM, Community" ->
// "runpod_h100_sxm_community".
func Slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
			under = false
		} else {
			under = true
		}
	}
	return b.String()
}

// SameGPU reports whether two GPU names mean the same card, ignoring case and
// spacing.
func SameGPU(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

// GPUKey is what SameGPU compares of a name: two names mean the same card
// exactly when their keys are equal, so that a list of names is checked
// for repeats in one pass. Each letter stands for all the letters it
// equals ignoring case (as strings.EqualFold matches them), by the least.
func GPUKey(s string) string {
	var b strings.Builder
	for i, word := range strings.Fields(s) {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range word {
			b.WriteRune(leastFold(r))
		}
	}
	return b.String()
}

// leastFold is the least of the runes that equal r ignoring case.
func leastFold(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r
		}
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return least
}

// Model is everything a workbook says: inputs, formulas (built-ins already
// merged with the workbook's own), offers, named scenarios, the GPU and
// model catalogs, and deployment cases.
type Model struct {
	Where        diag.Origin // the file and sheet the inputs come from
	Inputs       []Input
	Formulas     []formulas.Formula
	Offers       []Offer
	Scenarios    []Scenario // named scenarios, in sheet order; the base is implied
	GPUs         []sizing.GPUSpec
	Catalog      []sizing.ModelSpec
	Deployments  []Deployment
	Benchmarks   []Benchmark // measured points deployments with latency targets read
	APIs         []API
	Correlations []Correlation
	Targets      []TargetSpec // the formulas the tornado follows
	Tables       []TableSpec  // data tables to compute
	Goals        []Goal       // goals to solve on every evaluation
	FX           []FXRate     // rates of the other currencies offers and APIs are priced in
	// Currency is the currency every amount is in, from the input currency:
	// an input's "$" and every figure planner writes are amounts of it.
	Currency units.Currency
	// Read is what planner read of the input sheets its own figures
	// depend on, sheet by sheet; empty for a model not read from a
	// workbook.
	Read []SheetRead
}

// GPUSpec returns the catalog entry of the GPU called name.
func (m *Model) GPUSpec(name string) (sizing.GPUSpec, bool) {
	for _, g := range m.GPUs {
		if SameGPU(g.Name, name) {
			return g, true
		}
	}
	return sizing.GPUSpec{}, false
}

// ModelSpec returns the catalog entry of the model called name, ignoring case.
func (m *Model) ModelSpec(name string) (sizing.ModelSpec, bool) {
	for _, s := range m.Catalog {
		if strings.EqualFold(strings.TrimSpace(s.Name), strings.TrimSpace(name)) {
			return s, true
		}
	}
	return sizing.ModelSpec{}, false
}

// Scenario returns the named scenario.
func (m *Model) Scenario(name string) (Scenario, bool) {
	for _, s := range m.Scenarios {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// Input returns the input called name.
func (m *Model) Input(name string) (Input, bool) {
	for _, in := range m.Inputs {
		if in.Name == name {
			return in, true
		}
	}
	return Input{}, false
}

// OfferLabels lists the labels of the offers for gpu (every offer for ""),
// sorted, for messages.
func (m *Model) OfferLabels(gpu string) string {
	var labels []string
	for _, o := range m.Offers {
		if gpu == "" || SameGPU(o.GPU, gpu) {
			labels = append(labels, o.Label())
		}
	}
	if len(labels) == 0 {
		return "(none: the Cloud sheet has no offer for " + gpu + ")"
	}
	sort.Strings(labels)
	return diag.List(labels)
}

// GPUNames lists the GPU catalog's names, sorted, for messages.
func (m *Model) GPUNames() string {
	var names []string
	for _, g := range m.GPUs {
		names = append(names, g.Name)
	}
	return joinSorted(names)
}

// ModelNames lists the model catalog's names, sorted, for messages.
func (m *Model) ModelNames() string {
	var names []string
	for _, s := range m.Catalog {
		names = append(names, s.Name)
	}
	return joinSorted(names)
}

func joinSorted(s []string) string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return diag.List(s)
}

// SizingEnabled reports whether the model sizes a model per scenario: it
// does when the Assumptions name one with the text input model.
func (m *Model) SizingEnabled() bool {
	in, ok := m.Input(ModelName)
	return ok && in.Value.IsText
}

// SheetRead is what planner read of one input sheet, for the live flags
// that say when figures only planner computes are stale: every cell with
// content of the columns that hold figures, as stored, and how many cells
// with content each of those columns had, so that a value or a row added
// shows as well as one changed.
type SheetRead struct {
	Sheet   string
	Cells   []CellRead
	Columns []ColumnCount
	Rows    int // the rows read, blank ones between included
	// FleetOnly says that only the deployments' figures are computed from
	// the sheet (the models, deployments, benchmarks, APIs), not the
	// offers' verdicts Monte Carlo tests.
	FleetOnly bool
}

// CellRead is a cell planner read and what it held, as stored.
type CellRead struct {
	At     diag.Origin
	Stored string
}

// ColumnCount is how many cells with content a column of an input sheet
// held when planner read it.
type ColumnCount struct {
	Col, Filled int
}
