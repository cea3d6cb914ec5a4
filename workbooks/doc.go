// Package workbooks turns an xlsx workbook into an engine.Model, with the
// sheet and cell of every input, offer and formula, and writes results back
// as sheets planner owns. It keeps the user's file safe: the model is read
// through one excelize handle and the sheets are written through another that
// never parses the user's own sheets; every save is verified part by part
// against the original and replaces the file atomically.
//
// It must not import cobra.
package workbooks
