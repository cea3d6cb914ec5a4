// Package exact finds exact order statistics of millions of values while
// keeping only a few per cent of them: a Sieve set from a pilot's values
// brackets each reported percentile (P5, P50, P95), a Tally counts every
// value into its region and keeps those inside a bracket, and Ranked picks
// the percentiles from what it kept, or says a recount keeping every value
// is needed. It also bins values into a histogram, finds the smallest and
// largest and where a base value ranks, picks order statistics without a
// full sort (Pick), and sorts floats and integer keys by radix exactly as
// slices.Sort does.
//
// It knows numbers only: no model, no samples, no scheduling. It must not
// import engine, montecarlo, whatif, workbooks, excelize, cobra or os.
package exact
