package workbooks

import (
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/schema"
)

// setDeployment sets a cell of the Deployments sheet by its column's header,
// adding the column after the last when the sheet has none of that name.
func setDeployment(t *testing.T, f *excelize.File, header string, row int, value any) string {
	t.Helper()
	rows, err := f.GetRows(schema.Deployments.Name)
	if err != nil {
		t.Fatal(err)
	}
	col := len(rows[0]) + 1
	for i, h := range rows[0] {
		if schema.HeaderKey(h) == schema.HeaderKey(header) {
			col = i + 1
		}
	}
	cell, _ := excelize.CoordinatesToCellName(col, 1)
	if err := f.SetCellStr(schema.Deployments.Name, cell, header); err != nil {
		t.Fatal(err)
	}
	cell, _ = excelize.CoordinatesToCellName(col, row)
	if err := f.SetCellValue(schema.Deployments.Name, cell, value); err != nil {
		t.Fatal(err)
	}
	return cell
}

// Row 5 of the default Deployments sheet is the 70B with longer context on
// 4×H100; row 3 the public 70B FP8 service.
const longContextRow, publicRow = 5, 3

func TestReadTokens(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		setDeployment(t, f, "tokens per second per replica", longContextRow, 3438)
		setDeployment(t, f, "input:output token mix", longContextRow, "1:1")
		setDeployment(t, f, "API", longContextRow, "Example Llama 3.1 70B")
		// The public service: replicas from a peak of 10,000 tokens a second.
		setDeployment(t, f, "tokens per second per replica", publicRow, 3438)
		setDeployment(t, f, "peak tokens per second", publicRow, 10000)
		setDeployment(t, f, "replicas", publicRow, "")
		if _, err := f.NewSheet("APIs"); err != nil {
			return err
		}
		for i, v := range []any{"provider", "model", "$ per million input tokens", "$ per million output tokens", "$ per million cached input tokens", "as of", "source"} {
			c, _ := excelize.CoordinatesToCellName(i+1, 1)
			f.SetCellValue("APIs", c, v)
		}
		for i, v := range []any{"Example", "Llama 3.1 70B", 0.6, 0.8, 0.3, "2026-10-10", "a price list"} {
			c, _ := excelize.CoordinatesToCellName(i+1, 2)
			f.SetCellValue("APIs", c, v)
		}
		return nil
	})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	long, public := b.Model.Deployments[longContextRow-2], b.Model.Deployments[publicRow-2]
	if long.TokensPerReplica != 3438 || long.Mix != "1:1" || long.MixIn != 1 || long.MixOut != 1 || long.API != "Example Llama 3.1 70B" || long.Replicas != 1 || long.FromDemand {
		t.Errorf("long context: %+v", long)
	}
	if public.Replicas != 3 || !public.FromDemand || public.PeakTokens != 10000 {
		t.Errorf("public: %d replicas (from demand %v), peak %v; want 3 from 10,000 ÷ 3,438", public.Replicas, public.FromDemand, public.PeakTokens)
	}
	if len(b.Model.APIs) != 1 {
		t.Fatalf("APIs %+v", b.Model.APIs)
	}
	if a := b.Model.APIs[0]; a.Label() != "Example Llama 3.1 70B" || a.Input != 0.6 || a.Output != 0.8 || a.Cached != 0.3 || a.AsOf != "2026-10-10" || a.Origin.Where() != "APIs!A2" {
		t.Errorf("API %+v", a)
	}
}

// An older workbook without the new columns reads as before: one replica
// where the cell is empty, no tokens.
func TestReadWithoutTokenColumns(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		for range 8 { // tokens, peak, mix, API, the busy hours profile and the latency targets
			if err := f.RemoveCol(schema.Deployments.Name, "M"); err != nil {
				return err
			}
		}
		setDeployment(t, f, "replicas", publicRow, "")
		return nil
	})
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := b.Model.Deployments[publicRow-2]; d.Replicas != 1 || d.FromDemand || d.TokensPerReplica != 0 || d.Mix != "" {
		t.Errorf("%+v", d)
	}
	if d := b.Model.Deployments[longContextRow-2]; d.TokensPerReplica != 0 || d.Mix != "" {
		t.Errorf("without the columns, %+v", d)
	}
	// The peak without a throughput column says to add one.
	editPlan(t, path, func(f *excelize.File) error {
		setDeployment(t, f, "peak tokens per second", publicRow, 9000)
		return nil
	})
	_, err = Read(path)
	want := "Deployments!M3: public 70B FP8 service, workdays: a peak of 9000 tokens a second needs the tokens per second one replica serves, " +
		"to know the replicas; type them in a column headed tokens per second per replica, or clear the peak"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestBadTokens(t *testing.T) {
	name := "70B, longer context or more concurrency"
	pub := "public 70B FP8 service, workdays"
	tests := []struct {
		header string
		row    int
		value  any
		want   string // after "plan.xlsx: Deployments!CELL: NAME: "
	}{
		{"tokens per second per replica", longContextRow, 0, "the tokens per second per replica is 0; it must be above zero"},
		{"tokens per second per replica", longContextRow, -5, "the tokens per second per replica is -5; it must be above zero"},
		{"tokens per second per replica", longContextRow, "fast", `"fast" is not a number; type a number such as 3438`},
		{"peak tokens per second", publicRow, 10000, "a peak of 10000 tokens a second needs the tokens per second one replica serves, to know the replicas; type them in M3, or clear the peak"},
		{"input:output token mix", longContextRow, 0.125, "the token mix reads as the number 0.125, which is how a spreadsheet stores 3:1 typed as a time of day; format the cell as text and type the mix again, or type it as '3:1"},
		{"input:output token mix", longContextRow, "3:x", `the token mix "3:x" has a part that is not a number of zero or more; type it as input:output, such as 3:1, or as input:cached input:output, such as 2:1:1`},
		{"input:output token mix", longContextRow, "0:0", `the token mix "0:0" has no tokens; type it as input:output, such as 3:1, or as input:cached input:output, such as 2:1:1`},
	}
	for _, tt := range tests {
		path := newPlan(t)
		var cell string
		editPlan(t, path, func(f *excelize.File) error {
			cell = setDeployment(t, f, tt.header, tt.row, tt.value)
			return nil
		})
		_, err := Read(path)
		who := name
		if tt.row == publicRow {
			who = pub
		}
		want := "Deployments!" + cell + ": " + who + ": " + tt.want
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s = %v: got %v\nwant %s", tt.header, tt.value, err, want)
		}
	}
}

// Replicas from a peak round up as a spreadsheet's ROUNDUP does: 3008.4
// tokens a second at 1002.8 a replica is 3 replicas (the binary quotient
// is 3.0000000000000004), and 3 replicas typed serve the peak, no warning.
// Two typed fall short, said with numbers as typed: 2 × 1002.8 = 2005.6.
func TestReplicasFromPeakAsSpreadsheets(t *testing.T) {
	for _, tt := range []struct {
		replicas any
		want     int
		warning  string
	}{
		{"", 3, ""},
		{3, 3, ""},
		{2, 2, "Deployments!F5: 70B, longer context or more concurrency: 2 replicas serve 2005.6 tokens a second, less than the peak of 3008.4; " +
			"clear the replicas to have planner take 3 from the peak, or type that many"},
	} {
		path := newPlan(t)
		editPlan(t, path, func(f *excelize.File) error {
			setDeployment(t, f, "replicas", longContextRow, tt.replicas)
			setDeployment(t, f, "tokens per second per replica", longContextRow, 1002.8)
			setDeployment(t, f, "peak tokens per second", longContextRow, 3008.4)
			return nil
		})
		b, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if d := b.Model.Deployments[longContextRow-2]; d.Replicas != tt.want || d.FromDemand != (tt.replicas == "") {
			t.Errorf("replicas %v: read %d (from demand %v), want %d", tt.replicas, d.Replicas, d.FromDemand, tt.want)
		}
		var got []string
		for _, w := range b.Warnings {
			if strings.Contains(w.Error(), "Deployments!") {
				got = append(got, w.Error())
			}
		}
		switch {
		case tt.warning == "" && len(got) > 0:
			t.Errorf("replicas %v: warned %q", tt.replicas, got)
		case tt.warning != "" && (len(got) != 1 || got[0] != path+": "+tt.warning):
			t.Errorf("replicas %v: warned %q\nwant %s", tt.replicas, got, tt.warning)
		}
	}
}
