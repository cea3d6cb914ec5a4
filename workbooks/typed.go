package workbooks

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"planner/domain"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// What to type in a number cell that holds something else, in the cell's
// own terms: an Assumptions value in its row's unit and range, a number
// with a decimal comma with its point.

// decimalComma is a number written with a comma for its decimal mark:
// 0,12 or 2,5 %, never 285,000 (which reads as thousands).
var decimalComma = regexp.MustCompile(`^-?\$?\s*[0-9]+,[0-9]+\s*%?$`)

// withPoint is raw with its decimal comma a point, when that makes it a
// number planner reads.
func withPoint(raw string) (string, bool) {
	if !decimalComma.MatchString(raw) {
		return "", false
	}
	fixed := strings.Replace(raw, ",", ".", 1)
	_, ok := parseNumber(fixed)
	return fixed, ok
}

// notANumber says that raw, in column key of row, is not a number, and
// what to type instead.
func (t *table) notANumber(row int, key, name, raw, from string) string {
	if fixed, ok := withPoint(raw); ok {
		return fmt.Sprintf("%q%s is not a number: planner reads a point as the decimal mark, not a comma; type %s", raw, from, fixed)
	}
	return fmt.Sprintf("%q%s is not a number; %s", raw, from, t.typeNumber(row, key, name))
}

// typeNumber advises what to type in column key of row: for an
// Assumptions value, a number of its row's unit, such as an example within
// its row's range; elsewhere a number as the column holds them.
func (t *table) typeNumber(row int, key, name string) string {
	if key != "value" || t.sheet != t.r.in.Of(schema.Assumptions.Name) {
		return "type a number such as " + numberExample(key)
	}
	unit, _ := t.get(row, "unit")
	lowRaw, _ := t.get(row, "low")
	highRaw, _ := t.get(row, "high")
	low, lowOK := parseNumber(lowRaw)
	high, highOK := parseNumber(highRaw)
	ranged := lowOK && highOK && low <= high
	band, banded := domain.BandOf(name, unit)
	var example float64
	switch {
	case ranged && banded && band.Example >= low && band.Example <= high:
		example = band.Example
	case ranged:
		example = roughly((low+high)/2, low, high)
	case banded:
		example = band.Example
	default:
		return "type a number such as " + numberExample(key)
	}
	advice := "type " + aNumberOf(unit, example)
	if ranged {
		advice += ", within the row's range, " + plainIn(low, unit) + " to " + plainIn(high, unit)
	}
	return advice
}

// aNumberOf is "a number in $/kWh such as 0.12", "a share such as 0.4 or
// 40 %", "a whole number of GPUs such as 8", "a number of dollars such as
// 285000": what a cell of unit holds, with example.
func aNumberOf(unit string, example float64) string {
	switch c := units.ConstraintOf(unit); {
	case unit == units.Share:
		return "a share such as " + units.Plain(example) + " or " + plainIn(example, unit)
	case unit == units.Money:
		return "a number of dollars such as " + units.Plain(example)
	case c == units.WholeCount:
		return fmt.Sprintf("a whole number of %s such as %s", unit, units.Plain(example))
	case unit == "" || unit == "×":
		return "a number such as " + units.Plain(example)
	}
	return fmt.Sprintf("a number in %s such as %s", unit, units.Plain(example))
}

// plainIn writes v as typed in a cell of unit: 0.08, 285000, 40 %.
func plainIn(v float64, unit string) string {
	if unit == units.Share {
		return units.Plain(math.Round(v*100*1e9)/1e9) + " %"
	}
	return units.Plain(v)
}

// roughly is v to two significant digits, a number a person would type,
// kept within low..high.
func roughly(v, low, high float64) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-1)
	r := math.Round(v/scale) * scale
	r, _ = strconv.ParseFloat(strconv.FormatFloat(r, 'g', 2, 64), 64)
	if r < low || r > high {
		return v
	}
	return r
}

// withAdvice is a unit's complaint about a value (units.Check) with what
// to type instead, unless it says so already: "is -$5; a price or cost
// cannot be negative: type a number of dollars such as 285000".
func withAdvice(msg, advice string) string {
	if generic := "a share is written 0.35 or 35 %"; strings.Contains(msg, generic) {
		return strings.Replace(msg, generic, advice, 1)
	}
	for _, says := range []string{"type ", "such as", "written", "1 or more"} {
		if strings.Contains(msg, says) {
			return msg
		}
	}
	return msg + ": " + advice
}
