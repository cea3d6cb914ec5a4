// Package view is an evaluation as a reader reads it: its figures in
// reading order, each with the name formulas use, its label, the short
// heading a terminal gives it, its unit and its words, and each offer's
// and each deployment's value of it; and a Monte Carlo run's statistics
// with each output's values of them. The terminal's tables, eval's JSON,
// the Results sheet, the Deployment costs sheet and the MonteCarlo sheet
// all render from it, so that a new figure is declared here once and
// every rendering shows it.
//
// It reads the engine's, finance's, Monte Carlo's and deploy's results
// and lays nothing out: columns, cells and styles are the renderers'. It
// must not import workbooks, evaluate, excelize, cobra or os.
package view
