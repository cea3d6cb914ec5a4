package formulas

import (
	"strings"
	"testing"
)

func TestExcelTranslation(t *testing.T) {
	env := Env{"a": Number, "b": Number, "c": Number, "gpu": Text}
	for src, want := range map[string]string{
		"a + b * c":                  "a+b*c",
		"(a + b) * c":                "(a+b)*c",
		"a - (b - c)":                "a-(b-c)",
		"a - b - c":                  "a-b-c",
		"a / (b * c)":                "a/(b*c)",
		"-a ** 2":                    "-(a^2)",  // expr: -(a**2); Excel would square -a
		"(-a) ** 2":                  "(-a)^2",  // kept as written
		"a ** b ** c":                "a^(b^c)", // expr groups to the right, Excel to the left
		"(a ** b) ** c":              "(a^b)^c", //
		"pow(a, -b)":                 "a^(-b)",  //
		"a + 7 % 3":                  "a+1",     // Go's remainder, not MOD
		"a + -7 % 3":                 "a+-1",    // -1, where MOD gives 2
		"a + max(9) % 7":             "a+2",     // a function of constants is a constant
		"a + abs(-7) % 4":            "a+3",
		"ceil(a)":                    "-INT(-(a))",            // math.Ceil
		"floor(a / b)":               "INT(a/b)",              //
		"round(a)":                   "ROUND(a,0)",            // half away from zero, both
		"abs(a) + sqrt(b)":           "ABS(a)+SQRT(b)",        //
		"log(a) + log10(b) + exp(c)": "LN(a)+LOG10(b)+EXP(c)", //
		"min(a, b, c) + max(a, 1)":   "MIN(a,b,c)+MAX(a,1)",   //
		"a > b ? a : b":              "IF(a>b,a,b)",           //
		"a >= 1 and b != 2 or not (c < 3) ? 1 : 0":    "IF(IF(IF(a>=1,b<>2,FALSE),TRUE,NOT(c<3)),1,0)",
		`gpu == "H100 SXM" ? 1 : 0`:                   `IF(EXACT(gpu,"H100 SXM"),1,0)`, // case-sensitive, as planner
		`gpu != "say \"hi\"" ? 1 : 0`:                 `IF(NOT(EXACT(gpu,"say \"hi\"")),1,0)`,
		"a + 7 % 0":                                   "a+MOD(1,0)",                  // an error in both
		"a > 0 and 1 / a > 2 ? 1 : 0":                 "IF(IF(a>0,1/a>2,FALSE),1,0)", // 1/a only where a > 0, as planner
		"a + 5 % " + strings.Repeat("7 % ", 29) + "3": "a+2",                         // a constant, however long the chain
		"a * 1e-9 + 2.5":                              "a*1E-09+2.5",
		"-(a - b)":                                    "-(a-b)",
		"a - -b":                                      "a--b",
	} {
		c, err := Check(Formula{Name: "f", Source: src}, env)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got, err := c.Excel(env, func(name string) (string, error) { return name, nil })
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if want = strings.ReplaceAll(want, `\"`, `""`); got != want {
			t.Errorf("%s\n got  %s\n want %s", src, got, want)
		}
	}
}

// A name the workbook cannot give fails the translation, naming the formula.
func TestExcelTranslationWithoutAReference(t *testing.T) {
	c, err := Check(Formula{Name: "f", Source: "a + 1"}, Env{"a": Number})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Excel(Env{}, func(name string) (string, error) { return "", errNoCell })
	if err == nil || err.Error() != "f: no cell" {
		t.Errorf("got %v", err)
	}
}

var errNoCell = errorString("no cell")

type errorString string

func (e errorString) Error() string { return string(e) }
