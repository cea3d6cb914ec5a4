package domain

import (
	"math"
	"planner/units"
)

// The plausible values of the inputs planner knows by name, and of the
// catalogs' numbers (a GPU's watts and memory, an offer's price), for
// workbooks and --set to check each value against where it is given. An
// input planner does not know by name takes its unit's band, if the unit
// has one (units.ForUnit).

var bands = map[string]units.Band{
	Capex: {Noun: "the price of a node", Unit: units.Money, Low: 1000, High: 50e6, Example: 285000,
		Slip: func(v float64) (float64, string, string) {
			return v * 1000, units.Plain(v * 1000), units.Plain(v) + " thousand" // typed in thousands
		}},
	GPUs: {Noun: "the GPUs in a node", Unit: "GPUs", Low: 1, High: 72, Example: 8},
	AmortizationMonths: {Noun: "an amortisation", Unit: "months", Low: 12, High: 120, Example: 36,
		Slip: func(v float64) (float64, string, string) {
			return v * 12, units.Plain(v * 12), units.Plain(v) + " years" // years typed as months
		}},
	Residual: {Noun: "the share of its price a node sells for after amortisation", Unit: units.Share, Low: 0, High: 0.8, Example: 0.3},
	PUE: {Noun: "a facility factor (PUE)", Unit: "×", Low: 1, High: 3, Example: 1.3,
		BelowWhy: "a facility draws at least the power of the GPUs in it",
		Slip: func(v float64) (float64, string, string) {
			return v / 100, units.Plain(v / 100), units.Plain(v) + " %" // 130 for 130 %
		}},
	ElectricityPrice: units.Electricity,
	RackPerMonth:     {Noun: "a node's rack and colocation a month", Unit: "$/month", Low: 0, High: 100000, Example: 1000},
	HoursPerMonth: {Noun: "the hours of a calendar month", Unit: "h/month", Low: 672, High: 744, Example: 730,
		AboveWhy: "a month has at most 744 hours (31 days × 24)",
		Slip: func(v float64) (float64, string, string) {
			if v <= 31 {
				return v * 24, units.Plain(v * 24), units.Plain(v) + " days × 24 hours" // days for hours
			}
			return v / 12, units.Plain(v / 12), units.Plain(v) + " hours a year ÷ 12"
		}},
	CostOfCapital:      {Noun: "a yearly cost of capital", Unit: units.Share, Low: 0, High: 0.3, Example: 0.08},
	MaintenancePerYear: {Noun: "a year's maintenance as a share of the price", Unit: units.Share, Low: 0, High: 0.3, Example: 0.05},
	TaxRate:            {Noun: "a tax rate on profits", Unit: units.Share, Low: 0, High: 0.6, Example: 0.3},
	Depreciation:       {Noun: "a declining-balance rate a year", Unit: units.Share, Low: 0, High: 1, Example: 0.25},
	StaffPerMonth:      {Noun: "the staff of one node a month", Unit: "$/month", Low: 0, High: 100000, Example: 1000},
	NetworkPerMonth:    {Noun: "the network of one node a month", Unit: "$/month", Low: 0, High: 50000, Example: 300},
	RentChange:         {Noun: "a yearly change of the cloud prices", Unit: units.Change, Low: -0.9, High: 1, Example: -0.3},
	ElectricityChange:  {Noun: "a yearly change of the electricity price", Unit: units.Change, Low: -0.5, High: 1, Example: 0.05},
	ThroughputGain:     {Noun: "a yearly gain of the tokens per second a replica serves", Unit: units.Change, Low: 0, High: 2, Example: 0.3},
	SoftwarePerGPUYear: {Noun: "a GPU's software licences a year", Unit: "$/GPU-year", Low: 0, High: 50000, Example: 1200},
	GPUWatts: {Noun: "a GPU's board power", Unit: "W", Low: 50, High: 3000, Example: 700,
		Slip: func(v float64) (float64, string, string) {
			return v * 1000, units.Plain(v * 1000), units.Plain(v) + " kW" // kilowatts for watts
		}},
	// A price per GPU-hour from the Cloud sheet, as the formulas read it.
	OfferPrice: {Noun: "a cloud GPU-hour", Unit: "$/GPU-hour", Low: 0.01, High: 100, Example: 2.69,
		Slip: func(v float64) (float64, string, string) {
			cents := math.Round(v/730*100) / 100
			return cents, units.Plain(cents), units.Plain(v) + " a month ÷ 730 hours" // a month's price
		}},
	// A GPU's memory from the GPUs sheet (sizing's gpu_memory_gb).
	GPUMemoryGB: {Noun: "a GPU's memory", Unit: "GB", Low: 1, High: 1024, Example: 80,
		Slip: func(v float64) (float64, string, string) {
			return v / 1024, units.Plain(v / 1024), units.Plain(v) + " MB" // megabytes for gigabytes
		}},
}

// BandOf is the band of values an input plausibly takes: its own, for an
// input planner knows by name, else its unit's; false when neither has one.
func BandOf(name, unit string) (units.Band, bool) {
	if b, ok := bands[name]; ok {
		return b, true
	}
	return units.ForUnit(unit)
}

// Plausibility checks an input's value against its band: nil when it lies
// in it, or when the input has none. The bands are in no currency of their
// own: a money band is read in the workbook's, c, in which the message
// writes it.
func Plausibility(c units.Currency, name, unit string, v float64) *units.Finding {
	b, ok := BandOf(name, unit)
	if !ok {
		return nil
	}
	return b.In(c).Check(v)
}
