package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// styledSheet is bareSheet with B1 in the user's second cell format.
var styledSheet = strings.Replace(bareSheet, `<c r="B1">`, `<c r="B1" s="1">`, 1)

// The user's style part comes back byte for byte, with planner's styles
// appended to its lists, and never passes through excelize's model of it,
// which is lossy: exceljs's borders would lose their colour indexed="0", a
// part whose spreadsheet namespace has a prefix the declarations of its
// extensions' prefixes, and an xlsxwriter checkbox format the declaration
// its extension needs.
func TestUserStylesKeptByteForByte(t *testing.T) {
	const (
		fills     = `<fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>`
		cellStyle = `<cellStyle name="Normal" xfId="0" builtinId="0"/>`
	)
	for _, tc := range []struct{ name, styles string }{
		{"exceljs borders", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<styleSheet xmlns="` + ooxml.MainNamespace + `"><fonts count="1"><font><sz val="11" /><color indexed="0" /><name val="Calibri" /></font></fonts>` +
			`<fills count="2">` + fills + `</fills><borders count="2"><border><left /><right /><top /><bottom /><diagonal /></border>` +
			`<border><left><color indexed="0" /></left><right><color indexed="0" /></right><top><color indexed="0" /></top><bottom style="thick"><color theme="4" /></bottom></border></borders>` +
			`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" /></cellStyleXfs>` +
			`<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" /><xf numFmtId="0" fontId="0" fillId="0" borderId="1" xfId="0" applyBorder="1" /></cellXfs>` +
			`<cellStyles count="1">` + cellStyle + `</cellStyles></styleSheet>`},
		{"a prefixed namespace", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><ns2:styleSheet xmlns:ns1="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:ns2="` + ooxml.MainNamespace + `">` +
			`<ns2:fonts count="1"><ns2:font><ns2:sz val="10.0"/><ns2:name val="Calibri"/></ns2:font></ns2:fonts>` +
			`<ns2:fills count="2"><ns2:fill><ns2:patternFill patternType="none"/></ns2:fill><ns2:fill><ns2:patternFill patternType="gray125"/></ns2:fill></ns2:fills>` +
			`<ns2:borders count="1"><ns2:border><ns2:left/><ns2:right/><ns2:top/><ns2:bottom/><ns2:diagonal/></ns2:border></ns2:borders>` +
			`<ns2:cellStyleXfs count="1"><ns2:xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></ns2:cellStyleXfs>` +
			`<ns2:cellXfs count="2"><ns2:xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><ns2:xf numFmtId="10" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></ns2:cellXfs>` +
			`<ns2:dxfs count="0"/><ns2:tableStyles defaultPivotStyle="PivotStyleLight16" defaultTableStyle="TableStyleMedium2" count="0"/>` +
			`<ns2:extLst><ns2:ext uri="{EB79DEF2-80B8-43e5-95BD-54CBDDF9020C}"><x14:slicerStyles xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main" defaultSlicerStyle="SlicerStyleLight1"/></ns2:ext></ns2:extLst></ns2:styleSheet>`},
		{"xlsxwriter checkboxes", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<styleSheet xmlns="` + ooxml.MainNamespace + `"><fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts>` +
			`<fills count="2">` + fills + `</fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
			`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
			`<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
			`<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyProtection="1"><protection locked="0"/><extLst><ext uri="{C7286773-470A-42A8-94C5-96B5CB345126}" xmlns:xfpb="http://schemas.microsoft.com/office/spreadsheetml/2022/featurepropertybag"><xfpb:xfComplement i="0"/></ext></extLst></xf></cellXfs>` +
			`<cellStyles count="1">` + cellStyle + `</cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "styled.xlsx")
			original := bareWorkbook(t, func(ps map[string][]byte) {
				withStyles(tc.styles)(ps)
				ps["xl/worksheets/sheet1.xml"] = []byte(styledSheet)
			})
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := Init(path, units.USD)
			data, was := in.Data, in.Original
			if err != nil {
				t.Fatal(err)
			}
			keptStyles(t, []byte(tc.styles), zipParts(t, data)[ooxml.StylesPart])
			if err := Save(path, data, was); err != nil {
				t.Fatal(err)
			}
			_, out := evaluate(t, path)
			keptStyles(t, []byte(tc.styles), zipParts(t, out)[ooxml.StylesPart])
			sameUserContent(t, original, out)
			sameOnRerun(t, path, out)
		})
	}
}

// keptStyles checks that every list of the user's style part, the root's
// start tag with its declarations, and whatever is not a list come back
// byte for byte, and that planner's styles were added.
func keptStyles(t *testing.T, user, written []byte) {
	t.Helper()
	if err := ooxml.WellFormed(written); err != nil {
		t.Fatalf("the style part is not XML: %v", err)
	}
	root, err := ooxml.Locate(user, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(written, user[:root.Open]) {
		t.Errorf("the style part's start changed:\n%s", written)
	}
	for _, k := range root.Kids {
		inner := user[k.Start:k.End]
		if ooxml.Appendable(k.Local) {
			inner = user[k.Open:k.Close]
		}
		if !bytes.Contains(written, inner) {
			t.Errorf("%s changed:\n%s\nwritten:\n%s", k.Local, inner, written)
		}
	}
	w, err := ooxml.Locate(written, 2)
	if err != nil {
		t.Fatal(err)
	}
	if u := root.Child("cellXfs"); w.Child("cellXfs") == nil || u == nil || len(w.Child("cellXfs").Kids) <= 2 {
		t.Error("planner's cell formats were not added")
	}
}
