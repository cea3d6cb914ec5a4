package sheets

import (
	"strings"

	"planner/wording"
)

// excelPhrase is the Excel formula that builds a verdict's words from live
// cells, as wording.Phrase.String builds them from planner's numbers: refs
// maps each quantity to the cell (or expression) that holds it. A quantity
// without a reference is written as planner's text. FIXED rounds half away
// from zero, as planner does, and never depends on a format string a
// localised Excel would read differently.
func excelPhrase(p wording.Phrase, refs map[string]string) string {
	parts := make([]string, 0, len(p))
	for _, w := range p {
		ref, live := refs[w.Quantity]
		if w.Quantity == "" || !live {
			parts = append(parts, excelString(w.String()))
			continue
		}
		parts = append(parts, excelWord(w, ref)...)
	}
	return strings.Join(mergeLiterals(parts), "&")
}

// excelWord writes one number of a phrase as its format says, as the
// parts of a concatenation: an amount with its currency's sign before it,
// as the words do.
func excelWord(w wording.Word, ref string) []string {
	switch w.Format {
	case wording.AsDollars:
		return []string{excelString(w.Currency.Prefix()), `FIXED(` + ref + `,0)`}
	case wording.AsPercent:
		return []string{`FIXED(` + ref + `*100,1,1)`, `" %"`}
	case wording.AsBreakeven:
		return []string{excelBreakeven(ref)}
	case wording.AsBreakevenShare:
		return []string{`IF(` + ref + `>1,` + excelString(wording.AboveAll) + `,` + excelPercent(ref) + `)`}
	case wording.AsCount:
		return []string{ref, `""`}
	case wording.AsNodes:
		return []string{`IF(` + ref + `=1,"node","nodes")`}
	}
	return []string{ref} // a verdict cell holds its word
}

// excelPercent writes a share as engine's words do: 60.8 %.
func excelPercent(ref string) string { return `FIXED(` + ref + `*100,1,1)&" %"` }

// excelBreakeven writes a break-even as engine's words do, above 100 % in
// words.
func excelBreakeven(ref string) string {
	return `IF(` + ref + `>1,` + excelString(wording.NeverPays) + `,` + excelPercent(ref) + `)`
}

// excelVerdict is buy when owning's side is at or below renting's: the
// comparison is written as the engine makes it.
func excelVerdict(buyWhen string) string { return `IF(` + buyWhen + `,"buy","rent")` }

// excelString quotes text for a formula, in pieces of at most 255
// characters, as long as Excel lets a text constant be.
func excelString(s string) string {
	var pieces []string
	for r := []rune(s); ; r = r[maxLiteral:] {
		if len(r) <= maxLiteral {
			pieces = append(pieces, `"`+strings.ReplaceAll(string(r), `"`, `""`)+`"`)
			break
		}
		pieces = append(pieces, `"`+strings.ReplaceAll(string(r[:maxLiteral]), `"`, `""`)+`"`)
	}
	return strings.Join(pieces, "&")
}

// maxLiteral is the longest text constant Excel accepts in a formula.
const maxLiteral = 255

// mergeLiterals joins neighbouring quoted strings into one, within
// Excel's limit on a text constant. A count followed by "" stays a
// conversion to text.
func mergeLiterals(parts []string) []string {
	var out []string
	for _, p := range parts {
		n := len(out)
		if n > 0 && isLiteral(p) && isLiteral(out[n-1]) && p != `""` &&
			len([]rune(out[n-1]))+len([]rune(p))-4 <= maxLiteral {
			out[n-1] = out[n-1][:len(out[n-1])-1] + p[1:]
			continue
		}
		out = append(out, p)
	}
	return out
}

func isLiteral(p string) bool {
	if len(p) < 2 || p[0] != '"' || p[len(p)-1] != '"' {
		return false
	}
	inner := p[1 : len(p)-1]
	return !strings.Contains(strings.ReplaceAll(inner, `""`, ""), `"`)
}
