// Package engine is planner's evaluator. It checks a domain.Model and
// compiles it into a Plan: every name resolved, formulas in dependency
// order (ties broken by name, a cycle reported whole), a numeric program
// that evaluates one scenario (Eval, explaining every formula that fails),
// the same scenario again and again (Evaluator) or column-wise over blocks
// of samples (Batch), without allocating. From the numbers come the
// break-even and the rent-or-buy verdict of every offer, worded by
// wording so that a spreadsheet can rebuild it.
//
// Monte Carlo, the what-ifs, deployments and facts stand above it and use
// only what it exports; Build runs their checks of their parts (Check),
// which evaluate.Build passes, so that every command checks the same.
// domain, wording and sizing stand below it. It is pure: no files, no clock, no environment,
// no printing. It must not import montecarlo, whatif, deploy, facts,
// workbooks, excelize, cobra or os.
package engine
