// Package diag is how planner tells a user what is wrong or worth knowing:
// a Diagnostic is one error or warning, placed as precisely as planner can
// (the workbook, sheet and cell, or the line of a library file, and the
// column inside a formula), and Diagnostics is every one found in a pass,
// sorted by place, so that a user can fix them all at once. The same values
// reach stderr, the sheets and the JSON, so that each says the same. List
// is how every message lists names, telling apart those that hold commas.
//
// diag is the bottom of the house: it must not import any other planner
// package, nor excelize, expr or cobra.
package diag
