package units

import (
	"strings"

	"golang.org/x/text/currency"
)

// Currency is the currency a workbook's money is in, as planner writes its
// amounts: the symbol before the number, commas between thousands and a
// point before the decimals whatever the currency ("€1,637.73", "CHF
// 1,637.73"), so that a figure reads the same in the terminal and in
// Excel on any machine. Money units stay "$", "$/month", ... inside
// planner; a currency substitutes its symbol when a figure is shown.
type Currency struct {
	Code   string // ISO 4217, "USD"
	Symbol string // "$", "€"; the code where a symbol would be ambiguous
}

// USD is the currency of a workbook that names none.
var USD = Currency{Code: "USD", Symbol: "$"}

// symbols are the currencies whose symbol nobody mistakes; any other
// currency is written with its code.
var symbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩"}

// CurrencyOf is the currency of an ISO 4217 code, in any case ("eur"),
// and whether the code is one.
func CurrencyOf(code string) (Currency, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	if len(code) != 3 {
		return Currency{}, false
	}
	u, err := currency.ParseISO(code)
	if err != nil || u.String() != code {
		return Currency{}, false
	}
	if s, ok := symbols[code]; ok {
		return Currency{Code: code, Symbol: s}, true
	}
	return Currency{Code: code, Symbol: code}, true
}

// IsUSD reports whether c is dollars, the currency planner's defaults are in.
func (c Currency) IsUSD() bool { return c.Code == "" || c.Code == USD.Code }

// ISO is c's code: USD for the zero Currency.
func (c Currency) ISO() string {
	if c.Code == "" {
		return USD.Code
	}
	return c.Code
}

// prefix is what comes before an amount: the symbol, and a space after
// a code ("CHF 12").
func (c Currency) prefix() string {
	switch {
	case c.Symbol == "":
		return "$"
	case c.Symbol == c.Code:
		return c.Code + " "
	}
	return c.Symbol
}

// Unit is a money unit as people read it in c: "$/GPU-h" is "€/GPU-h" in
// euros; a unit that is not money is itself.
func (c Currency) Unit(unit string) string {
	if !IsMoney(unit) || c.IsUSD() {
		return unit
	}
	return strings.TrimSpace(c.prefix()) + strings.TrimPrefix(unit, Money)
}

// Text replaces the dollar sign of text that speaks of money ("$ per
// million input tokens") by c's symbol.
func (c Currency) Text(s string) string {
	if c.IsUSD() {
		return s
	}
	return strings.ReplaceAll(s, Money, strings.TrimSpace(c.prefix()))
}

// ExcelFormat is the number format a cell of this unit gets in a workbook
// in c: dollars as ExcelFormat writes them, another currency's symbol
// quoted, which Excel and LibreOffice show as it is on any locale.
func (c Currency) ExcelFormat(unit string) string {
	f := ExcelFormat(unit)
	if !IsMoney(unit) || c.IsUSD() {
		return f
	}
	return `"` + c.prefix() + `"` + strings.TrimPrefix(f, Money)
}
