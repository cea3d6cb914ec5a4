package units

import "testing"

// A band says nothing of a value inside it; of one outside, that it is
// implausible (with the slip it looks like, when the slip lands inside
// the band) or, past a side that is a law, impossible.
func TestBandCheck(t *testing.T) {
	pue := Band{Noun: "a facility factor (PUE)", Unit: "×", Low: 1, High: 3, Example: 1.3,
		BelowWhy: "a facility draws at least the power of the GPUs in it",
		Slip:     func(v float64) (float64, string, string) { return v / 100, Plain(v / 100), Plain(v) + " %" }}
	tests := []struct {
		band Band
		v    float64
		want string
	}{
		{Electricity, 0.12, ""},
		{Electricity, 0, ""},
		{Electricity, 2, ""},
		{Electricity, 120, "120 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.120 (120 $/MWh)? if so, type 0.120"},
		{Electricity, 95.5, "95.5 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.0955 (95.5 $/MWh)? if so, type 0.0955"},
		{Electricity, 12, "12 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price: did you mean 0.12 (12 ¢/kWh)? if so, type 0.12"},
		{Electricity, 5000, "5000 $/kWh lies above the plausible 0 to 2 $/kWh for an electricity price; check it: if it is a slip, type 0.12, or another value from 0 to 2 $/kWh"},
		{HoursOfAMonth, 744, ""},
		{HoursOfAMonth, 745, "745 h/month is above 744 h/month, which the hours of a month cannot be: a month has at most 744 hours (31 days × 24); type 730, or another value from 0 to 744 h/month"},
		{pue, 0.8, "0.8 is below 1, which a facility factor (PUE) cannot be: a facility draws at least the power of the GPUs in it; type 1.3, or another value from 1 to 3"},
		{pue, 130, "130 lies above the plausible 1 to 3 for a facility factor (PUE): did you mean 1.3 (130 %)? if so, type 1.3"},
		{pue, 3.5, "3.5 lies above the plausible 1 to 3 for a facility factor (PUE); check it: if it is a slip, type 1.3, or another value from 1 to 3"},
	}
	for _, tt := range tests {
		got := ""
		if f := tt.band.Check(tt.v); f != nil {
			got = f.Advice("type ", "")
			if f.Impossible != (tt.band.BelowWhy != "" && tt.v < tt.band.Low || tt.band.AboveWhy != "" && tt.v > tt.band.High) {
				t.Errorf("%s %v: impossible is %v", tt.band.Noun, tt.v, f.Impossible)
			}
		}
		if got != tt.want {
			t.Errorf("%s %v:\n got %q\nwant %q", tt.band.Noun, tt.v, got, tt.want)
		}
	}
}
