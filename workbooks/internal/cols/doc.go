// Package cols sets the column widths of planner's sheets in one pass:
// Splice writes into a sheet's part the <cols> excelize's stream writer
// would write, and Set gives excelize a range of equal columns at a time.
// excelize rebuilds a sheet's whole column list on every width it is
// given, so widths given a column at a time cost the cube of the columns.
//
// It knows nothing of planner's model or sheets, only widths and the XML
// excelize writes; it must not import engine, cobra or os.
package cols
