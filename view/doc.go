// Package view is an evaluation as a reader reads it: its figures in
// reading order, each with the name formulas use, its label, the short
// heading a terminal gives it, its unit and its words, and each offer's
// and each deployment's value of it. The terminal's tables, eval's JSON,
// the Results sheet and the Deployment costs sheet all render from it, so
// that a new figure is declared here once and every rendering shows it.
//
// It reads the engine's, finance's, Monte Carlo's and deploy's results
// and lays nothing out: columns, cells and styles are the renderers'. It
// must not import workbooks, evaluate, excelize, cobra or os.
package view
