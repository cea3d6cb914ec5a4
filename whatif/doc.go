// Package whatif asks "what if" of a plan: the tornado (each input with a
// range moved to its ends, one at a time), data tables over one or two
// inputs or across offers, the break-even curve of every scenario against
// each offer, and goal seek (Brent's method inside a bracket). It also
// checks the what-ifs a workbook lists as the engine builds the plan
// (Check).
//
// It stands above the engine and reads only the engine's exported plan,
// evaluator, model and results; from montecarlo it takes only which inputs
// are held at their value (montecarlo.HeldInputs), which the tornado holds
// as Monte Carlo does. It must not import deploy, facts, workbooks,
// excelize, cobra or os.
package whatif
