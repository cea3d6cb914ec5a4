package fleet

// Exhaustive is the test's own search over every own/rent choice, for the
// tests of the default workbook's deployments.
var Exhaustive = exhaustive

// forceBound lowers the search's limits so that a test meets the bounded
// answer on a small fleet, and returns what puts them back: dense cells
// for the exact programme over weights (and over counts by size), and the
// residues of the exact programme modulo the node.
func forceBound(dense, residues int64) (restore func()) {
	d, r := maxDense, maxResidues
	maxDense, maxResidues = dense, residues
	return func() { maxDense, maxResidues = d, r }
}
