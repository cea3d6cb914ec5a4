package main

import (
	"planner/deploy"
	"planner/engine"
	"planner/montecarlo"
)

// build checks and compiles a workbook's model with every check planner
// makes of it: the engine's own, then the deployments' and the
// correlations', all reported at once.
func build(m engine.Model) (*engine.Plan, error) {
	return engine.Build(m, deploy.Check, montecarlo.Check)
}
