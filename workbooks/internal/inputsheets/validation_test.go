package inputsheets

import (
	"testing"

	"planner/domain"
	"planner/workbooks/internal/schema"
)

// Init's checks refuse in Excel what planner would refuse at eval: a PUE
// below 1 and a month of more than 744 hours, besides what each unit
// forbids, with the reason in the message.
func TestValidationRefusesTheImpossible(t *testing.T) {
	m := domain.Model{Inputs: []domain.Input{
		{Name: "capex", Value: domain.Num(285000), Unit: "$"},
		{Name: "pue", Value: domain.Num(1.3), Unit: "×"},
		{Name: "hours_per_month", Value: domain.Num(730), Unit: "h/month"},
	}}
	f := written(t, m, schema.Names{})
	dvs, err := f.GetDataValidations(schema.Assumptions.Name)
	if err != nil {
		t.Fatal(err)
	}
	type rule struct{ operator, formula1, formula2, message string }
	want := map[string]rule{
		"B2 D2:E2": {"greaterThanOrEqual", "0", "", "capex cannot be negative."},
		"B3 D3:E3": {"greaterThanOrEqual", "1", "", "pue is at least 1: a facility draws at least the power of the GPUs in it."},
		"B4 D4:E4": {"between", "0", "744", "hours_per_month is above 0 and at most 744: a month has at most 744 hours (31 days × 24)."},
	}
	got := map[string]rule{}
	for _, dv := range dvs {
		if dv.Type == "decimal" {
			got[dv.Sqref] = rule{dv.Operator, dv.Formula1, dv.Formula2, *dv.Error}
		}
	}
	for sqref, w := range want {
		if got[sqref] != w {
			t.Errorf("%s: got %+v, want %+v", sqref, got[sqref], w)
		}
	}
}
