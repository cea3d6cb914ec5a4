// Package inputsheets lays out the sheets init writes for the user to edit
// (Assumptions, Scenarios, Cloud, the catalogs, Deployments, Correlations,
// the what-if sheets' Targets, Tables and Goals, and Formulas), from a
// model: their columns, input styles, defined names and data validation,
// each sheet's headers, widths and checks as package schema declares them.
// A declared sheet without a layout of its own (layouts) is a table of its
// declared columns, filled from the rows init gives it.
// Once written, they are the user's: planner reads them and never writes
// them again.
//
// It builds grids (package grid), which grid writes, and takes the
// sheets' names and columns from package schema; it does not read workbooks or lay out
// planner's own sheets, and must not import ooxml, cobra, os, or planner's
// workbooks package.
package inputsheets
