// Package wording is the verdict in words: buy or rent, and a sentence of
// fixed text and numbers (Phrase), each number named by the quantity it is,
// so that a spreadsheet can build the same sentence from live cells and a
// person reads the same words in the terminal, the JSON and the sheets. It
// writes amounts (in the currency a word carries: Money), shares and
// break-evens as planner prints them everywhere (BreakevenText, NeverPays).
//
// The engine words each offer's verdict with it, and deploy, fleet,
// montecarlo, whatif and the sheets word theirs; it stands below them all,
// beside the model it names. It must not import engine, montecarlo,
// whatif, deploy, facts, workbooks, excelize, cobra or os.
package wording
