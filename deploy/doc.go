// Package deploy costs a model's deployments: how many cards each one's
// replicas need (from sizing, unless typed), what renting them from an
// offer costs a month, what owning whole nodes of that GPU would cost
// instead, and the verdict in words; from a throughput the user gives, the
// tokens a month and what a million of them cost rented, owned and from a
// hosted API. It also checks the deployments a workbook lists, as the
// engine builds the plan (Check).
//
// It stands above the engine and reads only the engine's exported plan,
// model and results. It must not import montecarlo, whatif, workbooks,
// excelize, cobra or os.
package deploy
