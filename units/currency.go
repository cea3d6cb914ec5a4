package units

import (
	"slices"
	"strings"

	"golang.org/x/text/currency"
)

// Dollars is the ISO 4217 code of the currency a workbook's money is in
// unless its input currency says another: US dollars.
const Dollars = "USD"

// CurrencyCode is code as ISO 4217 writes it, "EUR" for "eur", and
// whether it is one of its codes.
func CurrencyCode(code string) (string, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != 3 {
		return "", false
	}
	u, err := currency.ParseISO(code)
	if err != nil || u.String() != code {
		return "", false
	}
	return code, true
}

// Currency is the currency a workbook's money is in, and how planner
// writes an amount of it. One convention for every currency, the one
// planner's English words use for dollars: the sign before the amount, a
// comma between thousands and a point before the decimals, the minus
// before the sign ($1,234.56, €1,234.56, -£12, CHF 1,234.56), so that the
// terminal, the JSON's words, a cell's number format and a live TEXT
// formula all read alike. A currency with a sign of its own (symbols) is
// written with it; any other by its code and a space. The number of
// decimals is the quantity's, not the currency's: a price per GPU-hour has
// cents in yen too.
//
// The zero Currency is US dollars, so that a model made without one, as
// every model before the input currency was, reads as before.
type Currency struct{ code string }

// USD is US dollars, the default currency.
var USD = Currency{}

// symbols are the currencies written with a sign of their own. One sign
// stands for one currency only: ¥ is the yen, the yuan is CNY.
var symbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩"}

// SignedCurrencies are the ISO 4217 codes of the currencies written with a
// sign of their own, sorted: those a shell completes first.
func SignedCurrencies() []string {
	codes := make([]string, 0, len(symbols))
	for code := range symbols {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return codes
}

// CurrencyOf is the currency of an ISO 4217 code, in any case, and
// whether code is one.
func CurrencyOf(code string) (Currency, bool) {
	c, ok := CurrencyCode(code)
	if !ok {
		return USD, false
	}
	if c == Dollars {
		return USD, true
	}
	return Currency{code: c}, true
}

// Code is the currency's ISO 4217 code: "USD", "EUR".
func (c Currency) Code() string {
	if c.code == "" {
		return Dollars
	}
	return c.code
}

// IsUSD reports whether the currency is US dollars.
func (c Currency) IsUSD() bool { return c.Code() == Dollars }

// Symbol is the currency's sign as a unit writes it: "$" in "$/kWh", "€"
// in "€/kWh", "CHF" in "CHF/kWh".
func (c Currency) Symbol() string {
	if s, ok := symbols[c.Code()]; ok {
		return s
	}
	return c.Code()
}

// Prefix is what stands before an amount: the sign, or the code and a
// space (CHF 12).
func (c Currency) Prefix() string { return c.prefix() }

func (c Currency) prefix() string {
	if s, ok := symbols[c.Code()]; ok {
		return s
	}
	return c.Code() + " "
}

// Unit is how a unit reads in this currency: "$/kWh" is "€/kWh" with euros.
// Planner's own units spell money "$", whatever the currency (Money): it
// means the workbook's currency. A unit that is not money is as it is.
func (c Currency) Unit(unit string) string {
	if !IsMoney(unit) {
		return unit
	}
	return c.Symbol() + strings.TrimPrefix(unit, Money)
}

// Planners is a unit as a workbook in this currency may write it, "€/kWh",
// as planner's units spell it: "$/kWh". Unit undoes it.
func (c Currency) Planners(unit string) string {
	if c.IsUSD() {
		return unit
	}
	if rest, ok := strings.CutPrefix(unit, c.Symbol()); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
		return Money + rest
	}
	return unit
}

// Words is fixed text that names the money sign, such as a heading
// ("$/GPU-hour", "Cumulative cash ($)"), in this currency: every "$" is the
// currency's sign.
func (c Currency) Words(s string) string {
	if c.IsUSD() {
		return s
	}
	return strings.ReplaceAll(s, Money, c.Symbol())
}

// Excel is a number format written for dollars ("$#,##0.00", "$#,##0.00##")
// in this currency: the sign quoted as Excel and LibreOffice read a
// literal, "\"€\"#,##0.00", so that no locale reads it as anything else.
func (c Currency) Excel(format string) string {
	rest, ok := strings.CutPrefix(format, Money)
	if !ok || c.IsUSD() {
		return format
	}
	return `"` + c.prefix() + `"` + rest
}

// ExcelFormat is the number format a cell of this unit gets in this
// currency.
func (c Currency) ExcelFormat(unit string) string { return c.Excel(ExcelFormat(unit)) }

// ExcelFormatOf is ExcelFormatOf in this currency.
func (c Currency) ExcelFormatOf(unit string, v float64) string {
	return c.Excel(ExcelFormatOf(unit, v))
}

// Amount writes v in this currency with decimals: "€1,234.56",
// "-€1,234"; an amount that rounds to nothing has no sign ("€0").
func (c Currency) Amount(v float64, decimals int) string {
	digits := group(abs(v), decimals)
	if strings.Trim(digits, "0.,") == "" {
		return c.prefix() + digits
	}
	return sign(v) + c.prefix() + digits
}

// Format is Format in this currency: "€1.36", "€285,000".
func (c Currency) Format(v float64, unit string) string {
	if !IsMoney(unit) || c.IsUSD() || !finite(v) {
		return Format(v, unit)
	}
	if abs(v) >= huge {
		return sign(v) + c.prefix() + strconvG(abs(v))
	}
	return c.Amount(v, moneyDecimals(v, unit))
}
