package whatif

import (
	"math"
	"testing"

	"planner/domain"
)

// A tax rate with a range swings the NPV like any input: from 0 to 30 %,
// at no cost of capital and no residual, owning against AWS is worth
// n × (1 − t) × cash saving − capex + t × capex (the depreciation's tax
// saving), (1 − t) × (36 × $15,794.672 − $285,000) at each end. Monte
// Carlo samples it too.
func TestTornadoAndMonteCarloVaryTheTaxRate(t *testing.T) {
	bars, sampled := npvBarsAgainstAWS(t, map[string]inputRange{domain.TaxRate: {0, 0.3, "%"}})
	saving := 5.97*8*730*0.5 - (700*8*1.3/1000*730*0.12 + 1000)
	before := 36*saving - 285000
	if b, ok := bars[domain.TaxRate]; !ok {
		t.Error("the tornado has no bar for tax_rate against AWS")
	} else if math.Abs(b.AtLow-before) > 1e-6 || math.Abs(b.AtHigh-0.7*before) > 1e-6 {
		t.Errorf("tax_rate swings AWS's NPV %v..%v, want %v..%v", b.AtLow, b.AtHigh, before, 0.7*before)
	}
	checkSampled(t, sampled, domain.TaxRate)
}
