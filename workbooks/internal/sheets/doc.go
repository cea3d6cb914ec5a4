// Package sheets lays out the sheets planner owns, which eval rewrites from
// its results (Owned): Results, live with Excel formulas,
// Sizing, Deployment costs, MonteCarlo and the what-if sheets, with their
// styles, conditional formats, charts and defined names. Each sheet is a
// Grid, streamed into an excelize file in one pass (Write); the input
// sheets init writes (package inputsheets) are grids too. It also knows
// the sheets by name, and the provenance line that marks a sheet as
// planner's (Computed).
//
// It does not read workbooks, and leaves every byte of the package to
// ooxml. It must not import cobra, or planner's workbooks package.
package sheets
