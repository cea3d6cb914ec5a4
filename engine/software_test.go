package engine_test

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine/enginetest"
)

// Software licences of $1,200 per GPU a year are $100 a GPU-month, over
// 730 hours $0.136986 a GPU-hour on top of the article's $1.636026 (capital
// $285,000 ÷ 8 ÷ 26,280 h, power 7.28 kW × $0.12 ÷ 8, rack $1,000 ÷ 8 ÷
// 730); at 50 % a used hour costs twice that, the break-even against
// Lambda's $3.99 is the cost over the price, and the NPV loses 8 GPUs ×
// $100 × 36 months.
func TestSoftwarePerGPUYear(t *testing.T) {
	flat := enginetest.Eval(t, nil)
	r := enginetest.Eval(t, map[string]domain.Value{domain.SoftwarePerGPUYear: domain.Num(1200)})
	article := 285000.0/8/(36*730) + 700*1.3/1000*0.12 + 1000.0/8/730
	software := 1200.0 / 12 / 730
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"software_per_gpu_hour", r.Values["software_per_gpu_hour"], software},
		{domain.CostPerGPUHour, r.Values[domain.CostPerGPUHour], article + software},
		{domain.CostPerUsedHour, r.Values[domain.CostPerUsedHour], (article + software) / 0.5},
		{domain.RunningCost, r.Values[domain.RunningCost], flat.Values[domain.RunningCost] + 8*100},
	} {
		if math.Abs(c.got-c.want) > 1e-12*c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	lambda := enginetest.Offer(t, r, "Lambda", "H100, 8-GPU plan")
	if be, want := lambda.Values[domain.Breakeven], (article+software)/3.99; math.Abs(be-want) > 1e-12 {
		t.Errorf("break-even against Lambda %v, want %v", be, want)
	}
	before := enginetest.Offer(t, flat, "Lambda", "H100, 8-GPU plan").Values[domain.NPVSaving]
	if npv, want := lambda.Values[domain.NPVSaving], before-8*100*36; math.Abs(npv-want) > 1e-6 {
		t.Errorf("NPV against Lambda %v, want %v", npv, want)
	}
}
