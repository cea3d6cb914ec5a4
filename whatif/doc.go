// Package whatif asks "what if" of a plan: the tornado (each input with a
// range moved to its ends, one at a time), data tables over one or two
// inputs or across offers, the break-even curve of every scenario against
// each offer, and goal seek (Brent's method inside a bracket). It also
// checks the what-ifs a workbook lists as the engine builds the plan
// (Check).
//
// It stands above the engine and reads only the engine's exported plan,
// evaluator, model and results. It must not import montecarlo, deploy,
// workbooks, excelize, cobra or os.
package whatif
