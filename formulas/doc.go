// Package formulas owns planner's formula language: a named formula (name,
// expression, unit, description and where it came from), parsing and
// type-checking it with expr, listing the names it references, and the
// built-in formula library, shipped as text files under library/ and embedded,
// with the earlier planners' built-ins under earlier/: an older workbook's
// copy of one gives way to today's (Superseded), and the inputs a built-in
// came to read since are known (AddedInputs).
//
// The language is expr's syntax restricted to arithmetic over numbers:
// + - * / % ** ^, comparisons, and/or/not, the ternary ?: (or if/else), and an
// allowlist of functions (abs, ceil, floor, round, min, max, sqrt, pow, exp,
// log, log10). Text inputs may only be compared with == and !=. Nothing in a
// formula can reach files, the environment, the clock or randomness. Its
// whole numbers stay within ±2^53 (MaxWhole), where float64 holds every one
// exactly and expr's integers, planner's numbers and a spreadsheet's agree:
// Check refuses a number or whole-number arithmetic that may leave it, at
// the place the formula writes it (whole.go).
//
// Each function is one row of a table (Functions, Lookup): its name and
// arity, how it translates into Excel, what it computes and where it has no
// value. Checking, the Excel translation, and the engine's evaluator and
// explanations all read that row.
//
// It must not import engine, workbooks, excelize or cobra.
package formulas
