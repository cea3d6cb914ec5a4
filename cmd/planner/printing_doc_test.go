package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"planner/workbooks"
)

// What the guide's page on printing counts is what LibreOffice prints of
// the default workbook, made and evaluated as the page says: the sheets,
// the pages, Results' and Cash flow's pages, and the page its picture
// shows.
func TestPrintingAsDocumented(t *testing.T) {
	for _, tool := range []string{"soffice", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: install libreoffice-calc-nogui and poppler-utils", tool)
		}
	}
	slow(t, "prints with LibreOffice")
	if font, _ := exec.Command("fc-match", "Calibri").Output(); !bytes.Contains(font, []byte("Carlito")) && !bytes.Contains(font, []byte("Calibri")) {
		t.Skipf("no Calibri or Carlito (fc-match Calibri: %q): install fonts-crosextra-carlito", bytes.TrimSpace(font))
	}
	dir := t.TempDir()
	initPlan(t, dir, "plan.xlsx")
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx"); code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	profile := "file://" + filepath.Join(dir, "profile")
	if out, err := exec.Command("soffice", "-env:UserInstallation="+profile, "--headless", "--convert-to", "pdf", "--outdir", dir, filepath.Join(dir, "plan.xlsx")).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	text, err := exec.Command("pdftotext", "-layout", filepath.Join(dir, "plan.pdf"), "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	pages := strings.Split(strings.TrimSuffix(string(text), "\f"), "\f")
	footer := regexp.MustCompile(`(?m)^(\S.*?)\s{2,}page (\d+) of (\d+)\s*$`)
	count := map[string]int{}
	for i, p := range pages {
		m := footer.FindStringSubmatch(p)
		if m == nil || m[2] != strconv.Itoa(i+1) || m[3] != strconv.Itoa(len(pages)) {
			t.Fatalf("page %d has no footer \"Sheet … page %d of %d\": %q", i+1, i+1, len(pages), m)
		}
		count[m[1]]++
		// A sheet printed across pages carries its title atop each page,
		// whole, where its first rows would print cut to the first column.
		if m[1] == "Deployment costs" && !strings.HasPrefix(strings.TrimSpace(p), "Deployment costs: renting replicas against owning nodes · planner ") {
			t.Errorf("page %d of Deployment costs does not open with its title: %.80q", i+1, strings.TrimSpace(p))
		}
	}

	page := strings.Join(strings.Fields(docSection(t, moduleRoot(t), "On paper: how the sheets print")), " ")
	for claim, want := range map[string]string{
		`its own (\w+) and the (\w+) init writes`:                                                              numberWords[len(workbooks.OwnedSheets())] + " " + numberWords[len(workbooks.InputSheets())],
		"The default workbook \\(`planner init plan.xlsx && planner eval plan.xlsx`\\) prints on (\\d+) pages": strconv.Itoa(len(pages)),
		`Results, with the default workbook's eight scenarios, prints on (\d+) pages`:                          strconv.Itoa(count["Results"]),
		`Cash flow, its four offers' columns side by side, on (\d+)`:                                           strconv.Itoa(count["Cash flow"]),
		`the default workbook's eleven deployments print on (\d+) pages`:                                       strconv.Itoa(count["Deployment costs"]),
		"`Results … page (\\d+) of (\\d+)`":                                                                    "",
	} {
		m := regexp.MustCompile(claim).FindStringSubmatch(page)
		if m == nil {
			t.Errorf("docs/printing.md does not say %q", claim)
			continue
		}
		if got := strings.Join(m[1:], " "); want != "" && got != want {
			t.Errorf("docs/printing.md says %q; printed: %s", m[0], want)
		}
		if want == "" { // the footer it quotes is the page its picture shows
			n, _ := strconv.Atoi(m[1])
			if m[2] != strconv.Itoa(len(pages)) || n < 1 || n > len(pages) || !strings.Contains(pages[n-1], "Break-even utilisation by offer and scenario") ||
				!regexp.MustCompile(`^\s*Result\s+Name\s+Unit\s+RunPod`).MatchString(pages[n-1]) {
				t.Errorf("docs/printing.md quotes %q, but that page is not the offers under their header and the break-even matrix", m[0])
			}
			if !strings.Contains(page, "Page "+m[1]+", the offers") {
				t.Errorf("docs/printing.md quotes %q but shows another page", m[0])
			}
		}
	}
}
