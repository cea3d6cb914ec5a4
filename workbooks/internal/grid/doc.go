// Package grid is how planner writes a sheet: a Grid of cells in named
// styles and number formats, column widths, frozen panes, defined names,
// data validation, conditional formats (shading), charts, sentences merged
// across columns, and the rows a page must keep together. Write streams
// grids into an excelize file in one pass and points their names at them
// (WriteForPacking takes them one at a time as they are laid out and
// leaves their rows for WriteRows to write straight into the package as
// ooxml packs it, byte for byte as excelize would but for a row's formulas
// filled right, which it writes as Excel writes a fill, one formula shared
// (shared.go); a large grid's rows are written as XML at once, held
// compressed, and its cells let go), so that every sheet planner writes, the input sheets init writes
// (package inputsheets) and planner's own (package sheets) alike, is
// written one way and the same grid always gives the same bytes. It also
// spells references as Excel does: CellName, Absolute, Quote, and which
// names Excel refuses (NameProblem).
//
// It knows no sheet by name and nothing of what a cell means: the layouts
// are sheets' and inputsheets'. It must not import planner/engine or the
// other domain packages (what needs their types is a layout), cobra, or
// os; it leaves every byte of the package but its rows to ooxml.
package grid
