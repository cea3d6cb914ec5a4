// Package montecarlo runs a Monte Carlo of one scenario: it samples the
// uncertain inputs from their distributions (stratified, with the declared
// rank correlations induced by the Iman–Conover method), evaluates every
// block of samples column by column through an engine.Batch, and summarises
// every node-level formula (mean, exact P5, P50 and P95, smallest,
// largest, where the base value ranks, a histogram, counted by
// montecarlo/exact) and, for every offer of
// the scenario's GPU, the probability that owning is cheaper. It also owns
// what follows from that: reading a distribution cell, the warnings about
// inputs a run holds at their value, checking the workbook's correlations
// as the engine builds the plan (Check), and how close a verdict is.
//
// It stands above the engine and reads only the engine's exported plan,
// batch, model and results. It must not import whatif, deploy, workbooks,
// excelize, cobra or os.
package montecarlo
