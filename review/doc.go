// Package review compares two workbooks as a reviewer would: which facts
// (assumptions, formulas, offers, scenarios, catalogs) changed, and what
// that did to every result, largest change first. It works on the facts
// (package facts) of each side and reads no files itself.
//
// It must not import workbooks, excelize, cobra or os.
package review
