package fleet

import (
	"fmt"

	"planner/deploy"
)

// Cheapest is how the cheapest mix buys one deployment: the replicas it
// owns on the GPU's owned nodes, and each part it rents from the offer of
// the GPU that rents it for least (used hours, a term's every hour, or
// spot with its fallback). The months of every deployment add up to the
// mix's.
type Cheapest struct {
	Deployment string
	Replicas   int
	// Owned are the replicas the mix owns, OwnPerMonth their cards' share
	// of the month of the nodes the mix owns of the GPU.
	Owned       int
	OwnedPart   string // "the base" or "the peak" when the mix owns one part of a profile's two
	OwnPerMonth float64
	Rented      []deploy.Part
	PerMonth    float64
	Words       string
}

// cheapestOf is how g's cheapest mix buys its i-th deployment of costs.
func cheapestOf(g GPU, costs []deploy.Result, i int) Cheapest {
	c := costs[i]
	out := Cheapest{Deployment: c.Name, Replicas: c.Replicas}
	for j, p := range partsOf(c) {
		if g.Buys[i][j] {
			out.Owned += p.Replicas
			out.OwnedPart = partName(p)
		} else {
			out.Rented = append(out.Rented, p)
			out.PerMonth += p.PerMonth
		}
	}
	if out.Owned > 0 && g.ownedCards > 0 {
		out.OwnPerMonth = float64(g.Best.Nodes) * g.NodeCost * float64(c.Cards*out.Owned) / float64(g.ownedCards)
		out.PerMonth += out.OwnPerMonth
	}
	out.Words = out.words(g)
	return out
}

// words says how the deployment is bought: "own", "rent from RunPod H100
// SXM, Spot (spot)", "own 2 of 5 replicas (the base); rent 3 from …".
func (c Cheapest) words(g GPU) string {
	var rent []string
	for _, p := range c.Rented {
		what := "rent"
		if len(c.Rented) > 1 || c.Owned > 0 {
			what = fmt.Sprintf("%s %s", plain(p.Replicas), plural(p.Replicas, "replica"))
			if n := partName(p); n != "" {
				what += " (" + n + ")"
			}
		}
		rent = append(rent, fmt.Sprintf("%s from %s (%s)", what, p.Offer.Label(), p.Offer.KindOrDefault()))
	}
	switch {
	case c.Owned == c.Replicas:
		return fmt.Sprintf("own, on %s nodes of the scenario %s", g.GPU, g.Scenario)
	case c.Owned > 0:
		return fmt.Sprintf("own %s of %s replicas (%s) on %s nodes of the scenario %s; rent %s", plain(c.Owned), plain(c.Replicas), c.OwnedPart, g.GPU, g.Scenario, and(rent))
	case len(rent) > 1:
		return "rent " + and(rent)
	}
	return rent[0]
}

// partName names a part of a profile: "the base" or "the peak"; "" for
// a deployment whole.
func partName(p deploy.Part) string {
	switch {
	case p.Base:
		return "the base"
	case p.Peak:
		return "the peak"
	}
	return ""
}
