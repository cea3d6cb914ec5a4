// Package sizing owns how many cards of a GPU one replica of a model needs:
// the GPU and model catalogs' rows, a model's architecture, the precisions
// and their bytes per parameter, the tensor-parallel sizes a replica is
// split across. The names the engine gives formulas from a scenario's
// sizing are domain's (domain.SizingNames). The engine sizes every scenario's model on its GPU while it
// evaluates; sizing itself knows nothing of scenarios.
//
// It must not import engine, nor workbooks, excelize, cobra or os.
package sizing
