package workbooks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/units"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// Zip part names compare without case, and some programs spell a part
// otherwise than excelize does (calamine's issue_419.xlsx and excelize's own
// CalcChain.xlsx store xl/SharedStrings.xml). excelize wrote them back as
// xl/sharedStrings.xml, and the user's part went missing. Now such parts
// come back under the user's spelling: the shared strings byte for byte,
// the styles with planner's appended.
func TestPartsSpelledInAnotherCase(t *testing.T) {
	const sst = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>cost</t></si></sst>`
	for _, tc := range []struct {
		name         string
		part, target string
		content      string
		sheet        string
	}{
		{"shared strings", "xl/SharedStrings.xml", "sharedStrings.xml", sst,
			bareSheetWith(`<c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c>`)},
		{"shared strings, linked as spelled", "xl/SharedStrings.xml", "SharedStrings.xml", sst,
			bareSheetWith(`<c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c>`)},
		{"styles", "xl/Styles.xml", "Styles.xml", string(ooxml.MinimalStyles()), bareSheet},
	} {
		t.Run(tc.name, func(t *testing.T) {
			original := bareWorkbook(t, func(ps map[string][]byte) {
				ps[tc.part] = []byte(tc.content)
				ps["xl/worksheets/sheet1.xml"] = []byte(tc.sheet)
				typ, rel := ooxml.StylesContent, ooxml.RelStyles
				if tc.name != "styles" {
					typ = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
					rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings"
				}
				ps[ooxml.WorkbookRels] = bytes.Replace(ps[ooxml.WorkbookRels], []byte(`</Relationships>`),
					[]byte(`<Relationship Id="rId2" Type="`+rel+`" Target="`+tc.target+`"/></Relationships>`), 1)
				ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte(`</Types>`),
					[]byte(`<Override PartName="/xl/`+tc.target+`" ContentType="`+typ+`"/></Types>`), 1)
			})
			path := filepath.Join(t.TempDir(), "spelled.xlsx")
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := Init(path, units.USD)
			data, was := in.Data, in.Original
			if err != nil {
				t.Fatal(err)
			}
			if err := Save(path, data, was); err != nil {
				t.Fatal(err)
			}
			_, out := evaluate(t, path)
			ps := zipParts(t, out)
			for name := range ps {
				if name != tc.part && bytes.EqualFold([]byte(name), []byte(tc.part)) {
					t.Errorf("the package has %s beside %s", name, tc.part)
				}
			}
			switch {
			case ps[tc.part] == nil:
				t.Errorf("%s is missing", tc.part)
			case tc.name == "styles":
				keptStyles(t, []byte(tc.content), ps[tc.part])
			case !bytes.Equal(ps[tc.part], []byte(tc.content)):
				t.Errorf("%s changed:\n%s", tc.part, ps[tc.part])
			}
			f, err := excelize.OpenReader(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if v, err := f.GetCellValue("Data", "A1"); v != "cost" || err != nil {
				t.Errorf("Data!A1 = %q, %v", v, err)
			}
			sameUserContent(t, original, out)
			sameOnRerun(t, path, out)
		})
	}
}

// bareSheetWith is a sheet whose first row holds the given cells.
func bareSheetWith(cells string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">` +
		cells + `</row></sheetData></worksheet>`
}

// A sheet excelize adds is numbered after the largest sheetId; when one of
// planner's own sheets, which excelize is rewriting, sits under that name
// (here Results, stored as the last sheet's part, and Goal seek, the last
// sheet, to be added again under that sheetId), planner's sheet moves out
// of the way first, and both come out whole.
func TestNewSheetOnPlannersOwnPart(t *testing.T) {
	path := newPlan(t)
	_, out := evaluate(t, path)
	ps := zipParts(t, out)
	where := ooxml.SheetParts(func(name string) []byte { return ps[name] })
	results, goal := where[SheetResults], where[sheets.GoalSeek]
	last := fmt.Sprintf("xl/worksheets/sheet%d.xml", len(schema.InputNames())+len(sheets.OwnedNames()))
	if goal != last {
		t.Fatalf("Goal seek is at %s; the test needs it to be the last sheet, %s", goal, last)
	}
	moved := rezip(t, out, func(ps map[string][]byte) {
		// Goal seek is gone (its drawing left behind, as the user's) ...
		ps[ooxml.WorkbookPart] = regexp.MustCompile(`<sheet name="Goal seek"[^>]*?(/>|></sheet>)`).ReplaceAll(ps[ooxml.WorkbookPart], nil)
		id := regexp.MustCompile(`Id="(rId\d+)" Target="` + strings.TrimPrefix(last, "xl/") + `"`).FindSubmatch(ps[ooxml.WorkbookRels])
		ps[ooxml.WorkbookRels] = []byte(ooxml.RemoveRelationship(ps[ooxml.WorkbookRels], string(id[1])))
		delete(ps, goal)
		delete(ps, ooxml.RelsOf(goal))
		// ... and Results sits where excelize will put it back.
		ps[goal], ps[ooxml.RelsOf(goal)] = ps[results], ps[ooxml.RelsOf(results)]
		delete(ps, results)
		delete(ps, ooxml.RelsOf(results))
		ps[ooxml.WorkbookRels] = bytes.Replace(ps[ooxml.WorkbookRels], []byte(`Target="`+strings.TrimPrefix(results, "xl/")+`"`), []byte(`Target="`+strings.TrimPrefix(last, "xl/")+`"`), 1)
		ps[ooxml.WorkbookPart] = regexp.MustCompile(`<definedName name="[^"]*"[^>]*>'Goal seek'![^<]*</definedName>`).ReplaceAll(ps[ooxml.WorkbookPart], nil)
	})
	if err := os.WriteFile(path, moved, 0o644); err != nil {
		t.Fatal(err)
	}
	_, again := evaluate(t, path)
	f, err := excelize.OpenReader(bytes.NewReader(again))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range []string{SheetResults, sheets.GoalSeek} {
		if v, err := f.GetCellValue(sheet, "A1"); err != nil || !strings.HasPrefix(v, sheet) {
			t.Errorf("%s!A1 = %q, %v", sheet, v, err)
		}
	}
	now := zipParts(t, again)
	if where := ooxml.SheetParts(func(name string) []byte { return now[name] }); where[SheetResults] == where[sheets.GoalSeek] {
		t.Errorf("Results and Goal seek share %s", where[SheetResults])
	}
	sameOnRerun(t, path, again)
}
