package facts_test

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
	"testing"

	"planner/domain"
	"planner/facts"
	"planner/formulas"
	"planner/sizing"
	"planner/workbooks"
)

// show prints no blank field of the default workbook as a zero.
func TestDefaultWorkbookShowsNoBlankAsZero(t *testing.T) {
	for _, f := range facts.Of(workbooks.DefaultModel()) {
		for _, zero := range []string{"(0B active)", " 0 bytes per param", "precision -", `offer ""`, `scenario ""`} {
			if strings.Contains(f.Value, zero) {
				t.Errorf("%s: shows %q for a blank field", f, zero)
			}
		}
	}
}

// The fingerprint is the first 12 hex digits of the SHA-256 of the
// canonical facts that decide numbers, one a line, sorted by kind and key:
// blank catalog fields as zeros and "-", sources and notes left out. The
// lines below are written by hand from that form, not taken from planner.
func TestFingerprintHashesTheCanonicalForm(t *testing.T) {
	m := domain.Model{
		Inputs: []domain.Input{{Name: "capex", Value: domain.Num(285000), Unit: "$", Low: 250000, High: 320000, HasRange: true,
			Notes: "a 2026 price guide"}},
		Formulas: []formulas.Formula{{Name: "per_gpu_capex", Source: "capex / 8", Unit: "$"}},
		Offers:   []domain.Offer{{Provider: "RunPod", Name: "H100 SXM, Community", GPU: "H100 SXM", Price: 2.69, AsOf: "2026-10-10", Source: "runpod.io"}},
		GPUs:     []sizing.GPUSpec{{Name: "L40S", MemoryGB: 48, Source: "a data sheet"}},
		Catalog:  []sizing.ModelSpec{{Name: "70B", TotalParamsB: 70, Precision: "FP8"}},
	}
	canonical := `assumption capex = 285000 $ [250000..320000]
formula per_gpu_capex = capex / 8 [$]
offer "RunPod H100 SXM, Community" = 2.69 $/GPU-h, gpu "H100 SXM", as of 2026-10-10
gpu "L40S" = 48 GB, no board watts given, -
model "70B" = 70B params (0B active), FP8, 0 bytes per param
`
	sum := sha256.Sum256([]byte(canonical))
	if got, want := facts.Fingerprint(m), hex.EncodeToString(sum[:])[:12]; got != want {
		t.Errorf("fingerprint %s, want %s, the hash of\n%s", got, want, canonical)
	}
	override := sha256.Sum256([]byte(canonical + "--set capex=250000\n"))
	if got, want := facts.Fingerprint(m, "--set capex=250000"), hex.EncodeToString(override[:])[:12]; got != want {
		t.Errorf("fingerprint with an override %s, want %s", got, want)
	}
}

// Every value that decides a number moves the default workbook's
// fingerprint, each to a fingerprint of its own.
func TestFingerprintFollowsEveryValue(t *testing.T) {
	seen := map[string]string{facts.Fingerprint(workbooks.DefaultModel()): "the default workbook"}
	for _, e := range valueEdits(workbooks.DefaultModel()) {
		m := workbooks.DefaultModel()
		e.edit(&m)
		got := facts.Fingerprint(m)
		if other, ok := seen[got]; ok {
			t.Errorf("%s: fingerprint %s, the same as %s", e.what, got, other)
		}
		seen[got] = e.what
	}
	if len(seen) < 40 {
		t.Errorf("only %d edits tried; the default workbook has more values", len(seen)-1)
	}
}

type edit struct {
	what string
	edit func(*domain.Model)
}

// valueEdits changes one value of m at a time: every input, formula, offer,
// API, GPU, model, deployment, correlation, scenario value, target, table
// and goal, and fields the canonical form keeps though blank.
func valueEdits(m domain.Model) []edit {
	var out []edit
	add := func(what string, f func(*domain.Model)) { out = append(out, edit{what, f}) }
	for i, in := range m.Inputs {
		if in.Defaulted {
			continue
		}
		add("input "+in.Name, func(m *domain.Model) {
			if v := &m.Inputs[i].Value; v.IsText {
				v.Text += " other"
			} else {
				v.Num = v.Num*2 + 1
			}
		})
	}
	for i, f := range m.Formulas {
		add("formula "+f.Name, func(m *domain.Model) { m.Formulas[i].Source = "(" + m.Formulas[i].Source + ") * 2" })
	}
	for i, o := range m.Offers {
		add("offer "+o.Label(), func(m *domain.Model) { m.Offers[i].Price += 0.01 })
	}
	for i, a := range m.APIs {
		add("api "+a.Label(), func(m *domain.Model) { m.APIs[i].Output += 0.01 })
	}
	for i, g := range m.GPUs {
		add("gpu "+g.Name, func(m *domain.Model) { m.GPUs[i].MemoryGB++ })
	}
	for i, s := range m.Catalog {
		add("model "+s.Name, func(m *domain.Model) { m.Catalog[i].TotalParamsB++ })
	}
	for i, d := range m.Deployments {
		add("deployment "+d.Name, func(m *domain.Model) { m.Deployments[i].Replicas++ })
	}
	for i, c := range m.Correlations {
		add("correlation "+c.A+" ~ "+c.B, func(m *domain.Model) { m.Correlations[i].Rho /= 2 })
	}
	for i, sc := range m.Scenarios {
		for name := range sc.Set {
			add("scenario "+sc.Name+" "+name, func(m *domain.Model) {
				sc := &m.Scenarios[i]
				if _, linked := sc.Links[name]; linked { // the value is that cell's: point elsewhere
					sc.Links = maps.Clone(sc.Links)
					sc.Links[name] = "Assumptions!Z99"
					return
				}
				v := sc.Set[name]
				v.Num, v.Text = v.Num*2+1, v.Text+" other"
				sc.Set = maps.Clone(sc.Set)
				sc.Set[name] = v
			})
		}
	}
	for i, tt := range m.Targets {
		add("target "+tt.Name, func(m *domain.Model) { m.Targets[i].Name += "_other" })
	}
	for i, tb := range m.Tables {
		add("table "+tb.Name, func(m *domain.Model) { m.Tables[i].Row.Steps++ })
	}
	for i, g := range m.Goals {
		add("goal "+g.Name, func(m *domain.Model) { m.Goals[i].Value++ })
	}
	add("a model's active parameters", func(m *domain.Model) { m.Catalog[0].ActiveParamsB = 3 })
	add("a GPU's interconnect", func(m *domain.Model) { m.GPUs[len(m.GPUs)-1].Interconnect = "PCIe 5" })
	return out
}

// Moving rows, cells and notes is layout: the fingerprint stays.
func TestFingerprintIgnoresLayout(t *testing.T) {
	want := facts.Fingerprint(workbooks.DefaultModel())
	m := workbooks.DefaultModel()
	slices.Reverse(m.Inputs)
	slices.Reverse(m.Formulas)
	slices.Reverse(m.Offers)
	slices.Reverse(m.GPUs)
	slices.Reverse(m.Catalog)
	slices.Reverse(m.Deployments)
	slices.Reverse(m.APIs)
	for i := range m.Inputs {
		m.Inputs[i].Origin.Row += 10
		m.Inputs[i].Notes = "moved"
	}
	for i := range m.Offers {
		m.Offers[i].Source, m.Offers[i].Notes = "elsewhere", "moved"
	}
	for i := range m.GPUs {
		m.GPUs[i].Source = "elsewhere"
	}
	m.Where.File = "moved.xlsx"
	if got := facts.Fingerprint(m); got != want {
		t.Errorf("rows, cells and notes moved: fingerprint %s, want %s", got, want)
	}
}
