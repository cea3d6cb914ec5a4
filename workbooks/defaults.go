package workbooks

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/montecarlo"
	"planner/sizing"
	"planner/units"
	"planner/workbooks/internal/schema"
)

// The default workbook: the article's figures (prices of 2026-10-10) as
// tab-separated text a reviewer can read.
//
//go:embed defaults/*.tsv
var defaultFiles embed.FS

// DefaultModel is the model planner init writes: each input sheet's
// defaults, as its reader's row gives them. A test proves the files parse
// and that the model builds; a broken default is a bug, so it panics.
func DefaultModel() domain.Model {
	var m domain.Model
	for _, sr := range sheetReaders {
		if sr.defaults != nil {
			sr.defaults(&m)
		}
	}
	return m
}

// fromDefaults reads the sheet's defaults table, one item per row.
func fromDefaults[T any](s schema.Sheet, item func(defaultRow) T) []T {
	var out []T
	for _, r := range defaultRows(s) {
		out = append(out, item(r))
	}
	return out
}

func defaultOffer(r defaultRow) domain.Offer {
	return domain.Offer{Provider: r["provider"], Name: r["offer"], GPU: r["gpu"], Price: r.num("price"),
		AsOf: r["asof"], Source: r["source"], Notes: r["notes"]}
}

func defaultFX(r defaultRow) domain.FXRate {
	return domain.FXRate{Currency: r["currency"], Rate: r.num("rate"), AsOf: r["asof"], Source: r["source"]}
}

func defaultGPU(r defaultRow) sizing.GPUSpec {
	return sizing.GPUSpec{Name: r["name"], MemoryGB: r.num("memory"), Watts: r.opt("watts"), IdleWatts: r.opt("idlewatts"),
		BandwidthTBs: r.opt("bandwidth"), Interconnect: r["interconnect"], Source: r["source"], AsOf: r["asof"]}
}

func defaultCorrelation(r defaultRow) domain.Correlation {
	return domain.Correlation{A: r["a"], B: r["b"], Rho: r.num("rho"), Notes: r["notes"]}
}

func defaultInput(r defaultRow) domain.Input {
	in := domain.Input{Name: r["name"], Unit: r["unit"], Notes: r["notes"]}
	if in.Unit == units.Text {
		in.Value = domain.Text(r["value"])
	} else {
		in.Value = domain.Num(r.num("value"))
	}
	if r["low"] != "" {
		in.Low, in.High, in.HasRange = r.num("low"), r.num("high"), true
	}
	dist, err := montecarlo.ParseDistribution(r["distribution"], in)
	if err != nil {
		panic(err)
	}
	in.Dist = dist
	return in
}

func defaultDeployment(r defaultRow) domain.Deployment {
	d := domain.Deployment{Name: r["name"], Model: r["model"], Precision: r["precision"], GPU: r["gpu"], Cards: int(r.opt("cards")),
		Replicas: int(r.num("replicas")), Offer: r["offer"], Scenario: r["scenario"], Notes: r["notes"],
		TokensPerReplica: r.opt("tokens"), PeakTokens: r.opt("peak"), API: r["api"]}
	if mix := r["mix"]; mix != "" {
		in, out, ok := strings.Cut(mix, ":")
		if !ok {
			panic("defaults: Deployments: mix " + mix)
		}
		d.Mix, d.MixIn, d.MixOut = mix, mustFloat(in), mustFloat(out)
	}
	d.HoursPerMonth, d.Usage = usage(r.opt("hoursday"), r.opt("days"), r.opt("hoursmonth"))
	return d
}

func defaultTarget(r defaultRow) domain.TargetSpec {
	return domain.TargetSpec{Name: r["name"], Notes: r["notes"]}
}

func defaultDataTable(r defaultRow) domain.TableSpec {
	shade, ok := parseShade(r["shade"])
	if !ok {
		panic("defaults: Tables: " + r["shade"])
	}
	t := domain.TableSpec{Name: r["name"], Output: r["output"], Row: r.axis("row"), Shade: shade, Notes: r["notes"]}
	if r["colinput"] != "" {
		col := r.axis("col")
		t.Col = &col
	}
	return t
}

func defaultGoal(r defaultRow) domain.Goal {
	with, bad := parseSettings(r["with"])
	if bad != "" {
		panic("defaults: Goals: " + bad)
	}
	g := domain.Goal{Name: r["name"], For: r["for"], Target: r["target"], Value: r.num("value"), Offer: r["offer"], With: with, Notes: r["notes"]}
	if r["low"] != "" {
		g.Low, g.High, g.HasRange = r.num("low"), r.num("high"), true
	}
	return g
}

// axis reads a table's row or column axis (prefix "row" or "col"): input,
// from, to, steps; "offer" is the offers axis.
func (r defaultRow) axis(prefix string) domain.Axis {
	if r[prefix+"input"] == "offer" {
		return domain.Axis{Offers: true}
	}
	return domain.Axis{Input: r[prefix+"input"], From: r.num(prefix + "from"), To: r.num(prefix + "to"), Steps: int(r.num(prefix + "steps"))}
}

func defaultModelSpec(r defaultRow) sizing.ModelSpec {
	s := sizing.ModelSpec{Name: r["name"], TotalParamsB: r.num("total"), ActiveParamsB: r.opt("active"),
		Precision: r["precision"], BytesPerParam: r.opt("bytes"), Source: r["source"]}
	if r["layers"] != "" {
		kv, _ := sizing.BytesPer(r["kvprecision"])
		layout, _ := sizing.AttentionNamed(r["attention"])
		s.Arch = &sizing.Architecture{Layers: r.num("layers"), KVHeads: r.opt("kvheads"), HeadDim: r.opt("headdim"),
			Context: r.num("context"), Sequences: r.num("sequences"), KVBytes: kv, Attention: layout,
			LatentDim: r.opt("latentdim"), RopeDim: r.opt("ropedim"), Window: r.opt("window"), WindowedLayers: r.opt("windowedlayers")}
	}
	return s
}

// defaultScenarios reads the scenarios file, one column per scenario.
func defaultScenarios(m domain.Model) []domain.Scenario {
	lines := tsvLines("scenarios.tsv")
	names := strings.Split(lines[0], "\t")[1:]
	out := make([]domain.Scenario, len(names))
	for i, n := range names {
		out[i] = domain.Scenario{Name: n, Set: map[string]domain.Value{}}
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
				col := diag.ColumnName(schema.Assumptions.At(end))
				out[i].Set[cells[0]] = domain.Num(map[string]float64{"low": in.Low, "value": in.Value.Num, "high": in.High}[end])
				if out[i].Links == nil {
					out[i].Links = map[string]string{}
				}
				out[i].Links[cells[0]] = fmt.Sprintf("%s!%s%d", schema.Assumptions.Name, col, inputIndex(m, cells[0])+2)
			case in.Value.IsText:
				out[i].Set[cells[0]] = domain.Text(c)
			default:
				out[i].Set[cells[0]] = domain.Num(mustFloat(c))
			}
		}
	}
	return out
}

func inputIndex(m domain.Model, name string) int {
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

// defaultRow is a row of a defaults table, by column key.
type defaultRow map[string]string

func (r defaultRow) num(key string) float64 { return mustFloat(r[key]) }
func (r defaultRow) opt(key string) float64 { return optFloat(r[key]) }

// defaultRows reads the sheet's defaults table, defaults/<sheet>.tsv: a
// header row the sheet's reader would accept, then one item per line.
func defaultRows(s schema.Sheet) []defaultRow {
	lines := tsvLines(strings.ToLower(s.Name) + ".tsv")
	var keys []string
	for _, h := range strings.Split(lines[0], "\t") {
		key, ok := s.KeyOf(h)
		if !ok {
			panic("defaults: " + s.Name + " has no column " + h)
		}
		keys = append(keys, key)
	}
	var rows []defaultRow
	for _, line := range lines[1:] {
		r := defaultRow{}
		for i, cell := range strings.Split(line, "\t") {
			r[keys[i]] = cell
		}
		rows = append(rows, r)
	}
	return rows
}

// defaultCells is the sheet's defaults table as init writes it: each row's
// cells by column key.
func defaultCells(s schema.Sheet) []map[string]string {
	var out []map[string]string
	for _, r := range defaultRows(s) {
		out = append(out, r)
	}
	return out
}

// tsvLines are the lines of a defaults file; trimming the file takes the
// last line's empty cells with it, which a missing key gives back.
func tsvLines(name string) []string {
	data, err := defaultFiles.ReadFile("defaults/" + name)
	if err != nil {
		panic(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
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
