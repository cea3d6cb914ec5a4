package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Workbook text that would make a terminal act (set its title, clear the
// screen, write the clipboard) or show text reordered reaches the terminal
// escaped, through every command and in messages, with columns still
// lined up; JSON stays JSON with the same strings.
func TestWorkbookTextCannotDriveTheTerminal(t *testing.T) {
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	old := filepath.Join(dir, "old.xlsx")
	data, _ := os.ReadFile(plan)
	if err := os.WriteFile(old, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// As a hostile file carries them: excelize decodes _x001B_ into ESC.
	const label = "H100 SXM, Community_x001B_]0;pwned_x0007__x001B_[2J&#x202E;, and more to be the longest label"
	editPart(t, plan, "xl/worksheets/sheet3.xml", func(xml string) string { // Cloud
		return strings.ReplaceAll(xml, "<t>H100 SXM, Community</t>", "<t>"+label+"</t>")
	})
	editPart(t, plan, "xl/worksheets/sheet8.xml", func(xml string) string { // Deployments
		return strings.ReplaceAll(xml, "<t>RunPod H100 SXM, Community</t>", "<t>RunPod "+label+"</t>")
	})
	editPart(t, plan, "xl/worksheets/sheet1.xml", func(xml string) string { // Assumptions!G3, model's notes
		return strings.Replace(xml, `<c r="G3" s="4" t="inlineStr"><is><t>`,
			`<c r="G3" s="4" t="inlineStr"><is><t>Copy _x001B_]52;c;cm0gLXJmIH4=_x0007_ from &#x202E;slx.exe.`+"\t", 1)
	})
	shown := `H100 SXM, Community\x1b]0;pwned\x07\x1b[2J\u202e, and more to be the longest label`

	call := func(args ...string) (string, string) {
		t.Helper()
		out.Reset()
		errs.Reset()
		run(args, &out, &errs)
		for _, s := range []string{out.String(), errs.String()} {
			for i, r := range s {
				if r != '\n' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r >= 0x2066 && r <= 0x2069 || r >= 0x202a && r <= 0x202e) {
					t.Errorf("planner %q printed %U at byte %d: %q", args, r, i, s[max(0, i-40):min(len(s), i+40)])
					break
				}
			}
		}
		return out.String(), errs.String()
	}

	stdout, _ := call("eval", plan, "--set", "capex=300000", "--samples", "1000")
	for _, want := range []string{
		"  offer                                                                                      $/GPU-h  break-even  verdict  own saves/month  NPV of owning                      payback\n",
		"  RunPod " + shown + "    $2.69      63.5 %  rent          -$2,116.26       -$76,185  no payback within 36 months  close call: flips in 24.7 % of Monte Carlo samples; $2,116 a month at stake\n",
		"  RunPod H100 SXM, Secure                                                                      $3.29      51.9 %  rent            -$364.26       -$13,113  no payback within 36 months  Monte Carlo favours buy in 53.3 % of samples; $364 a month at stake\n",
		"  one H100, all month                        1×1  730 h a month   RunPod " + shown + "   $1,963.70   $9,971.06  rent\n",
		"  npv_saving vs RunPod " + shown + "  $          -$53,438  -$174,220    -$58,005     $80,101   -$76,185      P42\n",
		"  breakeven_utilization vs RunPod " + shown + "      63.5 %  capex 12.4 %, rack_per_month 4.8 %, electricity_price 4.1 %\n",
		// The label holds a semicolon (of its escape): quoted in the list.
		"Chance that owning is cheaper, and that its NPV is above zero: \"RunPod " + shown + " 24.7 %\"; ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("eval's table lacks\n%s", want)
		}
	}
	if t.Failed() {
		t.Log(stdout)
	}

	stdout, _ = call("show", plan)
	for _, want := range []string{
		`source assumption model = Copy \x1b]52;c;cm0gLXJmIH4=\x07 from \u202eslx.exe. The model one replica serves,`,
		`offer "RunPod H100 SXM, Community\x1b]0;pwned\a\x1b[2J\u202e, and more to be the longest label" = 2.69 $/GPU-h`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("show lacks %s", want)
		}
	}

	stdout, _ = call("diff", old, plan)
	if want := "  source assumption model: The model one replica serves"; !strings.Contains(stdout, want) {
		t.Errorf("diff lacks %s", want)
	}
	if want := ` → Copy \x1b]52;c;cm0gLXJmIH4=\x07 from \u202eslx.exe. The model`; !strings.Contains(stdout, want) {
		t.Errorf("diff lacks %s\n%s", want, stdout)
	}
	stdout, _ = call("diff", "--format", "markdown", old, plan)
	if want := "→ ` Copy \\x1b]52;c;cm0gLXJmIH4=\\x07 from \\u202eslx.exe. The model"; !strings.Contains(stdout, want) {
		t.Errorf("diff --format markdown lacks %s", want)
	}

	// In a message: the offer does not exist, and the offers are listed.
	_, stderr := call("solve", plan, "--for", "residual", "--target", "breakeven_utilization=35%", "--offer", "nope")
	if want := "RunPod " + shown; !strings.Contains(stderr, want) {
		t.Errorf("solve's message lacks %s:\n%s", want, stderr)
	}
	// In a file name.
	_, stderr = call("show", filepath.Join(dir, "\x1b]0;x\x07\u202e.xlsx"))
	if want := `\x1b]0;x\x07\u202e.xlsx: no such file; planner init `; !strings.Contains(stderr, want) {
		t.Errorf("show's message lacks %s:\n%s", want, stderr)
	}

	// JSON: control characters are JSON's escapes, so is the bidi override
	// (as \u202e, which JSON reads back as the same character).
	stdout, _ = call("eval", plan, "--set", "capex=300000", "--samples", "1000", "--format", "json")
	var doc struct {
		Scenarios []struct {
			Offers []struct{ Offer string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("eval --format json is not JSON: %v", err)
	}
	if got, want := doc.Scenarios[0].Offers[0].Offer, "H100 SXM, Community\x1b]0;pwned\x07\x1b[2J\u202e, and more to be the longest label"; got != want {
		t.Errorf("JSON offer %q, want %q", got, want)
	}
}

func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain, ünïcode, 中文, emoji 👍\n\tok":   "plain, ünïcode, 中文, emoji 👍\n\tok",
		"\x1b]0;title\x07\x1b[2J\r\x00\x7f":   `\x1b]0;title\x07\x1b[2J\x0d\x00\u007f`,
		"\u009b31m C1 CSI":                    `\u009b31m C1 CSI`,
		"a\u202eb\u2066c\u2069d\u200be\ufeff": `a\u202eb\u2066c\u2069d\u200be\ufeff`,
		"line\u2028sep\u3164":                 `line\u2028sep\u3164`,
		"bad \xff byte, real \ufffd":          `bad \xff byte, real ` + "\ufffd",
	} {
		if got := terminalSafe(in); got != want {
			t.Errorf("terminalSafe(%q) = %q, want %q", in, got, want)
		}
	}
	if got := oneLine("a\nb\tc"); got != `a\nb\tc` {
		t.Errorf("oneLine = %q", got)
	}
	// A character cut between two writes is written whole.
	var b bytes.Buffer
	w := newSafeWriter(&b)
	s := "x\u202ey👍"
	for i := 0; i < len(s); i++ {
		w.Write([]byte{s[i]})
	}
	w.Write([]byte("\xf0\x9f"))
	w.Flush()
	if got, want := b.String(), `x\u202ey👍\xf0\x9f`; got != want || !utf8.ValidString(got) {
		t.Errorf("byte by byte: %q, want %q", got, want)
	}
}
