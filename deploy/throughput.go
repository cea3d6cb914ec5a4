package deploy

import (
	"math"

	"planner/domain"
	"planner/engine"
	"planner/units"
)

// Over the term, the tokens per second a replica serves grow by the input
// throughput_gain_per_year, at each 12th month (months 13, 25, …) as the
// prices' changes do, so that a deployment sized from its demand serves it
// with fewer replicas later: ⌈peak ÷ tokens per replica ÷ (1 + gain)^k⌉ in
// year k + 1, never below 1. Replicas typed, not sized from a demand, stay.
// The month planner compares (rent per month, the verdict, the fleet) is
// the first year's; owned nodes are bought for the first year's need.

// Term is a deployment's replicas in each year of the owning scenario's
// amortisation and what renting them comes to a month over it.
type Term struct {
	Replicas []int     // year 1 first; the last year may be part of one
	Months   []float64 // the months of each year in the term
	// RentPerMonth is the rent over the term, each year's replicas at the
	// first year's rent per replica, divided by the term's months: the
	// average month, undiscounted.
	RentPerMonth float64
}

// termOf is the deployment's term along the gain of month's scenario, or
// nil when the gain is 0 or nothing changes: replicas not from a demand, or
// no amortisation to spread over.
func termOf(r Result, month *engine.Result) *Term {
	if month == nil || !r.FromDemand || r.TokensPerReplica <= 0 || r.Replicas <= 0 {
		return nil
	}
	gain, months := month.Values[domain.ThroughputGain], month.Values[domain.AmortizationMonths]
	if gain == 0 || months <= 0 || gain <= -1 || !finite(gain) {
		return nil
	}
	t := &Term{}
	perReplica := r.RentPerMonth / float64(r.Replicas)
	total := 0.0
	for k := 0; float64(12*k) < months; k++ {
		n := ReplicasInYear(r.PeakTokens/r.TokensPerReplica, gain, k)
		m := math.Min(12, months-float64(12*k))
		t.Replicas, t.Months = append(t.Replicas, n), append(t.Months, m)
		total += m * float64(n) * perReplica
	}
	t.RentPerMonth = total / months
	return t
}

// ReplicasInYear is the replicas a demand of ratio replicas at today's
// throughput needs in year k + 1 (k = 0: the first year), at a yearly gain:
// ⌈ratio ÷ (1 + gain)^k⌉, at least 1, rounding as the Deployment costs
// sheet's ROUNDUP does.
func ReplicasInYear(ratio, gain float64, k int) int {
	return max(1, int(units.CeilAsSpreadsheets(ratio/math.Pow(1+gain, float64(k)))))
}
