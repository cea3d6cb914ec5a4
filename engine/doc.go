// Package engine owns planner's model: inputs, cloud offers and named
// formulas; the dependency graph between them (topological order, ties broken
// by name); a compiled numeric program that evaluates every formula for a
// scenario without allocating; and what follows from the numbers: break-even
// utilisation and the rent-or-buy verdict for every offer.
//
// The engine is pure: no files, no clock, no environment, no printing. It
// must not import workbooks, excelize, cobra or os.
package engine
