package whatif

import (
	"fmt"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// withOffers is the default model with n offers of the node's GPU, priced
// from $1.50 to $6.50 a GPU-hour: a Cloud sheet grown as users grow it.
func withOffers(b *testing.B, n int) *engine.Plan {
	b.Helper()
	m := enginetest.SpecModel()
	m.Offers = nil
	for i := range n {
		m.Offers = append(m.Offers, domain.Offer{Provider: "Cloud", Name: fmt.Sprintf("H100 offer %d", i+1), GPU: "H100 SXM",
			Price: 1.5 + 5*float64(i)/float64(n)})
	}
	p, err := engine.Build(m)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkBreakevenCurve traces the break-even curve of one scenario and
// its crossing with every offer, for 100 and 1,000 offers: the cost should
// grow with the offers, not with their square.
func BenchmarkBreakevenCurve(b *testing.B) {
	for _, n := range []int{100, 1000} {
		p := withOffers(b, n)
		sc := []domain.Scenario{{Name: domain.Base}}
		b.Run(fmt.Sprintf("offers=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := BreakevenCurve(p, sc)
				if err != nil || len(c.Crossings) != n {
					b.Fatalf("%v, %d crossings", err, len(c.Crossings))
				}
			}
		})
	}
}
