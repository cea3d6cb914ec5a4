package fleet

// Exhaustive is the test's own search over every own/rent choice, for the
// tests of the default workbook's deployments.
var Exhaustive = exhaustive
