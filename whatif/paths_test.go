package whatif

import (
	"math"
	"testing"

	"planner/domain"
)

// A yearly change of the rent with a range swings the NPV like any input:
// from -50 % to 0, without a cost of capital, owning against AWS's $5.97
// is worth 12 months × its rent of the used hours × (1 + 0.5 + 0.25) at
// the low end, 36 months' at the high, less the running cost and the
// price. Electricity's change swings it the other way.
func TestTornadoVariesThePaths(t *testing.T) {
	bars, sampled := npvBarsAgainstAWS(t, map[string]inputRange{
		domain.RentChange:        {-0.5, 0, "%/year"},
		domain.ElectricityChange: {0, 0.2, "%/year"},
	})
	rent, power := 5.97*8*730*0.5, 700*8*1.3/1000*730*0.12
	flat := 36*(rent-power-1000) - 285000
	want := map[string][2]float64{
		domain.RentChange:        {flat - rent*12*(0.5+0.75), flat},
		domain.ElectricityChange: {flat, flat - power*12*(0.2+0.44)},
	}
	for name, w := range want {
		b, ok := bars[name]
		if !ok {
			t.Errorf("the tornado against AWS has no bar for %s", name)
			continue
		}
		if math.Abs(b.AtLow-w[0]) > 1e-6 || math.Abs(b.AtHigh-w[1]) > 1e-6 {
			t.Errorf("%s swings AWS's NPV %v..%v, want %v..%v", name, b.AtLow, b.AtHigh, w[0], w[1])
		}
	}
	checkSampled(t, sampled, domain.RentChange, domain.ElectricityChange)
}
