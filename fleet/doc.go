// Package fleet puts a model's deployments together: per GPU, the cards
// every replica needs packed onto the owning scenario's nodes (a replica
// stays within one node up to the node's size; a larger one takes whole
// nodes), the nodes that takes, how busy their cards would be, owning all
// of it against renting all of it a month, and the cheapest mix of owning
// some deployments and renting the rest, found exactly and said in words.
//
// It stands above deploy and reads only the deployments deploy costed. It
// must not import facts, montecarlo, whatif, workbooks, excelize, cobra or
// os.
package fleet
