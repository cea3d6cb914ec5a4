package engine

// Instructions are how many instructions the evaluator runs, and how many
// the plan's node-level program holds, for a test that it runs only what
// varies.
func Instructions(e *Evaluator, p *Plan) (runs, all int) { return len(e.code), len(p.prog.node) }

// BatchInstructions are how many node-level and per-offer instructions a
// batch runs for each block.
func BatchInstructions(b *Batch) (node, offer int) { return len(b.node), len(b.offer) }

// VaryingInstructions are how many node-level instructions depend on the
// inputs named, both branches of every choice counted.
func VaryingInstructions(p *Plan, vary ...string) int {
	varying := make([]bool, p.prog.slots)
	for _, name := range vary {
		varying[p.prog.inputSlot[name]] = true
	}
	return len(varyingCode(p.prog.node, varying))
}

// WrittenColumns are how many columns a batch's run code writes, and how many
// distinct ones it writes them into.
func WrittenColumns(b *Batch) (slots, columns int) {
	seen := map[*float64]bool{}
	for _, in := range append(append([]colInstr(nil), b.nodeRun...), b.offerRun...) {
		slots++
		seen[&b.vec[in.dst][0]] = true
	}
	return slots, len(seen)
}

// BroadcastsWhileRunning reports whether b broadcasts each offer's values
// as RunOffer runs it, past offerColumnBudget, instead of ahead of time.
func BroadcastsWhileRunning(b *Batch) bool { return b.offerScratch != nil }
