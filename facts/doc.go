// Package facts describes a model for people, one fact per line: every
// assumption, formula, offer, scenario, catalog row, deployment,
// correlation and what-if a workbook states (a field left blank is left
// out, not shown as a zero), and every result its plan computes,
// deployments' costs and the fleet's among them, and every decision it
// makes, buy or rent and the fleet's own or rent, each under a key that moving a row does not change, so that show
// can list them and diff can compare two workbooks by them. It also gives
// the fingerprint of the facts that decide numbers, which the results
// sheet carries, and says which cloud prices are too old to trust.
//
// It stands above the engine and deploy and reads only their exported
// model, plan and results. It must not import workbooks, excelize, cobra
// or os.
package facts
