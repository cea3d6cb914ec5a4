package main

import (
	"planner/deploy"
	"planner/engine"
	"planner/montecarlo"
	"planner/whatif"
)

// build checks and compiles a workbook's model with every check planner
// makes of it: the engine's own, then the deployments', the correlations'
// and the what-ifs'. Their problems are reported at once, sorted by place,
// and two at the same place in this order.
func build(m engine.Model) (*engine.Plan, error) {
	return engine.Build(m, deploy.Check, montecarlo.Check, whatif.Check)
}
