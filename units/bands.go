package units

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A value can be of its unit and still make no sense for what it
// measures: a PUE of 0.8 (no facility draws less than its GPUs), an
// electricity price of 120 $/kWh (120 $/MWh, typed in the wrong unit).
// A Band says what a quantity plausibly is; a value outside it is
// implausible, worth a warning at its cell, or, where a side of the band
// is a law rather than a habit, impossible.

// Band is the values a quantity plausibly takes: Low to High.
type Band struct {
	Noun      string  // what the value is, for messages: "a facility factor (PUE)"
	Unit      string  // the unit the band is in
	Low, High float64 // the plausible values, both included
	Example   float64 // a plausible value, to suggest typing
	// BelowWhy and AboveWhy, when set, make a value below Low or above
	// High impossible, saying why; else such a value is implausible.
	BelowWhy, AboveWhy string
	// Slip finds the value likely meant by an implausible one: what to
	// type, and how it was typed instead ("0.120", "120 $/MWh").
	Slip func(v float64) (meant float64, shown, as string)
	// Currency is the currency a message writes the band's money in. The
	// bands are the same numbers in every currency: an electricity price
	// under 2 a kWh holds for dollars, euros and pounds alike, and a
	// workbook in yen is told when its prices lie outside them.
	Currency Currency
}

// In is the band with its messages in currency c.
func (b Band) In(c Currency) Band {
	b.Currency = c
	return b
}

// Finding is what a band says of a value outside it.
type Finding struct {
	Impossible bool
	Msg        string // the value, the band and the likely slip: the message up to its advice
	Type       string // what to type instead: the value likely meant, or the example
	Slip       bool   // Type is the value likely meant
	band       string // the band, "1 to 3"
}

// Check says what is wrong with v for the band, or nil when it lies in it.
func (b Band) Check(v float64) *Finding {
	if math.IsNaN(v) || v >= b.Low && v <= b.High {
		return nil
	}
	switch below := v < b.Low; {
	case below && b.BelowWhy != "":
		return b.impossible(v, "below", b.Low, b.BelowWhy)
	case !below && b.AboveWhy != "":
		return b.impossible(v, "above", b.High, b.AboveWhy)
	}
	side := "above"
	if v < b.Low {
		side = "below"
	}
	f := &Finding{Msg: fmt.Sprintf("%s lies %s the plausible %s for %s", b.show(v), side, b.Range(), b.Noun), Type: Plain(b.Example), band: b.Range()}
	if b.Slip != nil {
		if meant, shown, as := b.Slip(v); shown != "" && meant >= b.Low && meant <= b.High {
			f.Msg += fmt.Sprintf(": did you mean %s (%s)?", shown, b.Currency.Words(as))
			f.Type, f.Slip = shown, true
		}
	}
	return f
}

func (b Band) impossible(v float64, side string, bound float64, why string) *Finding {
	return &Finding{Impossible: true, Type: Plain(b.Example), band: b.Range(),
		Msg: fmt.Sprintf("%s is %s %s, which %s cannot be: %s", b.show(v), side, b.show(bound), b.Noun, why)}
}

// Electricity is what a kWh plausibly costs: under $2 anywhere. A price
// of 120 is 120 $/MWh (0.120 $/kWh), one of 12 is 12 ¢/kWh.
var Electricity = Band{Noun: "an electricity price", Unit: "$/kWh", Low: 0, High: 2, Example: 0.12,
	Slip: func(v float64) (float64, string, string) {
		if v >= 20 {
			return v / 1000, Decimals(v/1000, 3), Plain(v) + " $/MWh"
		}
		return v / 100, Plain(v / 100), Plain(v) + " ¢/kWh"
	}}

// HoursOfAMonth bounds hours a month: no month has more than 744.
var HoursOfAMonth = Band{Noun: "the hours of a month", Unit: "h/month", Low: 0, High: 744, Example: 730,
	AboveWhy: "a month has at most 744 hours (31 days × 24)"}

// byUnit are the bands of inputs planner knows only by their unit.
var byUnit = map[string]Band{"$/kWh": Electricity, "h/month": HoursOfAMonth}

// ForUnit is the band of an input of the unit, when the unit alone says
// what values are plausible.
func ForUnit(unit string) (Band, bool) {
	b, ok := byUnit[unit]
	return b, ok
}

// Range is the band in words: "1 to 3", "0 to 2 $/kWh".
func (b Band) Range() string {
	if b.Unit == Money {
		return b.Currency.Format(b.Low, b.Unit) + " to " + b.Currency.Format(b.High, b.Unit)
	}
	return strings.TrimSpace(Plain(b.Low) + " to " + Plain(b.High) + " " + b.Currency.Words(shownUnit(b.Unit)))
}

// show writes a value of the band's unit for a message: 120 $/kWh, 1.3,
// 65.0 %, $285,000.
func (b Band) show(v float64) string {
	switch b.Unit {
	case Share, Money, Change:
		return b.Currency.Format(v, b.Unit)
	}
	return strings.TrimSpace(Plain(v) + " " + b.Currency.Words(shownUnit(b.Unit)))
}

// shownUnit is the unit as written after a number in a message; a factor
// (×) reads better bare.
func shownUnit(unit string) string {
	if unit == "×" {
		return ""
	}
	return unit
}

// Advice is the whole message, with what to do: how is what comes before
// the value to give instead, "type " at a cell, "use --set pue=" on the
// command line, and where what comes after it (" in Quotes!B2").
func (f *Finding) Advice(how, where string) string {
	give := how + f.Type + where
	switch {
	case f.Impossible:
		return f.Msg + "; " + give + ", or another value from " + f.band
	case f.Slip:
		return f.Msg + " if so, " + give
	}
	return f.Msg + "; check it: if it is a slip, " + give + ", or another value from " + f.band
}

// Decimals writes v with at least n decimals, and more where v has them:
// 0.120, 0.1234.
func Decimals(v float64, n int) string {
	s := Plain(v)
	if _, frac, _ := strings.Cut(s, "."); len(frac) < n {
		return strconv.FormatFloat(v, 'f', n, 64)
	}
	return s
}
