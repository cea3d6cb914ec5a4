package workbooks

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
	"github.com/xuri/nfp"

	"planner/diag"
	"planner/domain"
	"planner/units"
)

// A spreadsheet stores a date as the number of days since its epoch and
// shows it by the cell's number format: 30 hours typed into a cell
// formatted as a date shows 1900-01-30, and 12:00 typed as hours a day is
// 0.5. Read raw, such a cell is a number no one typed, so a cell planner
// reads as a number whose format shows a date, a time or a duration is an
// error at the cell, saying what it shows. The as-of dates of prices are
// read as dates, not here.

// builtinDateFormats are the built-in number formats (ECMA-376, 18.8.30)
// that show a date, a time or both, by their codes. Ids 27–36 and 50–58
// are the East Asian ones, whose code depends on the reader's language:
// each is given here in its Chinese (PRC) form, which shows the same kind
// of figure as the others.
var builtinDateFormats = map[int]string{
	14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM",
	20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0",
	27: `yyyy"年"m"月"`, 28: `m"月"d"日"`, 29: `m"月"d"日"`, 30: "m-d-yy", 31: `yyyy"年"m"月"d"日"`,
	32: `h"时"mm"分"`, 33: `h"时"mm"分"ss"秒"`, 34: `上午/下午h"时"mm"分"`, 35: `上午/下午h"时"mm"分"ss"秒"`,
	36: `yyyy"年"m"月"`, 50: `yyyy"年"m"月"`, 51: `m"月"d"日"`, 52: `yyyy"年"m"月"`, 53: `m"月"d"日"`,
	54: `m"月"d"日"`, 55: `上午/下午h"时"mm"分"`, 56: `上午/下午h"时"mm"分"ss"秒"`, 57: `yyyy"年"m"月"`,
	58: `m"月"d"日"`,
}

// localDateFormats are the built-in formats a spreadsheet shows in the
// reader's own language: the message shows the day as YYYY-MM-DD and the
// time as hh:mm. excelize shows the East Asian ones as the bare number.
var localDateFormats = map[int]string{
	14: "2006-01-02", 22: "2006-01-02 15:04",
	27: "2006-01", 28: "01-02", 29: "01-02", 30: "2006-01-02", 31: "2006-01-02", 32: "15:04", 33: "15:04:05",
	34: "15:04", 35: "15:04:05", 36: "2006-01", 50: "2006-01", 51: "01-02", 52: "2006-01", 53: "01-02",
	54: "01-02", 55: "15:04", 56: "15:04:05", 57: "2006-01", 58: "01-02",
}

// dateKind says what a number format shows of a number, "a date", "a
// time", "a date and time" or "a duration", or "" for a number. The
// format is parsed as excelize parses it to show a cell (nfp): letters in
// quotes or brackets ([Red], [$€-407]) or escaped are text, [h] is a
// duration.
func dateKind(code string) string {
	var date, clock, elapsed bool
	var months []string // m and mm: minutes beside hours or seconds, else months
	parser := nfp.NumberFormatParser()
	for _, section := range parser.Parse(code) {
		for _, t := range section.Items {
			v := strings.ToLower(t.TValue)
			switch {
			case t.TType == nfp.TokenTypeElapsedDateTimes:
				elapsed = true
			case t.TType != nfp.TokenTypeDateTimes:
			case strings.ContainsAny(v, "ydeg") || len(v) > 2 && v[0] == 'm':
				date = true // a year, day, era, or month by name
			case v == "m" || v == "mm":
				months = append(months, v)
			default:
				clock = true // hours, seconds, AM/PM
			}
		}
	}
	if len(months) > 0 && !clock && !elapsed {
		date = true
	}
	switch {
	case elapsed:
		return "a duration"
	case date && clock:
		return "a date and time"
	case date:
		return "a date"
	case clock || len(months) > 0:
		return "a time"
	}
	return ""
}

// shownAsDate says, for a cell holding a number, what it shows when its
// number format is a date, time or duration ("the date 1900-01-30, the
// number 30 formatted as a date"), or "" when it shows a number. A sheet
// too large to ask is taken as stored.
func (r *reader) shownAsDate(sheet, cell string) string {
	f := r.sheet(sheet)
	if f == nil || !r.mayShowDates(f, sheet) {
		return ""
	}
	if typ, err := f.GetCellType(sheet, cell); err != nil || typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString {
		return "" // text shows as typed, whatever the format
	}
	format := r.numberFormat(f, sheet, cell)
	id, kind := format.id, format.kind
	if kind == "" {
		return ""
	}
	raw, err1 := f.GetCellValue(sheet, cell, rawOpts)
	shown, err2 := f.GetCellValue(sheet, cell, excelize.Options{}) // as the format shows it
	v, isNum := parseNumber(raw)
	layout, local := localDateFormats[id]
	if local {
		if t, err := excelize.ExcelDateToTime(v, r.date1904()); err == nil {
			shown = t.Format(layout)
		}
	}
	if err1 != nil || err2 != nil || !isNum || shown == raw {
		// Shown as stored: a number without a style of its own, whatever
		// its row or column has.
		return ""
	}
	what := strings.TrimPrefix(strings.TrimPrefix(kind, "a "), "an ")
	return fmt.Sprintf("the %s %s, the number %s formatted as %s", what, shown, units.Plain(v), kind)
}

// numberFormat is a cell's number format: its built-in id, and what it
// shows of a number (a custom format's code stands over a built-in id's).
// Each style's is asked of excelize once per handle.
func (r *reader) numberFormat(f *excelize.File, sheet, cell string) numberFormat {
	idx, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		return numberFormat{}
	}
	return r.formatOf(f, idx)
}

// formatOf is the number format of the style idx of f's workbook; none for
// the default style, 0.
func (r *reader) formatOf(f *excelize.File, idx int) numberFormat {
	if idx == 0 {
		return numberFormat{}
	}
	key := styleKey{f, idx}
	if got, ok := r.formats[key]; ok {
		return got
	}
	var got numberFormat
	if style, err := f.GetStyle(idx); err == nil && style != nil {
		code := builtinDateFormats[style.NumFmt]
		if style.CustomNumFmt != nil {
			code = *style.CustomNumFmt
		} else {
			got.id = style.NumFmt
		}
		got.kind = dateKind(code)
	}
	if r.formats == nil {
		r.formats = map[styleKey]numberFormat{}
	}
	r.formats[key] = got
	return got
}

// styleKey is a style of one handle's workbook; numberFormat its format.
type (
	styleKey struct {
		f   *excelize.File
		idx int
	}
	numberFormat struct {
		id   int    // the built-in format's id; 0 for a custom format
		kind string // what it shows of a number, as dateKind says
	}
)

// checkNotDate reports a number read at a cell (or, through a reference,
// at the cell it refers to) that its cell shows as a date or time, saying
// what to type instead: example is a number of the kind wanted. It reports
// false after an error.
func (r *reader) checkNotDate(at diag.Origin, name, example string) bool {
	cells := []string{at.Sheet + "!" + at.Cell()}
	if ref := r.follows[cellKey(at.Sheet, at.Cell())].ref; ref.last != "" {
		cells = append(cells, ref.last)
	}
	for i, c := range cells {
		sheet, cell := splitCell(c)
		shown := r.shownAsDate(sheet, cell)
		switch {
		case shown == "":
			continue
		case r.dated[cellKey(sheet, cell)]:
			// Said at the cell that holds it (capex's, for a scenario
			// that refers to it).
		case i == 0:
			r.fail(at, name, "holds %s, where planner reads a number; format the cell as a number and type the number, such as %s", shown, example)
		default:
			r.fail(at, name, "refers to %s, which holds %s, where planner reads a number; format %s as a number and type the number there, such as %s, or type it here", c, shown, c, example)
		}
		if r.dated == nil {
			r.dated = map[string]bool{}
		}
		r.dated[cellKey(sheet, cell)] = true
		return false
	}
	return true
}

// example is a number of the kind a cell of the column holds, for advice:
// the input's own plausible value where planner knows it by name.
func example(key, name string) string {
	if b, ok := domain.BandOf(name, ""); ok && (key == "value" || key == "low" || key == "high") {
		return units.Plain(b.Example)
	}
	return numberExample(key)
}
