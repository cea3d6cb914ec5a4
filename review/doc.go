// Package review compares two workbooks as a reviewer would: which facts
// (assumptions, formulas, offers, scenarios, catalogs) changed, and what
// that did to every result, largest change first. It works on what the
// engine says about each side and reads no files itself.
package review
