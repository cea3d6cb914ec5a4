package view

import (
	"math"
	"strings"

	"planner/engine"
	"planner/units"
)

// Where says which renderings show a figure.
type Where uint8

const (
	// Terminal shows the figure as a column of eval's table of its kind:
	// the offers, the deployments or the Monte Carlo outputs.
	Terminal Where = 1 << iota
	// Sheet shows it as a row of the Results sheet's offers section, a
	// column of Deployment costs, or a column of the MonteCarlo sheet's
	// statistics tables.
	Sheet
	// JSON holds it in each offer's or deployment's figures, or each Monte
	// Carlo output's object, under its Key; the documented fields are kept
	// stable for scripts, so the figures they hold are declared without it.
	JSON
	// Tokens shows a deployment's figure as a column of eval's tokens
	// table.
	Tokens
	// Operating shows a deployment's figure as a column of eval's table
	// of the operating points read from the Benchmarks sheet.
	Operating
)

// Figure is one figure of an offer, a deployment or a Monte Carlo output,
// as every rendering names it.
type Figure struct {
	Name   string // the name formulas use: the sheet's Name column
	Label  string // what the sheet calls the row or column
	Head   string // the terminal's column heading
	Key    string // the field of the JSON figures
	Unit   string
	Format string // the sheet's number format, where the unit's is not the one
	Note   string // the sheet's description
	In     Where
	// Currency is the currency the figure's money is in: Unit, Label and
	// Head spell it "$" (units.Money), as planner's units do, and each
	// rendering writes it in this currency (Shown, Heading, ExcelFormat).
	Currency units.Currency
	// Formula says the figure is a per-offer formula of the plan; Optional
	// that the sheet leaves its row out when no offer has it; Whole that
	// it is a count, shown as a whole number.
	Formula, Optional, Whole bool
}

// Text is cell c of the figure as a line of text shows it.
func (f Figure) Text(c Cell) string {
	if f.Whole && c.Number && c.Words == "" {
		c.Value = math.Round(c.Value)
	}
	return c.Text(f.Currency, f.Unit)
}

// Shown is the figure's unit as a reader reads it: "€/GPU-h" in euros.
func (f Figure) Shown() string { return f.Currency.Unit(f.Unit) }

// Heading is the terminal's column heading in the figure's currency.
func (f Figure) Heading() string { return f.Currency.Words(f.Head) }

// Title is what the sheet calls the row or column, in the figure's
// currency.
func (f Figure) Title() string { return f.Currency.Words(f.Label) }

// ExcelFormat is the sheet's number format of the figure: its own, else
// its unit's, in its currency.
func (f Figure) ExcelFormat() string {
	if f.Format != "" {
		return f.Currency.Excel(f.Format)
	}
	return f.Currency.ExcelFormat(f.Unit)
}

// ExcelFormatOf is the sheet's number format of the figure's value v: its
// own, else its unit's for v (units.ExcelFormatOf), in its currency.
func (f Figure) ExcelFormatOf(v float64) string {
	if f.Format != "" {
		return f.Currency.Excel(f.Format)
	}
	return f.Currency.ExcelFormatOf(f.Unit, v)
}

// in is the figures in currency cur.
func in(cur units.Currency, figs []Figure) []Figure {
	for i := range figs {
		figs[i].Currency = cur
	}
	return figs
}

// Cell is one offer's or deployment's value of a figure: a number in the
// figure's unit, words, both, or the error that stands for the number.
type Cell struct {
	Value  float64
	Number bool              // Value holds the figure
	Words  string            // the figure in words ("14 months", a verdict)
	Err    *engine.EvalError // why a formula has no value
	NA     bool              // a formula with neither a value nor an error
	// Why says, where a line of text has room for it, why the cell is
	// empty ("nothing to compare"); the sheet and the JSON leave it out.
	Why string
}

// Empty says the cell holds nothing to show.
func (c Cell) Empty() bool { return !c.Number && c.Words == "" && c.Err == nil }

// NotAvailable stands for a formula that gave neither a value nor an error.
const NotAvailable = "#N/A"

// Text is the cell as a line of text shows it: its words, else its number
// in unit and currency cur, else the error's code or #N/A, else why it is
// empty.
func (c Cell) Text(cur units.Currency, unit string) string {
	switch {
	case c.Words != "":
		return c.Words
	case c.Number:
		return cur.Format(c.Value, unit)
	case c.Err != nil:
		code, _, _ := strings.Cut(c.Err.Short(), ":")
		return code
	case c.NA:
		return NotAvailable
	}
	return c.Why
}
