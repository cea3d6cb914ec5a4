package workbooks

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"planner/engine"
	"planner/formulas"
	"planner/montecarlo"
	"planner/sizing"
	"planner/workbooks/internal/schema"
)

// The default workbook: the article's figures (prices of 2026-10-10) as
// tab-separated text a reviewer can read.
//
//go:embed defaults/*.tsv
var defaultFiles embed.FS

// DefaultModel is the model planner init writes. A test proves the files
// parse and that the model builds; a broken default is a bug, so it panics.
func DefaultModel() engine.Model {
	m := engine.Model{Formulas: formulas.Library()}
	for _, r := range tsv("defaults/assumptions.tsv") {
		in := engine.Input{Name: r[0], Unit: r[2], Notes: r[6]}
		if r[2] == "text" {
			in.Value = engine.Text(r[1])
		} else {
			in.Value = engine.Num(mustFloat(r[1]))
		}
		if r[3] != "" {
			in.Low, in.High, in.HasRange = mustFloat(r[3]), mustFloat(r[4]), true
		}
		dist, err := montecarlo.ParseDistribution(r[5], in)
		if err != nil {
			panic(err)
		}
		in.Dist = dist
		m.Inputs = append(m.Inputs, in)
	}
	for _, r := range tsv("defaults/correlations.tsv") {
		m.Correlations = append(m.Correlations, engine.Correlation{A: r[0], B: r[1], Rho: mustFloat(r[2]), Notes: r[3]})
	}
	for _, r := range tsv("defaults/cloud.tsv") {
		m.Offers = append(m.Offers, engine.Offer{Provider: r[0], Name: r[1], GPU: r[2], Price: mustFloat(r[3]),
			AsOf: r[4], Source: r[5], Notes: r[6]})
	}
	for _, r := range tsv("defaults/gpus.tsv") {
		m.GPUs = append(m.GPUs, sizing.GPUSpec{Name: r[0], MemoryGB: mustFloat(r[1]), Watts: optFloat(r[2]), Interconnect: r[3], Source: r[4]})
	}
	for _, r := range tsv("defaults/models.tsv") {
		m.Catalog = append(m.Catalog, defaultModelSpec(r))
	}
	m.Scenarios = defaultScenarios(m)
	for _, r := range tsv("defaults/deployments.tsv") {
		d := engine.Deployment{Name: r[0], Model: r[1], Precision: r[2], GPU: r[3], Cards: int(optFloat(r[4])),
			Replicas: int(mustFloat(r[5])), Offer: r[9], Scenario: r[10], Notes: r[11],
			TokensPerReplica: optFloat(r[12]), PeakTokens: optFloat(r[13]), API: r[15]}
		if r[14] != "" {
			in, out, ok := strings.Cut(r[14], ":")
			if !ok {
				panic("defaults/deployments.tsv: mix " + r[14])
			}
			d.Mix, d.MixIn, d.MixOut = r[14], mustFloat(in), mustFloat(out)
		}
		d.HoursPerMonth, d.Usage = usage(optFloat(r[6]), optFloat(r[7]), optFloat(r[8]))
		m.Deployments = append(m.Deployments, d)
	}
	defaultWhatIfs(&m)
	return m
}

// defaultWhatIfs reads the tornado targets, data tables and goals.
func defaultWhatIfs(m *engine.Model) {
	for _, r := range tsv("defaults/targets.tsv") {
		m.Targets = append(m.Targets, engine.TargetSpec{Name: r[0], Notes: r[1]})
	}
	for _, r := range tsv("defaults/tables.tsv") {
		shade, ok := parseShade(r[10])
		if !ok {
			panic("defaults/tables.tsv: " + r[10])
		}
		t := engine.TableSpec{Name: r[0], Output: r[1], Row: defaultAxis(r[2:6]), Shade: shade, Notes: r[11]}
		if r[6] != "" {
			col := defaultAxis(r[6:10])
			t.Col = &col
		}
		m.Tables = append(m.Tables, t)
	}
	for _, r := range tsv("defaults/goals.tsv") {
		with, bad := parseSettings(r[5])
		if bad != "" {
			panic("defaults/goals.tsv: " + bad)
		}
		g := engine.Goal{Name: r[0], For: r[1], Target: r[2], Value: mustFloat(r[3]), Offer: r[4], With: with, Notes: r[8]}
		if r[6] != "" {
			g.Low, g.High, g.HasRange = mustFloat(r[6]), mustFloat(r[7]), true
		}
		m.Goals = append(m.Goals, g)
	}
}

// defaultAxis reads input, from, to, steps; "offer" is the offers axis.
func defaultAxis(r []string) engine.Axis {
	if r[0] == "offer" {
		return engine.Axis{Offers: true}
	}
	return engine.Axis{Input: r[0], From: mustFloat(r[1]), To: mustFloat(r[2]), Steps: int(mustFloat(r[3]))}
}

func defaultModelSpec(r []string) sizing.ModelSpec {
	s := sizing.ModelSpec{Name: r[0], TotalParamsB: mustFloat(r[1]), ActiveParamsB: optFloat(r[2]),
		Precision: r[3], BytesPerParam: optFloat(r[4]), Source: r[11]}
	if r[5] != "" {
		kv, _ := sizing.BytesPer(r[10])
		s.Arch = &sizing.Architecture{Layers: mustFloat(r[5]), KVHeads: mustFloat(r[6]), HeadDim: mustFloat(r[7]),
			Context: mustFloat(r[8]), Sequences: mustFloat(r[9]), KVBytes: kv}
	}
	return s
}

// defaultScenarios reads the scenarios file, one column per scenario.
func defaultScenarios(m engine.Model) []engine.Scenario {
	data, _ := defaultFiles.ReadFile("defaults/scenarios.tsv")
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	names := strings.Split(lines[0], "\t")[1:]
	out := make([]engine.Scenario, len(names))
	for i, n := range names {
		out[i] = engine.Scenario{Name: n, Set: map[string]engine.Value{}}
	}
	for _, line := range lines[1:] {
		cells := strings.Split(line, "\t")
		for i, c := range cells[1:] {
			switch in, _ := m.Input(cells[0]); {
			case c == "":
			case cells[0] == "notes":
				out[i].Notes = c
			case strings.HasPrefix(c, "="):
				// The input's own value or range end, by reference to its
				// Assumptions cell (init writes input k on row k+2).
				end := strings.TrimPrefix(c, "=")
				col := map[string]string{"low": "D", "value": "B", "high": "E"}[end]
				out[i].Set[cells[0]] = engine.Num(map[string]float64{"low": in.Low, "value": in.Value.Num, "high": in.High}[end])
				if out[i].Links == nil {
					out[i].Links = map[string]string{}
				}
				out[i].Links[cells[0]] = fmt.Sprintf("%s!%s%d", schema.Assumptions.Name, col, inputIndex(m, cells[0])+2)
			case in.Value.IsText:
				out[i].Set[cells[0]] = engine.Text(c)
			default:
				out[i].Set[cells[0]] = engine.Num(mustFloat(c))
			}
		}
	}
	return out
}

func inputIndex(m engine.Model, name string) int {
	for i, in := range m.Inputs {
		if in.Name == name {
			return i
		}
	}
	panic("defaults: no input " + name)
}

// usage turns a deployment's hours into hours per month and words.
func usage(perDay, days, perMonth float64) (float64, string) {
	if perMonth > 0 {
		return perMonth, strconv.FormatFloat(perMonth, 'g', -1, 64) + " h a month"
	}
	return perDay * days, strconv.FormatFloat(perDay, 'g', -1, 64) + " h × " + strconv.FormatFloat(days, 'g', -1, 64) + " days"
}

// tsv reads a tab-separated file without its header line.
func tsv(name string) [][]string {
	data, err := defaultFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	width := len(strings.Split(lines[0], "\t"))
	var rows [][]string
	for _, line := range lines[1:] {
		// Trimming the file takes the last line's empty cells with it.
		cells := strings.Split(line, "\t")
		rows = append(rows, append(cells, make([]string, max(0, width-len(cells)))...))
	}
	return rows
}

func mustFloat(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v
}

func optFloat(s string) float64 {
	if s == "" {
		return 0
	}
	return mustFloat(s)
}
