package ooxml

import (
	"errors"
	"fmt"

	"github.com/xuri/excelize/v2"
)

// Unlaid is an error the spreadsheet library gave while planner wrote
// what ("its Fleet sheet", "the name X", "the charts of its Fleet sheet"),
// in planner's words: what it could not lay out, why, and what the user
// can do, which is never to change their workbook: planner's layouts are
// meant to keep within a sheet's limits.
func Unlaid(what string, err error) error {
	why := "the spreadsheet library refused it (" + err.Error() + ")"
	for _, limit := range []struct {
		err  error
		says string
	}{
		{excelize.ErrMaxRows, fmt.Sprintf("it would take more than the %s rows a sheet holds", thousands(excelize.TotalRows))},
		{excelize.ErrColumnNumber, fmt.Sprintf("it would take more than the %s columns a sheet holds", thousands(excelize.MaxColumns))},
		{excelize.ErrMaxRowHeight, fmt.Sprintf("a row would be taller than the %d points a row can be", excelize.MaxRowHeight)},
		{excelize.ErrColumnWidth, fmt.Sprintf("a column would be wider than the %d characters a column can be", excelize.MaxColumnWidth)},
		{excelize.ErrCellStyles, fmt.Sprintf("it would take more than the %s cell styles a workbook holds", thousands(excelize.MaxCellStyles))},
		{excelize.ErrCellCharsLength, fmt.Sprintf("a cell would hold more than the %s characters a cell can", thousands(excelize.TotalCellChars))},
	} {
		if errors.Is(err, limit.err) {
			why = limit.says
		}
	}
	return &unlaid{fmt.Sprintf("planner could not lay out %s: %s; nothing was written. This is a limit planner should have kept to, not a mistake of yours: "+
		"please report it with the command you ran and, if you can share it, the workbook; planner show prints every result without writing", what, why), err}
}

type unlaid struct {
	msg string
	err error
}

func (u *unlaid) Error() string { return u.msg }
func (u *unlaid) Unwrap() error { return u.err }

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
