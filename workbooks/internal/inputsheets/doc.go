// Package inputsheets lays out the sheets init writes for the user to edit
// (Assumptions, Scenarios, Cloud, the catalogs, Deployments, Correlations,
// the what-if sheets' Targets, Tables and Goals, and Formulas), from a
// model: their columns, input styles, defined names and data validation.
// Once written, they are the user's: planner reads them and never writes
// them again.
//
// It builds sheets' grids, which sheets writes; it does not read workbooks
// or know planner's own sheets, and must not import cobra, or planner's
// workbooks package.
package inputsheets
