package units

import "testing"

// Numbers as people write them, and what is not one.
func TestParse(t *testing.T) {
	for raw, want := range map[string]float64{
		"285000": 285000, "285,000": 285000, "$285,000": 285000, " $ 285,000 ": 285000, "-$1,000.50": -1000.5,
		"1,234,567.89": 1234567.89, "35%": 0.35, "35 %": 0.35, "0.35": 0.35, "$2.69": 2.69, "1e6": 1e6, "-7": -7,
	} {
		if got, ok := Parse(raw); !ok || got != want {
			t.Errorf("%q: %v, %v; want %v", raw, got, ok, want)
		}
	}
	for _, raw := range []string{"", "$", "%", "1,00", "12,3456", "1,000,00", "--5", "-$-5", "abc", "NaN", "Inf", "264/730", "1.000,50"} {
		if v, ok := Parse(raw); ok {
			t.Errorf("%q reads as %v", raw, v)
		}
	}
}
