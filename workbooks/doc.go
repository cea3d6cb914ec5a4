// Package workbooks turns an xlsx workbook into an engine.Model, with the
// sheet and cell of every input, offer and formula, and writes results back
// as sheets planner owns. It keeps the user's file safe: excelize is given
// only the parts planner reads, or the parts it must rewrite and planner's
// own sheets, and every other part is copied into the result as it was;
// every save is verified part by part against the original and replaces the
// file atomically.
//
// It must not import cobra.
package workbooks
