package house

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dollarText is a dollar sign as an amount or a number format spells it,
// "$1,234", "$#,##0", and not as a cell reference does ("$A$2").
var dollarText = regexp.MustCompile(`(^|[^A-Za-z])\$[0-9#]`)

// readsDollars are the texts that tell how a number may be typed: the
// command line and a cell read "$320,000" as 320000, whatever the currency.
var readsDollars = map[string]bool{
	"evaluate/sets.go": true,
}

// cellRefs are the packages that write "$" for Excel's absolute
// references ($A$1), never for money.
var cellRefs = []string{"workbooks/internal/grid", "workbooks/internal/pagesetup", "workbooks/internal/ooxml"}

// A workbook's money may be in any currency: only units writes its sign,
// through units.Currency. Outside it, no code spells an amount or a money
// format with a dollar, and no call formats a unit written "$..." with
// the package functions that know only dollars (units.Format,
// units.ExcelFormat): it takes the model's Currency instead. Units spelled
// "$/month" are planner's own, meaning the workbook's currency.
func TestNoDollarsOutsideUnits(t *testing.T) {
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "units" || rel != "." && strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bench" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, refs := range cellRefs {
			if dir == refs {
				return nil
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		converted := map[ast.Node]bool{} // the dollars a Currency's method writes in its currency
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && currencyMethods[sel.Sel.Name] {
					if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "units" {
						for _, a := range n.Args {
							converted[a] = true
						}
					}
				}
				if dollarsOnly(n) {
					t.Errorf("%s: %s formats money in dollars; call it on the model's units.Currency", rel, render(n))
				}
			case *ast.BasicLit:
				if converted[n] || readsDollars[filepath.ToSlash(rel)] {
					return true
				}
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil && dollarText.MatchString(s) {
					t.Errorf("%s: %q spells money in dollars; write it with the model's units.Currency", rel, s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// currencyMethods are units.Currency's methods that take text or a format
// written for dollars and write it in the currency.
var currencyMethods = map[string]bool{"Excel": true, "ExcelFormat": true, "Words": true, "Format": true, "Unit": true}

// dollarsOnly reports whether call is units.Format or units.ExcelFormat
// of a unit written as a literal "$...".
func dollarsOnly(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "units" || sel.Sel.Name != "Format" && sel.Sel.Name != "ExcelFormat" {
		return false
	}
	for _, a := range call.Args {
		if lit, ok := a.(*ast.BasicLit); ok && strings.HasPrefix(strings.Trim(lit.Value, "\"`"), "$") {
			return true
		}
		if sel, ok := a.(*ast.SelectorExpr); ok && sel.Sel.Name == "Money" {
			return true
		}
	}
	return false
}

func render(call *ast.CallExpr) string {
	return "units." + call.Fun.(*ast.SelectorExpr).Sel.Name + "(…)"
}
