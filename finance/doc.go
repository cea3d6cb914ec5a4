// Package finance is owning's money over time, beyond what the formulas
// compute: the payback against each offer, the first month in which
// the cash saving (after tax, with a tax rate) has repaid the price ("no
// payback within 36 months" is an answer, not a formula that failed); the
// depreciation tax deducts month by month, straight line or declining
// balance; and Check, which says where a workbook's own cost per GPU-hour
// leaves out a line of owning that Assumptions gives (check.go).
//
// It reads the engine's results and must not import workbooks, excelize,
// cobra or os.
package finance
