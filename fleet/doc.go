// Package fleet puts a model's deployments together: per GPU, the cards
// every replica needs packed onto the owning scenario's nodes (a replica
// stays within one node up to the node's size; a larger one takes whole
// nodes), the nodes that takes, how busy their cards would be, owning all
// of it against renting all of it a month, and the cheapest mix of owning
// some deployments and renting the rest, said in words. Replicas of one
// size are counted, never held one by one, and the search has bounds:
// within them the mix is exact; past them, when the cards decide the
// nodes, still exact, and otherwise a mix that can be owned with a lower
// bound on the cheapest month, labelled as such (GPU.Exact, AtLeast,
// Unproven). A site's power limit (site_kw) caps the owned nodes' full
// draw: the GPUs share it by their months by nodes owned, and each is
// solved again within its share; the owned nodes' kW, kWh, tokens per kWh
// and carbon follow the mix (power.go).
//
// It stands above deploy and reads only the deployments deploy costed. It
// must not import facts, montecarlo, whatif, workbooks, excelize, cobra or
// os.
package fleet
