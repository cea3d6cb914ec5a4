// Package schema declares each of planner's input sheets once: its name,
// the columns of its table in the order init writes them (the key planner
// reads a column by, its header as written, the other headers it accepts,
// whether it is required, the unit Excel checks its numbers by, the sheet
// whose names it picks from, its width), and where a workbook has each
// sheet (Names, CarriedName). The reader, the writer and the defaults all
// read their columns from here.
//
// It is data and the few questions asked of it: it must not import
// excelize, engine, grid or any other of planner's packages but diag.
package schema
