package grid

import (
	_ "embed"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
)

// CellName is the A1 reference of a 1-based column and row.
func CellName(col, row int) string { return diag.ColumnName(col) + strconv.Itoa(row) }

// Absolute is the reference a defined name uses: 'Sheet name'!$C$5.
func Absolute(sheet string, col, row int) string {
	return Quote(sheet) + "!$" + strings.TrimRight(CellName(col, row), "0123456789") + "$" + strconv.Itoa(row)
}

// Span is an absolute reference to rows from..to of one column, as a
// chart's series reads them: 'Sheet name'!$C$5:$C$9.
func Span(sheet string, col, from, to int) string {
	return Absolute(sheet, col, from) + ":" + strings.TrimPrefix(Absolute(sheet, col, to), Quote(sheet)+"!")
}

// Fixed makes an A1 reference absolute ($D$60), so that it holds wherever
// the formula is copied, in a conditional format's rule too; a defined
// name stays as it is.
func Fixed(ref string) string {
	col, row, err := excelize.CellNameToCoordinates(ref)
	if err != nil {
		return ref
	}
	return "$" + diag.ColumnName(col) + "$" + fmt.Sprint(row)
}

var plainSheet = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// Quote is the sheet's name as a reference writes it: plain, or quoted as
// 'Sheet name' where Excel needs it.
func Quote(sheet string) string {
	if plainSheet.MatchString(sheet) && !cellLike.MatchString(sheet) {
		return sheet
	}
	return "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
}

// cellLike matches names Excel would read as a cell reference (A1, XFD9,
// R1C1, R, C), which cannot be defined names.
var cellLike = regexp.MustCompile(`(?i)^([a-z]{1,3}[0-9]+|r[0-9]*c[0-9]*|r|c)$`)

// NameProblem says why name cannot be an Excel defined name, or "".
func NameProblem(name string) string {
	switch {
	case cellLike.MatchString(name):
		return "reads as a cell reference in Excel"
	case len(name) > 255:
		return "is longer than Excel's 255 characters"
	case excelFunctions[strings.ToUpper(name)]:
		return "is the name of an Excel function"
	case strings.EqualFold(name, "TRUE") || strings.EqualFold(name, "FALSE"):
		return "is one of Excel's truth values"
	}
	return ""
}

//go:embed excelfunctions.txt
var excelFunctionList string

// excelFunctions are Excel's function names, upper case.
var excelFunctions = func() map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(excelFunctionList, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
}()
