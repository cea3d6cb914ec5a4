// Package cols puts the column widths of planner's sheets into excelize's
// hands and into the sheets' parts. excelize keeps a sheet's columns as a
// list it rebuilds whole, column by column, on every width it is given, so
// setting a sheet's widths one column at a time took time in the cube of
// its columns: a sheet with a column per offer, at 1,000 offers, took
// seconds. Splice writes the <cols> element excelize's stream writer would
// have written after those calls, in one pass; Set gives a sheet that
// only needs each column's width right its widths a range of equal
// columns at a time.
//
// It knows nothing of planner's model or sheets, only widths and the XML
// excelize writes; it must not import engine, cobra or os.
package cols
