package workbooks

import "testing"

// What a number format shows of a number: letters in quotes, brackets or
// escaped are text, [h] is a duration, m beside hours or seconds is minutes.
func TestDateKind(t *testing.T) {
	for code, want := range map[string]string{
		"yyyy-mm-dd":          "a date",
		"mm-dd-yy":            "a date",
		"d-mmm":               "a date",
		"mmm-yy":              "a date",
		"[$-409]mmmm d, yyyy": "a date",
		`[Red]d"th"`:          "a date",
		"m/d/yy h:mm":         "a date and time",
		"h:mm AM/PM":          "a time",
		"mm:ss":               "a time",
		"mmss.0":              "a time",
		"hh:mm:ss":            "a time",
		"[h]:mm":              "a duration",
		"[h]:mm:ss":           "a duration",
		"[ss]":                "a duration",
		"General":             "",
		"0.00":                "",
		`0.00" d"`:            "",
		`0.0 \h`:              "",
		`[$€-407]#,##0.00`:    "",
		`#,##0.00 [$€-407]`:   "",
		`[Red]0.00`:           "",
		"0.00;[Red]-0.00":     "",
		`#,##0 "h/month"`:     "",
		"0.00E+00":            "",
		"0%":                  "",
		`_($* #,##0_)`:        "",
		"# ?/?":               "",
		"@":                   "",
		`"days" 0`:            "",
		"":                    "",
	} {
		if got := dateKind(code); got != want {
			t.Errorf("dateKind(%q) = %q, want %q", code, got, want)
		}
	}
	// Every built-in format that shows a date or time, the East Asian ones
	// (27–36, 50–58) among them, is read as one; the rest as numbers.
	for id := range 164 {
		code, isDate := builtinDateFormats[id]
		shows := (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58)
		if isDate != shows || isDate && dateKind(code) == "" {
			t.Errorf("built-in format %d (%q): read as a date %v, dateKind %q; it shows a date or time: %v", id, code, isDate, dateKind(code), shows)
		}
	}
}
