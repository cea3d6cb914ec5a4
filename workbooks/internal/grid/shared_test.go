package grid

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// filledRows is a sheet of rows of formulas, each row's written into
// columns B on from fill(col), with the shared runs each must be written
// as (their ranges), or none.
var filledRows = []struct {
	what  string
	cols  int
	fill  func(col string) string
	share []string
}{
	{"filled right past Z", 28, func(c string) string {
		return "IF(" + c + "5>0," + c + "5*$A$1+" + c + "$3,SUM(" + c + "5:" + c + "9))"
	}, []string{"B1:AC1"}},
	{"text with references in it", 8, func(c string) string { return `IF(` + c + `5="A1 B2",` + c + `5&"x ""C3""",0)+` + c + `6` }, []string{"B2:I2"}},
	{"absolute references on another sheet", 8, func(c string) string { return "Cloud!$D$2*" + c + "6+" + c + "7*" + c + "8/12" }, []string{"B3:I3"}},
	{"whole columns", 8, func(c string) string { return "SUM(" + c + ":" + c + ")+SUM(" + c + "5:$D9)+" + c + "1*1000" }, []string{"B4:I4"}},
	{"no references to move", 8, func(string) string { return "VALUE(utilization)+VALUE(capex)" }, []string{"B5:I5"}},
	{"held packed", 8, func(c string) string {
		return strings.Repeat("IF("+c+"5<0,"+c+"6,", 30) + "0" + strings.Repeat(")", 30)
	}, []string{"B6:I6"}},
	{"text values", 9, func(c string) string { return `IF(` + c + `5>0,"yes","no")&` + c + `6&"!"` }, []string{"B7:J7"}},
	// What a reader would not read back as written stays written out.
	{"a relative reference on another sheet", 8, func(c string) string { return "Cloud!" + c + "5+" + c + "6*1000000" }, nil},
	{"a quoted sheet name", 8, func(c string) string { return "'Cash flow'!$B$2+" + c + "6*100000" }, nil},
	{"a function named like a cell", 8, func(c string) string { return "LOG10(" + c + "6)+" + c + "7+" + c + "8*1000" }, nil},
	{"lower case", 8, func(c string) string { return strings.ToLower(c) + "5+" + strings.ToLower(c) + "6*100000000000" }, nil},
	{"lower case in the first cell only", 8, func(c string) string {
		if c == "B" {
			c = "b"
		}
		return c + "5+" + c + "6*100000000000"
	}, nil},
	{"a name beside a range", 8, func(c string) string { return "SUM(fx:" + c + "5)+" + c + "6*1000" }, nil},
	{"too short to share", 8, func(c string) string { return c + "5+1" }, nil},
	{"spaces", 8, func(c string) string { return c + "5 + " + c + "6 * 1000000000000" }, nil},
	{"too few cells to share", minRun - 1, func(c string) string { return "ROUND(" + c + "5*" + c + "6/" + c + "7,2)+" + c + "$1" }, nil},
}

// A formula with brackets planner cannot be sure it reads as others do
// is not shared: one not closed, or one with a quote escaping a bracket
// (T[a'[b]), which openpyxl cannot read in a shared formula at all. A
// table's column with nothing in it to doubt is.
func TestDoubtfulBracketsAreNotShared(t *testing.T) {
	for _, tc := range []struct {
		formula string
		shared  bool
	}{
		{"SUM(T[a'[b])+@1*1000+@5", false},
		{"SUM(T[ab)+@1*1000+@5", false},
		{"SUM(T[[#This Row],[ab]])+@1*1000+@5", true},
	} {
		row := make([]Cell, minRun)
		for j := range row {
			row[j] = Linked(Number(1, StyleResult), strings.ReplaceAll(tc.formula, "@", excelizeColumn(j+1)))
		}
		h := &held{}
		if got := len(h.runs(row)) == 1; got != tc.shared {
			t.Errorf("%s: shared %v, want %v", tc.formula, got, tc.shared)
		}
	}
}

// sharedSheet lays the rows out, with three rows of runs broken: by
// another formula, by an empty cell and by a base column that differs,
// and one whose first formula is in a cell not written.
func sharedSheet() (*Grid, map[string]string) {
	g := NewOwned("Filled", 0, 0, 10)
	set := map[string]string{}
	link := func(col, row int, formula string, value any) {
		c := Cell{value: value, style: StyleResult}
		if s, ok := value.(string); ok {
			c = Text(s, StyleNote)
		}
		g.Set(col, row, Linked(c, formula))
		set[CellName(col, row)] = formula
	}
	value := func(i int) any {
		if filledRows[i].what == "text values" {
			return "yes!"
		}
		return float64(i)
	}
	for i, r := range filledRows {
		for col := 2; col < 2+r.cols; col++ {
			link(col, i+1, r.fill(excelizeColumn(col)), value(i))
		}
	}
	n := len(filledRows)
	moved := func(c string) string { return "ROUND(" + c + "5*" + c + "6/" + c + "7,2)+" + c + "$1" }
	for col := 2; col <= 20; col++ {
		f := moved(excelizeColumn(col))
		if col == 11 {
			f = "ROUND(K5*K6/K7,3)+K$1" // another formula
		}
		link(col, n+1, f, 1.0)
		if col != 11 {
			link(col, n+2, f, 2.0) // a gap at K
		}
	}
	link(2, n+3, "ROUND(capex*utilization,2)+B$1", 3.0) // the base column reads names
	for col := 3; col <= 10; col++ {
		link(col, n+3, moved(excelizeColumn(col)), 3.0)
	}
	// A formula in a cell not written (no value, no style) begins no run.
	g.Set(2, n+4, Linked(Blank(""), moved("B")))
	for col := 3; col <= 10; col++ {
		link(col, n+4, moved(excelizeColumn(col)), 4.0)
	}
	return g, set
}

// wantShared is every shared run sharedSheet must be written with.
func wantShared() []string {
	var out []string
	for _, r := range filledRows {
		out = append(out, r.share...)
	}
	n := len(filledRows)
	row := func(r int, ranges ...string) {
		for _, s := range ranges {
			out = append(out, strings.ReplaceAll(s, "#", strconv.Itoa(r)))
		}
	}
	row(n+1, "B#:J#", "L#:T#")
	row(n+2, "B#:J#", "L#:T#")
	row(n+3, "C#:J#")
	row(n+4, "C#:J#")
	return out
}

// sharedWorkbook writes the sheet for packing, its rows with WriteRows, and
// gives the workbook with them in it.
func sharedWorkbook(t *testing.T, g *Grid) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	if _, _, _, err := write(f, slices.Values([]*Grid{g}), true); err != nil {
		t.Fatal(err)
	}
	// What the formulas read, so that no reader takes them for errors.
	for _, sheet := range []string{"Cloud", "Cash flow"} {
		if _, err := f.NewSheet(sheet); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"capex", "utilization", "fx"} {
		if err := f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: "Cloud!$A$1"}); err != nil {
			t.Fatal(err)
		}
	}
	var rows, pkg, out bytes.Buffer
	if err := g.WriteRows(&rows); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteTo(&pkg); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(pkg.Bytes()), int64(pkg.Len()))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		b := part(t, f, zf.Name)
		if zf.Name == "xl/worksheets/sheet2.xml" {
			head, tail, _ := bytes.Cut(b, []byte("<sheetData>"))
			b = bytes.Join([][]byte{head, []byte("<sheetData>"), rows.Bytes(), tail}, nil)
		}
		w, err := zw.Create(zf.Name)
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// A row's formulas filled right are written as one shared formula, and
// excelize reads every cell's back as it was set; what would not read back
// so, and runs broken, stay written out.
func TestFilledFormulasAreShared(t *testing.T) {
	for _, from := range []int{freezeFrom, 1} { // from the cells, and frozen
		func() {
			defer func(was int) { freezeFrom = was }(freezeFrom)
			freezeFrom = from
			g, set := sharedSheet()
			book := sharedWorkbook(t, g)
			f, err := excelize.OpenReader(bytes.NewReader(book))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sheet := part(t, f, "xl/worksheets/sheet2.xml")
			var got []string
			for _, m := range regexp.MustCompile(`<f t="shared" ref="([A-Z0-9:]+)" si="(\d+)">`).FindAllSubmatch(sheet, -1) {
				got = append(got, string(m[1]))
				if want := strconv.Itoa(len(got) - 1); string(m[2]) != want {
					t.Errorf("run %s is numbered %s, want %s", m[1], m[2], want)
				}
			}
			if want := wantShared(); !slices.Equal(got, want) {
				t.Errorf("freezing from %d: shared runs %v, want %v", from, got, want)
			}
			for cell, want := range set {
				if got, err := f.GetCellFormula("Filled", cell); err != nil || got != want {
					t.Errorf("excelize reads %s as %q (%v), want %q", cell, got, err, want)
				}
			}
		}()
	}
}

// openpyxl, which moves a shared formula's references itself, reads every
// cell's formula as planner set it, and LibreOffice, saving the workbook
// again with each formula written out, writes the same.
func TestOtherProgramsReadSharedFormulasAsSet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs openpyxl and LibreOffice: not under -short")
	}
	g, set := sharedSheet()
	dir := t.TempDir()
	book := filepath.Join(dir, "shared.xlsx")
	if err := os.WriteFile(book, sharedWorkbook(t, g), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("openpyxl", func(t *testing.T) {
		if exec.Command("/usr/bin/python3", "-c", "import openpyxl").Run() != nil {
			t.Skip("openpyxl is not installed; .ci/run installs python3-openpyxl")
		}
		script := `import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Filled"]
print(json.dumps({c.coordinate: c.value[1:] for row in ws.iter_rows() for c in row if isinstance(c.value, str) and c.value.startswith("=")}))`
		var stderr bytes.Buffer
		cmd := exec.Command("/usr/bin/python3", "-c", script, book)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %s", err, stderr.Bytes())
		}
		sameFormulas(t, "openpyxl", out, set)
	})
	t.Run("LibreOffice", func(t *testing.T) {
		if _, err := exec.LookPath("soffice"); err != nil {
			t.Skip("LibreOffice (soffice) is not installed; .ci/run installs libreoffice-calc-nogui")
		}
		saved := filepath.Join(dir, "saved")
		cmd := exec.Command("soffice", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--headless",
			"--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", saved, book)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		f, err := excelize.OpenFile(filepath.Join(saved, "shared.xlsx"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		read := map[string]string{}
		for cell := range set {
			read[cell], _ = f.GetCellFormula("Filled", cell)
		}
		out, _ := json.Marshal(read)
		sameFormulas(t, "LibreOffice", out, set)
	})
}

// sameFormulas compares the formulas another program read (a JSON object
// of cell to formula) with those set, ignoring only how it spells what
// Excel takes either way: the case of a reference, spaces.
func sameFormulas(t *testing.T, who string, read []byte, set map[string]string) {
	t.Helper()
	var got map[string]string
	if err := json.Unmarshal(read, &got); err != nil {
		t.Fatalf("%s: %v: %s", who, err, read)
	}
	spelled := strings.NewReplacer(" ", "")
	for cell, want := range set {
		g := got[cell]
		if g != want && !strings.EqualFold(spelled.Replace(g), spelled.Replace(want)) {
			t.Errorf("%s reads %s as %q, want %q", who, cell, g, want)
		}
	}
}
