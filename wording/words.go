package wording

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"planner/domain"
	"planner/units"
)

// A verdict in words is a sentence of fixed text and numbers. Planner keeps
// it as its words, each number named by what it is, so that a spreadsheet
// can build the same sentence from live cells (workbooks turns a Phrase
// into an Excel formula) and agree with planner until an input changes.

// Verdicts.
const (
	Buy  = "buy"
	Rent = "rent"
)

// Phrase is a sentence made of words.
type Phrase []Word

// Word is fixed text, or a number shown in a format and named by the
// quantity it is, so that a reader of the phrase can find it elsewhere.
type Word struct {
	Text     string     // the fixed text, when Quantity is ""
	Quantity string     // what the number is: a Quantity constant (deploy has its own)
	Value    float64    // the number
	Format   WordFormat // how the number is written
	// Currency is the currency of an AsDollars number (the zero value is
	// US dollars).
	Currency units.Currency
}

// WordFormat is how a Word writes its number.
type WordFormat uint8

// Word formats.
const (
	AsText           WordFormat = iota // fixed text
	AsDollars                          // $9,554: a whole amount of Currency, thousands apart
	AsPercent                          // 50.0 %: a share with one decimal
	AsBreakeven                        // a break-even share: as AsPercent, or above 100 %: owning never pays
	AsBreakevenShare                   // a break-even share: as AsPercent, or above 100 %
	AsCount                            // 8: a whole number
	AsNodes                            // node or nodes, by the number
	AsVerdict                          // buy when Value is 1, rent when 0
)

// Quantities a phrase names.
const (
	QuantityVerdict     = "verdict"
	QuantityUtilization = domain.Utilization
	QuantityBreakeven   = domain.Breakeven
)

// NeverPays is how a break-even above 100 % reads: no utilisation makes
// owning cheaper. Beside a deployment busy more hours than the month the
// break-even counts, it reads AboveAll: owning that deployment may still
// pay.
const (
	NeverPays = AboveAll + ": owning never pays"
	AboveAll  = "above 100 %"
)

// String is the phrase as a person reads it.
func (p Phrase) String() string {
	var b strings.Builder
	for _, w := range p {
		b.WriteString(w.String())
	}
	return b.String()
}

// String is the word as a person reads it.
func (w Word) String() string {
	switch w.Format {
	case AsDollars:
		return money(w.Currency, w.Value)
	case AsPercent:
		return percent(w.Value)
	case AsBreakeven:
		return BreakevenText(w.Value)
	case AsBreakevenShare:
		if w.Value > 1 {
			return AboveAll
		}
		return percent(w.Value)
	case AsCount:
		return strconv.FormatFloat(w.Value, 'f', -1, 64)
	case AsNodes:
		return plural(int(w.Value), "node", "nodes")
	case AsVerdict:
		if w.Value == 1 {
			return Buy
		}
		return Rent
	}
	return w.Text
}

func text(s string) Word { return Word{Text: s} }

func number(quantity string, v float64, f WordFormat) Word {
	return Word{Quantity: quantity, Value: v, Format: f}
}

// VerdictWord is a verdict as a word: 1 for buy, 0 for rent, so that a
// spreadsheet can write it from a comparison.
func VerdictWord(verdict string) Word {
	v := 0.0
	if verdict == Buy {
		v = 1
	}
	return Word{Quantity: QuantityVerdict, Value: v, Format: AsVerdict}
}

// OfferPhrase is the verdict for one offer in words: "rent: busy 50.0 % of
// the month, break-even against RunPod H100 SXM, Community is 60.8 %".
func OfferPhrase(verdict string, utilization, breakeven float64, o domain.Offer) Phrase {
	return Phrase{VerdictWord(verdict), text(": busy "), number(QuantityUtilization, utilization, AsPercent),
		text(" of the month, break-even against " + o.Label() + " is "), number(QuantityBreakeven, breakeven, AsBreakeven)}
}

// TermPhrase is the verdict against an offer billing every hour of a term:
// owning pays for every hour too, so the utilisation drops out of the
// comparison and only the prices per calendar hour decide.
func TermPhrase(verdict string, o domain.Offer) Phrase {
	return Phrase{VerdictWord(verdict), text(": " + o.Label() + " bills every hour of its term, as owning does," +
		" so utilisation does not move this verdict")}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Money is amount v of currency c as a word of a phrase: "$9,554".
func Money(c units.Currency, quantity string, v float64) Word {
	return Word{Quantity: quantity, Value: v, Format: AsDollars, Currency: c}
}

// money writes a whole amount as a spreadsheet's sign&FIXED(v,0) does:
// the sign, then the digits with their own minus ("$-1,700").
func money(c units.Currency, v float64) string {
	if !finite(v) || math.Abs(v) >= 1e15 {
		return c.Format(v, units.Money) // no number, or one written with an exponent
	}
	s := fmt.Sprintf("%.0f", math.Round(v))
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return c.Prefix() + s
}

// percent writes a share with one decimal, rounding half away from zero as
// a spreadsheet's FIXED does: 0.608188 is 60.8 %.
func percent(x float64) string {
	if !finite(x * 1000) {
		return units.Format(x, units.Share) // no number, or a share too large to round
	}
	return strconv.FormatFloat(math.Round(x*100*10)/10, 'f', 1, 64) + " %"
}

// BreakevenText is a break-even utilisation as planner writes it: "60.8 %",
// or, above 100 %, where no utilisation reaches it, "above 100 %: owning
// never pays".
func BreakevenText(x float64) string {
	if x > 1 {
		return NeverPays
	}
	return percent(x)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
