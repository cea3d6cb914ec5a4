// Package units knows what the unit of an input or a formula means for the
// people who read it: the Excel number format a cell gets, how a terminal
// prints the value, which values make sense at all (a share lies in 0..1,
// a count is above zero), and which are plausible for a quantity (a Band:
// an electricity price under $2/kWh, and 120 likely 120 $/MWh), and the
// workbook's currency (Currency): how an amount, a unit written with "$"
// and a money cell's number format read in it. Outside units, nothing
// spells the dollar sign of an amount.
//
// It must not import engine, workbooks, excelize or cobra.
package units
