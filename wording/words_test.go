package wording

import (
	"math"
	"slices"
	"testing"

	"planner/domain"
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

// An offer's verdict reads as its doc says, and names its numbers so that
// a spreadsheet can find them.
func TestOfferPhrase(t *testing.T) {
	o := domain.Offer{Provider: "RunPod", Name: "H100 SXM, Community"}
	p := OfferPhrase(Rent, 0.5, 0.608188, o)
	if got, want := p.String(), "rent: busy 50.0 % of the month, break-even against RunPod H100 SXM, Community is 60.8 %"; got != want {
		t.Errorf("phrase %q, want %q", got, want)
	}
	var named []string
	for _, w := range p {
		if w.Quantity != "" {
			named = append(named, w.Quantity)
		}
	}
	if want := []string{QuantityVerdict, "utilization", "breakeven_utilization"}; !slices.Equal(named, want) {
		t.Errorf("the phrase names %v, want %v", named, want)
	}
	if got := OfferPhrase(Buy, 0.9, 1.2, o).String(); got != "buy: busy 90.0 % of the month, break-even against RunPod H100 SXM, Community is above 100 %: owning never pays" {
		t.Errorf("a break-even above 100 %% reads %q", got)
	}
}

func TestWordFormats(t *testing.T) {
	for w, want := range map[Word]string{
		{Value: 9554.4, Format: AsDollars}:      "$9,554",
		{Value: 1234567, Format: AsDollars}:     "$1,234,567",
		{Value: 1.5, Format: AsBreakevenShare}:  "above 100 %",
		{Value: 0.25, Format: AsBreakevenShare}: "25.0 %",
		{Value: 8, Format: AsCount}:             "8",
		{Value: 1, Format: AsNodes}:             "node",
		{Value: 3, Format: AsNodes}:             "nodes",
		{Value: 0, Format: AsVerdict}:           "rent",
		{Text: "fixed", Format: AsText}:         "fixed",
		VerdictWord(Buy):                        "buy",
	} {
		if got := w.String(); got != want {
			t.Errorf("%+v reads %q, want %q", w, got, want)
		}
	}
}
