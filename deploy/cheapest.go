package deploy

import (
	"math"

	"planner/domain"
)

// Part is some of a deployment's replicas as the fleet buys them: all of
// them, or with a busy hours profile its base (the replicas busy every
// hour of its days, which a term or owned cards may carry) and its peak
// (the rest, busy only in the busier hours). Offer is the offer of the
// deployment's GPU that rents the part for least, whatever the deployment
// names: each billing of each offer (used hours, a term's every hour, spot
// with its fallback) priced for the part's hours.
type Part struct {
	Replicas int
	Hours    float64 // busy hours a month of one of its replicas, on average
	Base     bool    // the base of a profile: busy every hour of its days
	Peak     bool    // the peak of a profile: the replicas above the base
	Offer    domain.Offer
	PerMonth float64 // the part rented from Offer a month
}

// parts splits a costed deployment into what the fleet buys and prices
// each at its cheapest offer: with a profile whose quietest hour keeps
// some whole replicas busy, those (the base) and the rest (the peak); else
// the deployment whole.
func parts(m *domain.Model, r Result, calendarHours float64) []Part {
	whole := []Part{{Replicas: r.Replicas, Hours: r.HoursPerMonth}}
	base, peakHours := splitProfile(r.Deployment)
	if base > 0 && base < r.Replicas {
		days := r.HoursPerMonth / domain.ProfileHours(r.Profile)
		whole = []Part{{Replicas: base, Hours: 24 * days, Base: true}, {Replicas: r.Replicas - base, Hours: peakHours * days, Peak: true}}
	}
	for i := range whole {
		whole[i].Offer, whole[i].PerMonth = cheapestOffer(m, r.GPU, r.Cards, whole[i].Replicas, whole[i].Hours, calendarHours)
	}
	return whole
}

// splitProfile is a profile's base, the replicas busy in its quietest
// hour (whole ones: a replica is bought whole), and the busy hours of a
// day of each of the others, on average: hour by hour of the day, the
// replicas busy above the base, over the replicas above it. 0 without a
// profile.
func splitProfile(d domain.Deployment) (base int, peakHours float64) {
	if d.Profile == nil {
		return 0, 0
	}
	quietest := math.Inf(1)
	for _, s := range d.Profile {
		quietest = min(quietest, s*float64(d.Replicas))
	}
	base = int(math.Floor(quietest + 1e-9))
	if base <= 0 || base >= d.Replicas {
		return 0, 0
	}
	above := 0.0
	for _, s := range d.Profile {
		above += max(0, s*float64(d.Replicas)-float64(base))
	}
	return base, above / float64(d.Replicas-base)
}

// cheapestOffer is the offer of gpu that rents replicas of cards cards,
// each busy hours a month, for least a month (cardMonth, a month of
// calendarHours), and that month; of equal months the lower list price,
// then the first offer.
func cheapestOffer(m *domain.Model, gpu string, cards, replicas int, hours, calendarHours float64) (domain.Offer, float64) {
	var best domain.Offer
	bestMonth, found := 0.0, false
	for _, o := range m.Offers {
		if !domain.SameGPU(o.GPU, gpu) {
			continue
		}
		month := cardMonth(m.Terms(o), hours, calendarHours) * float64(cards*replicas)
		if !found || month < bestMonth || (month == bestMonth && o.Price < best.Price) {
			best, bestMonth, found = o, month, true
		}
	}
	return best, bestMonth
}
