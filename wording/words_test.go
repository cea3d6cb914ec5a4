package wording

import (
	"math"
	"testing"
)

// Half a per mille rounds away from zero, as a spreadsheet's FIXED does.
func TestPercentRoundsAsFixed(t *testing.T) {
	if got := percent(0.12345); got != "12.3 %" {
		t.Errorf("12.345 %% is written %s", got)
	}
	if got := percent(0.0125); got != "1.3 %" {
		t.Errorf("1.25 %% is written %s", got)
	}
}

// A figure in words is never NaN or +Inf: a fleet's month owning nodes
// that cost more than the largest float64 reads "no number".
func TestWordsOfNoNumber(t *testing.T) {
	for _, w := range []Word{{Value: math.Inf(1), Format: AsDollars}, {Value: math.NaN(), Format: AsPercent}} {
		if got := w.String(); got != "no number" {
			t.Errorf("%v as %d reads %q", w.Value, w.Format, got)
		}
	}
	if got := (Word{Value: 1e307, Format: AsPercent}).String(); got != "1e+309 %" {
		t.Errorf("1e307 as a percentage reads %q", got)
	}
}
