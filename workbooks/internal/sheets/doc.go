// Package sheets lays out the sheets planner owns, which eval rewrites from
// its results (Owned): Results, live with Excel formulas, Sizing,
// Deployment costs, Fleet, Cash flow (live, over Results' cells),
// MonteCarlo and the what-if sheets, with the rows each
// keeps together, its charts, its shading and its defined names. Each is a
// grid (package grid), which writes it. Owned names them before any is
// laid out, and Laid lays each out only as the writer takes it, so that
// the sheets of thousands of offers are never all held at once. It also knows every sheet eval
// writes by name (the input sheets' names are schema's), and the provenance line that marks a sheet as planner's
// (Computed).
//
// It does not read workbooks, and leaves every byte of the package to
// ooxml and every cell's writing to grid. It must not import cobra, os, or
// planner's workbooks package.
package sheets
