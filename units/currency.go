package units

import (
	"strings"

	"golang.org/x/text/currency"
)

// Dollars is the ISO 4217 code of the currency planner's money is in:
// every "$" of a unit is a US dollar.
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
