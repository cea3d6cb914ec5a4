// Package workbooks turns an xlsx workbook into a domain.Model, with the
// sheet and cell of every input, offer and formula (Read), adds planner's
// input sheets to a workbook (Init), writes eval's results back as the
// sheets planner owns (Book.Write), says which of them are out of date
// (Book.Stale), and saves the result (Save).
//
// The work is shared with packages of its own: schema declares each
// input sheet's columns once, which the reader (sheetReaders), the
// default workbook (defaults/*.tsv, read by header) and inputsheets, which
// lays out what init writes, all follow; sheets lays out what planner's
// sheets hold; ooxml does the zip and XML surgery, giving
// excelize only a view of the user's package, copying every other part as
// it was, and verifying every package part by part against the original;
// planner/internal/safefile replaces the file atomically and locks it.
//
// It must not import cobra.
package workbooks
