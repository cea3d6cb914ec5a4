// Package domain is what a workbook says, as planner means it: the inputs
// and their distributions, the cloud offers, the named scenarios, the GPU
// and model catalogs, the deployments, the APIs, the correlations, the
// tornado's targets, the data tables and the goals (Model), and the names
// planner gives a meaning of its own, with the values each plausibly takes
// (names.go, bands.go): the inputs it reads, the formulas it provides from
// sizing, and those finance, the sheets and the printers read by name. It
// also says where a scenario's GPU watts come from (the GPUs sheet, unless
// the workbook or the command line says otherwise), and the measured
// benchmark points a deployment with latency targets reads its throughput
// from, by one rule of interpolation (benchmarks.go).
//
// Every package that evaluates, checks or prints a model reads it from
// here; the engine compiles it. It knows no formula's value: it must not
// import engine, wording, montecarlo, whatif, deploy, facts, workbooks,
// excelize, cobra or os.
package domain
