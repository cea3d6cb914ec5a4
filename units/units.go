package units

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Units planner writes and recognises. Any other text is a valid unit too; it
// gets a plain number format.
const (
	Share = "%" // a fraction of 1, shown as a percentage
	// Change is a yearly change of a price or a rate, shown as a
	// percentage: -30 % is a price falling by 30 % a year. Unlike a share
	// it may be negative, though not so far that the price falls below
	// nothing.
	Change = "%/year"
	Money  = "$"    // a sum of money in the workbook's currency (Currency)
	Text   = "text" // a name, not a number
)

// counts are units whose values are whole numbers above zero.
var counts = map[string]bool{"GPUs": true, "GPU": true, "cards": true, "months": true, "replicas": true}

// positive are units whose values must be above zero.
var positive = map[string]bool{"h/month": true, "h": true, "W": true, "kW": true, "×": true}

// IsMoney reports whether unit is money or money per something.
func IsMoney(unit string) bool { return unit == Money || strings.HasPrefix(unit, Money+"/") }

// ExcelFormat is the number format a cell of this unit gets.
func ExcelFormat(unit string) string {
	switch {
	case unit == Share || unit == Change:
		return "0.0%"
	case unit == Money:
		return "$#,##0"
	case IsMoney(unit):
		return "$#,##0.00"
	case unit == Text:
		return "@"
	case counts[unit] || unit == "h" || unit == "h/month" || unit == "W":
		return "#,##0"
	}
	return "#,##0.00"
}

// ExcelFormatOf is the number format of a cell holding v in this unit: a
// count, hours or watts that is not whole keeps the two decimals Format
// gives it (an annuity factor of 31.91 months, not 32), so that a sheet
// and the terminal show the same figure to the same precision.
func ExcelFormatOf(unit string, v float64) string {
	format := ExcelFormat(unit)
	if format == "#,##0" && v != math.Trunc(v) && !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < huge {
		return "#,##0.00"
	}
	return format
}

// NoNumber is what planner prints where a value is not a finite number,
// never "NaN" or "+Inf": the reason is said where the value comes from.
const NoNumber = "no number"

// Format prints v for a person reading a terminal, to the precision the unit
// deserves: $1.36, $285,000, 60.8 %, 26,280, 7.28; NoNumber for a value
// that is not finite. From a quadrillion (1e15) on, past the digits a
// float64 holds, a number is written with an exponent, $1.7e+308, not as
// three hundred digits of which all but the first 17 mean nothing.
func Format(v float64, unit string) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return NoNumber
	case (unit == Share || unit == Change) && math.IsInf(v*100, 0):
		return hugePercent(v)
	case (unit == Share || unit == Change) && math.Abs(v*100) >= huge:
		return strconv.FormatFloat(v*100, 'g', -1, 64) + " %"
	case unit == Share || unit == Change:
		return group(v*100, 1) + " %"
	case math.Abs(v) >= huge && IsMoney(unit):
		return sign(v) + Money + strconvG(math.Abs(v))
	case math.Abs(v) >= huge:
		return strconvG(v)
	case IsMoney(unit):
		return USD.Amount(v, moneyDecimals(v, unit))
	case v == math.Trunc(v):
		return group(v, 0)
	}
	return group(v, 2)
}

// huge is where Format turns to an exponent.
const huge = 1e15

// hugePercent writes a share whose percentage is beyond the largest
// float64: its digits, with the exponent two higher ("1.5e+310 %").
func hugePercent(v float64) string {
	digits, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	return fmt.Sprintf("%se%+d %%", digits, e+2)
}

// moneyDecimals is how many decimals an amount of unit gets: none for a
// sum (Money), four below a tenth of a price, else two.
func moneyDecimals(v float64, unit string) int {
	switch {
	case unit == Money:
		return 0
	case math.Abs(v) < 0.1 && v != 0:
		return 4
	}
	return 2
}

func strconvG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func abs(v float64) float64 { return math.Abs(v) }

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func sign(v float64) string {
	if v < 0 {
		return "-"
	}
	return ""
}

// group formats v with the given decimals and a comma between thousands.
func group(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}

// Check says what is wrong with v for its unit, or "" when nothing is: a
// share outside 0..100 %, a count that is not a whole number above zero, a
// duration or power that is not above zero.
func Check(v float64, unit string) string { return USD.Check(v, unit) }

// Check is Check with money in currency c.
func (c Currency) Check(v float64, unit string) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "is not a finite number"
	case unit == Share && v >= 2 && v <= 100:
		// 65 typed where 65 % was meant: the cell holds 65, not 0.65. (1.5
		// is as likely 150 % as 1.5 %.)
		return fmt.Sprintf("is %s, outside 0 %%..100 %%: did you mean %s %% (%s)? type %s or %s %%", Format(v, unit), Plain(v), Plain(v/100), Plain(v/100), Plain(v))
	case unit == Change && (v >= 2 && v <= 100 || v <= -2 && v >= -100):
		return fmt.Sprintf("is %s a year: did you mean %s %% (%s)? type %s or %s %%", Format(v, unit), Plain(v), Plain(v/100), Plain(v/100), Plain(v))
	case unit == Change && v <= -1:
		return fmt.Sprintf("is %s a year; a price cannot fall by 100 %% or more a year: type a change above -100 %%, such as -30 %%", Format(v, unit))
	case unit == Share && (v < 0 || v > 1):
		return fmt.Sprintf("is %s, outside 0 %%..100 %%; a share is written 0.35 or 35 %%", Format(v, unit))
	case counts[unit] && v > 0 && v != math.Trunc(v):
		return fmt.Sprintf("is %s; a count of %s must be a whole number, such as %s", Plain(v), unit, wholeNear(v))
	case counts[unit] && v <= 0 && v == math.Trunc(v):
		return fmt.Sprintf("is %s; a count of %s must be above zero, 1 or more", Plain(v), unit)
	case counts[unit] && v <= 0:
		return fmt.Sprintf("is %s; a count of %s must be a whole number above zero", Plain(v), unit)
	case positive[unit] && v <= 0:
		return fmt.Sprintf("is %s; it must be above zero", strconv.FormatFloat(v, 'g', -1, 64))
	case IsMoney(unit) && v < 0:
		return fmt.Sprintf("is %s; a price or cost cannot be negative", c.Format(v, unit))
	}
	return ""
}

// wholeNear names the whole numbers either side of v, "8 or 9", or 1
// when v lies below it.
func wholeNear(v float64) string {
	if v < 1 {
		return "1"
	}
	return Plain(math.Floor(v)) + " or " + Plain(math.Ceil(v))
}

// Constraint is what a unit demands of its values.
type Constraint int

const (
	Anything    Constraint = iota
	Fraction               // 0..1
	WholeCount             // a whole number of at least 1
	AboveZero              // any number above 0
	NotNegative            // 0 or more
)

// ConstraintOf tells what values a unit allows, for Excel's data validation.
func ConstraintOf(unit string) Constraint {
	switch {
	case unit == Share:
		return Fraction
	case counts[unit]:
		return WholeCount
	case positive[unit]:
		return AboveZero
	case IsMoney(unit):
		return NotNegative
	}
	return Anything
}

// thousands is a number written with commas between its thousands:
// 285,000 or 1,234,567.89.
var thousands = regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})+(\.[0-9]*)?$`)

// Parse reads a number as people write one: 285000, 285,000, $285,000,
// -$1,000.50, 35%, 35 %, 0.35, 1e6. It reports false for anything else,
// and for numbers that are not finite.
func Parse(raw string) (float64, bool) {
	s := strings.TrimSpace(raw)
	percent := false
	if p, ok := strings.CutSuffix(s, "%"); ok {
		s, percent = strings.TrimSpace(p), true
	}
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if p, ok := strings.CutPrefix(s, "$"); ok {
		s = strings.TrimSpace(p)
	}
	if thousands.MatchString(s) {
		s = strings.ReplaceAll(s, ",", "")
	}
	if s == "" || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") && neg {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if neg {
		v = -v
	}
	if percent {
		v /= 100 // 35/100 is the double nearest 0.35; 35*0.01 is not
	}
	return v, true
}
