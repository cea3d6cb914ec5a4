package engine

// Instructions are how many instructions the evaluator runs, and how many
// the plan's node-level program holds, for a test that it runs only what
// varies.
func Instructions(e *Evaluator, p *Plan) (runs, all int) { return len(e.code), len(p.prog.node) }
