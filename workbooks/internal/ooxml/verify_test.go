package ooxml

import (
	"strings"
	"testing"
)

func userPackage() map[string]string {
	return map[string]string{
		ContentTypes: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="xml" ContentType="application/xml"/></Types>`,
		WorkbookPart: `<workbook xmlns="` + mainNS + `" xmlns:r="` + transitionalRelationship[:len(transitionalRelationship)-1] + `">` +
			`<sheets><sheet name="Costs" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		WorkbookRels: `<Relationships xmlns="` + relsNamespace + `">` +
			`<Relationship Id="rId1" Type="` + transitionalRelationship + `worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
		"xl/worksheets/sheet1.xml": `<worksheet xmlns="` + mainNS + `"><sheetData/></worksheet>`,
		"docProps/app.xml":         `<Properties><Company>Acme</Company></Properties>`,
	}
}

func TestVerify(t *testing.T) {
	old := zipOf(t, userPackage())
	for _, c := range []struct {
		what, part, from, to, says string
	}{
		{"a copied part's bytes", "docProps/app.xml", "Acme", "Acne", "docProps/app.xml (its bytes would differ)"},
		{"a user's sheet renamed", WorkbookPart, `name="Costs"`, `name="Cost"`, "xl/workbook.xml (sheet Costs would be missing)"},
		{"a user's sheet", "xl/worksheets/sheet1.xml", "<sheetData/>", "<sheetData><row r=\"1\"/></sheetData>", "(its bytes would differ)"},
		{"a relationship", WorkbookRels, `Target="worksheets/sheet1.xml"`, `Target="worksheets/sheet2.xml"`, "(rId1 would change)"},
	} {
		parts := userPackage()
		parts[c.part] = strings.Replace(parts[c.part], c.from, c.to, 1)
		err := Verify("plan.xlsx", old, zipOf(t, parts), nil, nil)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want it to say %q", c.what, err, c.says)
		}
	}
	// A part excelize rewrites may change its form, not its meaning.
	parts := userPackage()
	parts[WorkbookPart] = strings.Replace(parts[WorkbookPart], `name="Costs" sheetId="1"`, `sheetId="1"  name="Costs"`, 1)
	if err := Verify("plan.xlsx", old, zipOf(t, parts), nil, nil); err != nil {
		t.Errorf("attributes reordered: %v", err)
	}
	if err := Verify("plan.xlsx", old, old, nil, nil); err != nil {
		t.Errorf("the same package: %v", err)
	}
}
