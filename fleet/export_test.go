package fleet

// Exhaustive is the test's own search over every own/rent choice, for the
// tests of the default workbook's deployments.
var Exhaustive = exhaustive

// forceBound lowers the search's limits so that a test meets the bounded
// answer on a small fleet, and returns what puts them back: dense cells
// for the exact programme over weights (and over counts by size), the
// combinations tried (of weight classes, and of counts by size), and the
// residues of the exact programme modulo the node.
func forceBound(dense, combinations, residues int64) (restore func()) {
	d, v, r := maxDense, maxVectors, maxResidues
	maxDense, maxVectors, maxResidues = dense, combinations, residues
	return func() { maxDense, maxVectors, maxResidues = d, v, r }
}
