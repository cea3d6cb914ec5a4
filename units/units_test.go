package units

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{1.355593607, "$/GPU-h", "$1.36"},
		{285000, "$", "$285,000"},
		{-1699.594, "$/month", "-$1,699.59"},
		{0.0123, "$/kWh", "$0.0123"},
		{0.608188, "%", "60.8 %"},
		{26280, "h", "26,280"},
		{7.28, "kW", "7.28"},
		{1234567.891, "", "1,234,567.89"},
		{math.Inf(1), "$", "no number"},
		{math.Inf(-1), "%", "no number"},
		{math.NaN(), "", "no number"},
		{1.5e308, "%", "1.5e+310 %"},
		{-1e307, "%", "-1e+309 %"},
		{2e13, "%", "2e+15 %"},
		{1.7e308, "$", "$1.7e+308"},
		{-2.6593438400365424e306, "$/month", "-$2.6593438400365424e+306"},
		{999999999999999, "$", "$999,999,999,999,999"},
		{1e15, "GPUs", "1e+15"},
		{-0.0000031, "$", "$0"},
		{-0.004, "$/month", "-$0.0040"},
		{-0.00004, "$/GPU-h", "$0.0000"},
	}
	for _, tt := range tests {
		if got := Format(tt.v, tt.unit); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestExcelFormat(t *testing.T) {
	for unit, want := range map[string]string{
		"%": "0.0%", "$": "$#,##0", "$/GPU-h": "$#,##0.00", "$/month": "$#,##0.00", "text": "@",
		"GPUs": "#,##0", "h/month": "#,##0", "kW": "#,##0.00", "×": "#,##0.00", "": "#,##0.00",
	} {
		if got := ExcelFormat(unit); got != want {
			t.Errorf("ExcelFormat(%q) = %q, want %q", unit, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{0.35, "%", ""},
		{1.5, "%", "is 150.0 %, outside 0 %..100 %; a share is written 0.35 or 35 %"},
		{-0.1, "%", "is -10.0 %, outside 0 %..100 %; a share is written 0.35 or 35 %"},
		{8, "GPUs", ""},
		{65, "%", "is 6,500.0 %, outside 0 %..100 %: did you mean 65 % (0.65)? type 0.65 or 65 %"},
		{150, "%", "is 15,000.0 %, outside 0 %..100 %; a share is written 0.35 or 35 %"},
		{8.5, "GPUs", "is 8.5; a count of GPUs must be a whole number, such as 8 or 9"},
		{0.5, "GPUs", "is 0.5; a count of GPUs must be a whole number, such as 1"},
		{1e12, "replicas", ""},
		{0, "months", "is 0; a count of months must be above zero, 1 or more"},
		{-2.5, "months", "is -2.5; a count of months must be a whole number above zero"},
		{0, "h/month", "is 0; it must be above zero"},
		{-5, "$", "is -$5; a price or cost cannot be negative"},
		{-5, "", ""},
		{math.NaN(), "", "is not a finite number"},
	}
	for _, tt := range tests {
		if got := Check(tt.v, tt.unit); got != tt.want {
			t.Errorf("Check(%v, %q) = %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestConstraintOf(t *testing.T) {
	for unit, want := range map[string]Constraint{"%": Fraction, "GPUs": WholeCount, "W": AboveZero, "$/month": NotNegative, "text": Anything, "×": AboveZero} {
		if got := ConstraintOf(unit); got != want {
			t.Errorf("ConstraintOf(%q) = %v, want %v", unit, got, want)
		}
	}
}

// Quotients a rounding error away from a whole number round as a
// spreadsheet rounds them: to 15 significant digits first.
func TestRoundingAsSpreadsheets(t *testing.T) {
	// Variables, so that Go divides in float64 rather than exactly.
	peak, per, a, b, tenth := 3008.4, 1002.8, 0.3, 0.7, 0.1
	if q := peak / per; q == 3 || math.Ceil(q) != 4 {
		t.Fatalf("3008.4 / 1002.8 = %v: the binary quotient is no longer above 3", q)
	}
	for _, c := range []struct{ x, ceil, floor float64 }{
		{peak / per, 3, 3},     // 3.0000000000000004
		{a / tenth, 3, 3},      // 2.9999999999999996
		{b / tenth, 7, 7},      // 6.999999999999999
		{3.000000000001, 4, 3}, // 13 digits: a real excess
		{10000.0 / 3438, 3, 2},
		{8, 8, 8},
		{0, 0, 0},
		{-2.5, -2, -3},
	} {
		if got := CeilAsSpreadsheets(c.x); got != c.ceil {
			t.Errorf("CeilAsSpreadsheets(%v) = %v, want %v", c.x, got, c.ceil)
		}
		if got := FloorAsSpreadsheets(c.x); got != c.floor {
			t.Errorf("FloorAsSpreadsheets(%v) = %v, want %v", c.x, got, c.floor)
		}
	}
	if got := AsSpreadsheets(3 * per); got != 3008.4 {
		t.Errorf("AsSpreadsheets(3 × 1002.8) = %v, want 3008.4", got)
	}
	if got := AsSpreadsheets(math.Inf(1)); !math.IsInf(got, 1) {
		t.Errorf("AsSpreadsheets(+Inf) = %v", got)
	}
}

// Plain writes numbers as people type them, and never NaN or +Inf, which
// nobody could.
func TestPlain(t *testing.T) {
	for v, want := range map[float64]string{1e6: "1000000", 0.35: "0.35", 1e308: "1e+308", 0.00001: "1e-05",
		math.Inf(1): "no number", math.Inf(-1): "no number", math.NaN(): "no number"} {
		if got := Plain(v); got != want {
			t.Errorf("Plain(%v) = %q, want %q", v, got, want)
		}
	}
}

// Every currency writes an amount one way: its sign before the digits,
// a comma between thousands, a point before the decimals; its Excel
// format quotes the sign, so that a spreadsheet shows the same text.
func TestCurrency(t *testing.T) {
	eur, ok := CurrencyOf("eur")
	if !ok || eur.Code() != "EUR" || eur.Symbol() != "€" {
		t.Fatalf("CurrencyOf(eur) = %+v, %v", eur, ok)
	}
	chf, _ := CurrencyOf("CHF")
	usd, _ := CurrencyOf("USD")
	if usd != USD || !usd.IsUSD() {
		t.Errorf("CurrencyOf(USD) = %+v, want USD", usd)
	}
	if _, ok := CurrencyOf("EUX"); ok {
		t.Error("EUX is taken for a currency")
	}
	for _, c := range []struct {
		cur        Currency
		v          float64
		unit, want string
	}{
		{eur, 1234.567, "$/month", "€1,234.57"},
		{eur, -1699.594, "$/month", "-€1,699.59"},
		{eur, 285000, "$", "€285,000"},
		{eur, 0.0123, "$/kWh", "€0.0123"},
		{eur, -0.0000031, "$", "€0"},
		{eur, 1.7e308, "$", "€1.7e+308"},
		{eur, 0.5, "%", "50.0 %"},
		{chf, 2.5, "$/GPU-h", "CHF 2.50"},
		{USD, 1234.567, "$/month", "$1,234.57"},
	} {
		if got := c.cur.Format(c.v, c.unit); got != c.want {
			t.Errorf("%s.Format(%v, %q) = %q, want %q", c.cur.Code(), c.v, c.unit, got, c.want)
		}
	}
	for _, c := range []struct {
		cur              Currency
		unit, want, back string
	}{
		{eur, "$/kWh", "€/kWh", "$/kWh"}, {eur, "$", "€", "$"}, {eur, "kW", "kW", "kW"}, {chf, "$/month", "CHF/month", "$/month"}, {USD, "$/kWh", "$/kWh", "$/kWh"},
	} {
		if got := c.cur.Unit(c.unit); got != c.want {
			t.Errorf("%s.Unit(%q) = %q, want %q", c.cur.Code(), c.unit, got, c.want)
		}
		if got := c.cur.Planners(c.want); got != c.back {
			t.Errorf("%s.Planners(%q) = %q, want %q", c.cur.Code(), c.want, got, c.back)
		}
	}
	for unit, want := range map[string]string{"$": `"€"#,##0`, "$/GPU-h": `"€"#,##0.00`, "%": "0.0%", "kW": "#,##0.00"} {
		if got := eur.ExcelFormat(unit); got != want {
			t.Errorf("EUR.ExcelFormat(%q) = %q, want %q", unit, got, want)
		}
	}
	if got := chf.ExcelFormat("$"); got != `"CHF "#,##0` {
		t.Errorf("CHF.ExcelFormat($) = %q", got)
	}
	if got := eur.Words("Cumulative cash ($) by month, $/GPU-hour"); got != "Cumulative cash (€) by month, €/GPU-hour" {
		t.Errorf("EUR.Words = %q", got)
	}
	if got := eur.Check(-5, "$/month"); got != "is -€5.00; a price or cost cannot be negative" {
		t.Errorf("EUR.Check = %q", got)
	}
}
