package formulas

import (
	"errors"
	"strings"
	"testing"
)

// A template filled in gives what Excel gives, with the references of
// every place a formula is written: cells, names, formulas in parentheses,
// a reference that fails, and text that holds the template's own hole.
func TestExcelTemplateIsExcel(t *testing.T) {
	env := Env{"a": Number, "b": Number, "c": Number, "gpu": Text}
	sources := []string{
		"a + b * c", "a - (b - c)", "-a ** 2", "a ** b ** c", "a + 7 % 3", "ceil(a) + floor(b / c)",
		"min(a, b, c) + max(a, 1)", "a >= 1 and b != 2 or not (c < 3) ? a : b", `gpu == "H100 SXM" ? a : b`,
		`gpu != "x` + hole + `y" ? a : 0`, "a > 0 and 1 / a > 2 ? b : c", "a * a * a - b", "7 % 3",
	}
	refs := []func(string) (string, error){
		func(n string) (string, error) { return n, nil },
		func(n string) (string, error) { return "$" + strings.ToUpper(n) + "$7", nil },
		func(n string) (string, error) { return "(" + n + "+1)", nil },
		func(n string) (string, error) {
			if n == "b" {
				return "", errors.New("b is not on the sheet")
			}
			return "Q" + n, nil
		},
	}
	for _, src := range sources {
		c, err := Check(Formula{Name: "f", Source: src}, env)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		tmpl := c.ExcelTemplate(env)
		if open := tmpl.pieces != nil; open == strings.Contains(src, hole) {
			t.Errorf("%s: template with its references open: %v", src, open)
		}
		for k, ref := range refs {
			var asked, askedAgain []string
			want, wantErr := c.Excel(env, func(n string) (string, error) { asked = append(asked, n); return ref(n) })
			got, err := tmpl.Fill(func(n string) (string, error) { askedAgain = append(askedAgain, n); return ref(n) })
			if got != want || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Errorf("%s, references %d: got %q, %v; want %q, %v", src, k, got, err, want, wantErr)
			}
			if wantErr == nil && strings.Join(askedAgain, " ") != strings.Join(asked, " ") {
				t.Errorf("%s, references %d: asked for %v, Excel for %v", src, k, askedAgain, asked)
			}
		}
	}
}
