package finance

import (
	"math"

	"planner/domain"
	"planner/engine"
)

// Depreciation is how owning writes the node's price off for tax: from the
// price down to the residual over the amortisation, straight line or, with
// a yearly rate, a declining balance of the amount to write off at a
// twelfth of the rate a month, the rest in the last month, so that the
// node stands at its residual when sold and the sale carries no tax.
type Depreciation struct {
	Amount float64 // the price less the residual
	Months int     // the amortisation
	Rate   float64 // the declining-balance rate a year; 0 is straight line
}

// DepreciationOf is a scenario's depreciation; false when the result lacks
// a name it needs or the amortisation is not a whole number of months.
func DepreciationOf(r *engine.Result) (Depreciation, bool) {
	capex, ok1 := r.Values[domain.Capex]
	residual, ok2 := r.Values[domain.Residual]
	n, ok3 := r.Values[domain.AmortizationMonths]
	if !ok1 || !ok2 || !ok3 || n < 1 || n != math.Trunc(n) || n > math.MaxInt32 {
		return Depreciation{}, false
	}
	return Depreciation{Amount: capex * (1 - residual), Months: int(n), Rate: r.Values[domain.Depreciation]}, true
}

// kept is what a declining balance keeps of the amount each month.
func (d Depreciation) kept() float64 { return 1 - d.Rate/12 }

// In is the depreciation of month m, 1 to Months.
func (d Depreciation) In(m int) float64 {
	if d.Rate == 0 {
		return d.Amount / float64(d.Months)
	}
	if m == d.Months {
		return d.Amount * math.Pow(d.kept(), float64(m-1))
	}
	return d.Amount * math.Pow(d.kept(), float64(m-1)) * d.Rate / 12
}

// Through is the depreciation of months 1 to m together.
func (d Depreciation) Through(m int) float64 {
	if d.Rate == 0 {
		return d.Amount / float64(d.Months) * float64(m)
	}
	if m >= d.Months {
		return d.Amount
	}
	return d.Amount * (1 - math.Pow(d.kept(), float64(m)))
}
