package montecarlo

import (
	"fmt"
	"math"
	"strconv"

	"planner/domain"
	"planner/engine"
	"planner/units"
	"planner/wording"
)

// Close calls. A verdict is a close call when the Monte Carlo run of its
// scenario finds it going the other way in more than one sample of twenty
// (the break-even lies inside the P5–P95 band of what the uncertain inputs
// make of the comparison, or the base case is a corner the samples
// disagree with), or when the break-even lies within closeMargin of the
// utilisation. A verdict the samples go against in more than half of
// them is no close call but the run leaning the other way, and its words
// say so: "Monte Carlo favours rent in 53.9 % of samples".
const closeMargin = 0.05

// CloseCall is one verdict's closeness.
type CloseCall struct {
	Close bool
	// OwnWins is the share of Monte Carlo samples in which owning is
	// cheaper; NaN without a run.
	OwnWins float64
	// AtStake is what owning saves a month (below zero: loses) at the
	// scenario's values; NaN when the model has no own_saving_per_month.
	AtStake float64
	// Favours is the verdict most samples take when it is not the base
	// case's (more than half flip): rent or buy; else "".
	Favours string
	Why     string // in words, when Close
}

// CloseCalls says how close the verdict against each of res's offers is,
// in order, from the scenario's result and its Monte Carlo run (nil when
// none); the run's offers are read by label once, not once per offer.
func CloseCalls(res *engine.Result, mc *Result, cur units.Currency) []CloseCall {
	wins := map[string]float64{}
	if mc != nil {
		for _, oc := range mc.OwnCheaper {
			wins[oc.Offer.Label()] = oc.Probability // offers share a label only when the run repeats one
		}
	}
	out := make([]CloseCall, len(res.Offers))
	for i, or := range res.Offers {
		w, ok := wins[or.Offer.Label()]
		if !ok {
			w = math.NaN()
		}
		out[i] = closeness(res, or, w, cur)
	}
	return out
}

// closeness is one offer's close call, given the share of samples in
// which owning wins (NaN without a run, or without the offer in it); the
// money at stake is in currency cur.
func closeness(res *engine.Result, or engine.OfferResult, wins float64, cur units.Currency) CloseCall {
	c := CloseCall{OwnWins: math.NaN(), AtStake: math.NaN()}
	be, hasBE := or.Values[domain.Breakeven]
	u, hasU := res.Values[domain.Utilization]
	if !hasBE && or.Offer.HasBreakeven() || !hasU || or.Verdict == "" {
		return c
	}
	if v, ok := or.Values[domain.OwnSaving]; ok {
		c.AtStake = v
	}
	c.OwnWins = wins
	flips, other := c.OwnWins, wording.Buy
	if or.Verdict == wording.Buy {
		flips, other = 1-c.OwnWins, wording.Rent
	}
	switch {
	case flips > 0.5:
		c.Close, c.Favours = true, other
		c.Why = fmt.Sprintf("Monte Carlo favours %s in %s of samples", other, percent(flips))
	case flips > 0.05:
		c.Close, c.Why = true, fmt.Sprintf("close call: flips in %s of Monte Carlo samples", percent(flips))
	case hasBE && math.Abs(u-be) <= closeMargin:
		c.Close, c.Why = true, fmt.Sprintf("close call: break-even within %s points of utilisation", strconv.Itoa(int(closeMargin*100)))
	default:
		return c
	}
	if finite(c.AtStake) {
		c.Why += fmt.Sprintf("; %s a month at stake", dollars(cur, math.Abs(c.AtStake)))
	}
	return c
}

// percent writes a share as a verdict's words do: 60.8 %.
func percent(x float64) string { return wording.Word{Value: x, Format: wording.AsPercent}.String() }

// dollars writes money as a verdict's words do: $9,554.
func dollars(c units.Currency, v float64) string { return wording.Money(c, "", v).String() }

// BaseOutside says, when the scenario's own cost per GPU-hour lies
// outside the P5–P95 of its Monte Carlo samples, that the verdicts (which
// use the base) and the samples tell different stories: the inputs'
// ranges lean one way from their values. It is "" when the base lies
// within, or the run has no cost per GPU-hour.
func BaseOutside(mc *Result, cur units.Currency) string {
	if mc == nil || mc.Good == 0 {
		return ""
	}
	for _, s := range mc.Outputs {
		if s.Name != domain.CostPerGPUHour {
			continue
		}
		side, share := "below", "cheaper"
		switch {
		case s.Base > s.P95:
			side, share = "above", "dearer"
		case !(s.Base < s.P5):
			return ""
		}
		return fmt.Sprintf("the base's cost per GPU-hour, %s, lies %s the P5–P95 of Monte Carlo's samples (%s–%s, mean %s): the verdicts use a node %s than at least 95 %% of the samples; the inputs' ranges lean away from their values",
			cur.Format(s.Base, "$/GPU-h"), side, cur.Format(s.P5, "$/GPU-h"), cur.Format(s.P95, "$/GPU-h"), cur.Format(s.Mean, "$/GPU-h"), share)
	}
	return ""
}

// SameShares reports whether, in every run, owning's NPV is above zero in
// exactly the share of samples in which owning is cheaper, as it is
// without a cost of capital (both then follow the same monthly saving):
// the two shares are then one figure, shown once.
func SameShares(runs ...*Result) bool {
	for _, mc := range runs {
		for _, oc := range mc.OwnCheaper {
			if oc.NPV != nil && oc.NPVAboveZero != oc.Probability {
				return false
			}
		}
	}
	return true
}
