package engine

import "testing"

// Half a per mille rounds away from zero, as a spreadsheet's FIXED does.
func TestPercentRoundsAsFixed(t *testing.T) {
	if got := percent(0.12345); got != "12.3 %" {
		t.Errorf("12.345 %% is written %s", got)
	}
	if got := percent(0.0125); got != "1.3 %" {
		t.Errorf("1.25 %% is written %s", got)
	}
}
