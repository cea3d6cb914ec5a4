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
	return c.Text(f.Unit)
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
// in unit, else the error's code or #N/A, else why it is empty.
func (c Cell) Text(unit string) string {
	switch {
	case c.Words != "":
		return c.Words
	case c.Number:
		return units.Format(c.Value, unit)
	case c.Err != nil:
		code, _, _ := strings.Cut(c.Err.Short(), ":")
		return code
	case c.NA:
		return NotAvailable
	}
	return c.Why
}
