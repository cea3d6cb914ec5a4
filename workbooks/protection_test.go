package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/montecarlo"
	"planner/units"
	"planner/whatif"
	"planner/workbooks/internal/ooxml"
)

// protected puts a workbookProtection element into a workbook part, just
// before its sheets, with the prefix the part's root uses.
func protected(element string) func(map[string][]byte) {
	return func(ps map[string][]byte) {
		wb := string(ps[ooxml.WorkbookPart])
		at := strings.Index(wb, "<sheets>")
		if at < 0 {
			at = strings.Index(wb, "<x:sheets>")
		}
		ps[ooxml.WorkbookPart] = []byte(wb[:at] + element + wb[at:])
	}
}

const unprotectAdvice = "unprotect it (in Excel: Review > Protect Workbook; in LibreOffice: Tools > Protect Spreadsheet Structure; enter the password if asked)"

// A workbook whose structure is protected forbids adding sheets, in Excel
// and so in planner: init says how to lift the protection, instead of
// that saving would change workbookProtection (excelize drops the legacy
// password), and the file is left alone.
func TestInitRefusesAProtectedStructure(t *testing.T) {
	for _, tc := range []struct{ name, element string }{
		{"legacy password", `<workbookProtection workbookPassword="DB7E" lockStructure="1" />`},
		{"hashed password", `<workbookProtection workbookAlgorithmName="SHA-512" workbookHashValue="pDBih/0yKf2oHdf2EKNrILs/nv8SMv3muI/a/nojjgg9sM6iEGbk+bnXcDHTSMbXbzdt3W7xEpc32RHqa4ek9A==" workbookSaltValue="kdgFfj+h+x3I6YH+2XM6rg==" workbookSpinCount="100000" lockStructure="true"/>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "locked.xlsx")
			original := bareWorkbook(t, protected(tc.element))
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			want := path + ": the workbook's structure is protected, which forbids adding sheets, and planner init adds its input sheets; " +
				unprotectAdvice + ", run planner init again, then protect it again"
			if _, err := Init(path, units.USD); err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
		})
	}
}

// Protection that does not lock the structure (the windows, or a password
// with nothing locked) lets planner add its sheets, and comes back byte for
// byte, legacy password and namespace prefix included.
func TestWorkbookProtectionKept(t *testing.T) {
	const element = `<x:workbookProtection workbookPassword="CBEB" lockWindows="1" />`
	path := filepath.Join(t.TempDir(), "windows.xlsx")
	original := bareWorkbook(t, func(ps map[string][]byte) {
		ps[ooxml.WorkbookPart] = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<x:workbook xmlns:x="` + ooxml.MainNamespace + `" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			element + `<x:sheets><x:sheet name="Data" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`)
	})
	if err := os.WriteFile(path, original, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := Init(path, units.USD)
	data, was := in.Data, in.Original
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(element, "x:", "", 1)
	if got := zipParts(t, data)[ooxml.WorkbookPart]; !bytes.Contains(got, []byte(want)) {
		t.Errorf("the protection changed:\n%s", got)
	}
	if err := Save(path, data, was); err != nil {
		t.Fatal(err)
	}
	_, out := evaluate(t, path)
	if got := zipParts(t, out)[ooxml.WorkbookPart]; !bytes.Contains(got, []byte(want)) {
		t.Errorf("eval changed the protection:\n%s", got)
	}
	sameUserContent(t, original, out)
	sameOnRerun(t, path, out)
}

// eval adds its sheets the first time: a workbook whose structure was
// locked after init is refused with the sheets it would add. Once they are
// there, eval only rewrites them, which the protection allows, and keeps
// the protection as it was.
func TestEvalAndAProtectedStructure(t *testing.T) {
	const element = `<workbookProtection workbookPassword="CBEB" lockStructure="1"/>`
	lock := func(data []byte) []byte {
		return rezip(t, data, func(ps map[string][]byte) {
			ps[ooxml.WorkbookPart] = bytes.Replace(ps[ooxml.WorkbookPart], []byte("<bookViews>"), []byte(element+"<bookViews>"), 1)
		})
	}
	path := newPlan(t)
	initialised, _ := os.ReadFile(path)
	if err := os.WriteFile(path, lock(initialised), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Build(b.Model, deploy.Check, montecarlo.Check, whatif.Check)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Eval(domain.Scenario{Name: "base"})
	_, err = b.Write(Output{Version: "test", Plan: p, Results: []*engine.Result{r}}, WriteOptions{})
	want := path + ": the workbook's structure is protected, which forbids adding sheets, and planner eval adds the sheets Results and Cash flow; " +
		unprotectAdvice + ", run planner eval again, then protect it again; later runs only rewrite those sheets and need no unprotecting"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	// Unprotected, evaluated, protected again: eval runs.
	path = newPlan(t)
	_, out := evaluate(t, path)
	if err := os.WriteFile(path, lock(out), 0o644); err != nil {
		t.Fatal(err)
	}
	_, again := evaluate(t, path)
	if !bytes.Contains(zipParts(t, again)[ooxml.WorkbookPart], []byte(element)) {
		t.Errorf("eval changed the protection:\n%s", zipParts(t, again)[ooxml.WorkbookPart])
	}
}
