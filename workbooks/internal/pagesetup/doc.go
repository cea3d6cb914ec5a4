// Package pagesetup decides how a sheet planner writes prints: landscape
// on A4 or Letter, fitted to one page wide where the sheet is narrow
// enough to stay readable so, else printed at a fixed readable scale
// across pages with its left columns repeated; its header row repeated on
// every page (the _xlnm.Print_Titles name), margins, and a footer naming
// the sheet and the page. The same sheet always gets the same setup.
//
// It knows nothing of planner's model or sheets, only column widths and
// rows; it must not import engine, cobra or os.
package pagesetup
