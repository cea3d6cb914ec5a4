package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"planner/engine"
	"planner/sizing"
	"planner/units"
	"planner/workbooks"
)

type sizeOptions struct {
	model       string   // a model of the catalog
	params      float64  // total parameters, billions
	active      float64  // active parameters of a MoE, billions
	precision   string   // BF16, FP8, ...
	gpus        []string // GPUs to size on; every catalog GPU when empty
	workbook    string   // take catalogs and assumptions from this workbook
	kvHeadroom  float64  // KV reserve as a share of the weights, when kvGiven
	kvGiven     bool
	arch        sizing.Architecture
	kvPrecision string
	format      string
}

func newSizeCmd() *cobra.Command {
	var opts sizeOptions
	cmd := &cobra.Command{
		Use:   "size",
		Short: "How many GPUs one replica of a model needs",
		Long: `size computes, for a model on each GPU, the weights in GB, the minimum cards for the
weights, that minimum rounded up to a tensor-parallel size (1, 2, 4, 8, 16), the usual
count with a KV-cache reserve, the memory left for KV per replica, and whether the
weights fit one node. The GPU and model catalogs and kv_headroom come from the built-in
default workbook, or from --workbook.`,
		Example: `  planner size --params 70 --precision fp8 --gpu "H100 SXM"
  planner size --model "DeepSeek-R1 (671B MoE)" --format json
  planner size --params 70 --precision fp8 --layers 80 --kv-heads 8 --head-dim 128 --context 32768 --sequences 32`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.kvGiven = cmd.Flags().Changed("kv-headroom")
			return runSize(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.model, "model", "", "size this `NAME` from the Models catalog")
	f.Float64Var(&opts.params, "params", 0, "total parameters, in `BILLIONS` (a MoE counts all of them)")
	f.Float64Var(&opts.active, "active", 0, "active parameters of a MoE, in `BILLIONS` (for the record: fit depends on the total)")
	f.StringVar(&opts.precision, "precision", "", "weights' precision: "+sizing.PrecisionNames())
	f.StringArrayVar(&opts.gpus, "gpu", nil, "size on this `GPU` of the catalog; repeatable; default every GPU")
	f.StringVar(&opts.workbook, "workbook", "", "take the GPU and model catalogs and kv_headroom from `WORKBOOK.xlsx`")
	f.Float64Var(&opts.kvHeadroom, "kv-headroom", 0, "KV-cache reserve as a `SHARE` of the weights, for a model without an architecture (default: the workbook's kv_headroom)")
	f.Float64Var(&opts.arch.Layers, "layers", 0, "architecture: layers")
	f.Float64Var(&opts.arch.KVHeads, "kv-heads", 0, "architecture: KV heads")
	f.Float64Var(&opts.arch.HeadDim, "head-dim", 0, "architecture: head dimension")
	f.Float64Var(&opts.arch.Context, "context", 0, "architecture: tokens of context per sequence")
	f.Float64Var(&opts.arch.Sequences, "sequences", 0, "architecture: sequences held at once")
	f.StringVar(&opts.kvPrecision, "kv-precision", "", "architecture: KV-cache precision (default: the weights')")
	f.StringVar(&opts.format, "format", "table", "output format: table or json")
	return cmd
}

func runSize(cmd *cobra.Command, opts sizeOptions) error {
	if opts.format != "table" && opts.format != "json" {
		return fmt.Errorf("--format %s: use table or json", opts.format)
	}
	catalog := workbooks.DefaultModel()
	if opts.workbook != "" {
		book, err := workbooks.Read(opts.workbook)
		if err != nil {
			return report(cmd, err)
		}
		catalog = book.Model
	}
	m, err := modelToSize(opts, &catalog)
	if err != nil {
		return err
	}
	gpus, err := gpusToSize(opts.gpus, &catalog)
	if err != nil {
		return err
	}
	rule, err := sizingRule(opts, &catalog)
	if err != nil {
		return err
	}
	var sizes []sizing.Result
	for _, g := range gpus {
		s, err := sizing.Size(m, g, rule)
		if err != nil {
			return err
		}
		sizes = append(sizes, s)
	}
	if opts.format == "json" {
		return writeSizesJSON(cmd.OutOrStdout(), m, gpus, sizes)
	}
	writeSizes(cmd.OutOrStdout(), m, gpus, sizes, rule)
	return nil
}

// modelToSize is the catalog model --model names, or the one the flags
// describe.
func modelToSize(opts sizeOptions, catalog *engine.Model) (sizing.ModelSpec, error) {
	var m sizing.ModelSpec
	switch {
	case opts.model != "" && opts.params != 0:
		return m, fmt.Errorf("give either --model or --params, not both")
	case opts.model != "":
		var ok bool
		if m, ok = catalog.ModelSpec(opts.model); !ok {
			return m, fmt.Errorf("--model %s: not in the Models catalog; known models: %s", opts.model, catalogNames(catalog))
		}
	case opts.params < 0 || opts.active < 0 || opts.active > opts.params:
		return m, fmt.Errorf("--params %g --active %g: parameters must be above zero, and active ones at most the total", opts.params, opts.active)
	case opts.params == 0:
		return m, fmt.Errorf("say what to size: --params 70 --precision fp8, or --model NAME from the catalog (%s)", catalogNames(catalog))
	default:
		m = sizing.ModelSpec{Name: fmt.Sprintf("%gB", opts.params), TotalParamsB: opts.params, ActiveParamsB: opts.active, Precision: opts.precision}
		if opts.precision == "" {
			return m, fmt.Errorf("--params %g: give its --precision too (%s)", opts.params, sizing.PrecisionNames())
		}
	}
	if opts.precision != "" {
		if _, ok := sizing.BytesPer(opts.precision); !ok {
			return m, fmt.Errorf("--precision %s: not known; use one of %s", opts.precision, sizing.PrecisionNames())
		}
		m.Precision, m.BytesPerParam = opts.precision, 0
	}
	arch, err := architecture(opts, m.Precision)
	if err != nil {
		return m, err
	}
	if arch != nil {
		m.Arch = arch
	}
	return m, nil
}

// architecture reads the architecture flags: all five or none.
func architecture(opts sizeOptions, precision string) (*sizing.Architecture, error) {
	a := opts.arch
	set := 0
	for _, v := range []float64{a.Layers, a.KVHeads, a.HeadDim, a.Context, a.Sequences} {
		if v < 0 {
			return nil, fmt.Errorf("architecture values must be above zero")
		}
		if v > 0 {
			set++
		}
	}
	switch set {
	case 0:
		return nil, nil
	case 5:
	default:
		return nil, fmt.Errorf("an architecture needs all of --layers, --kv-heads, --head-dim, --context and --sequences")
	}
	kv := opts.kvPrecision
	if kv == "" {
		kv = precision
	}
	b, ok := sizing.BytesPer(kv)
	if !ok {
		return nil, fmt.Errorf("--kv-precision %s: not known; use one of %s", kv, sizing.PrecisionNames())
	}
	a.KVBytes = b
	return &a, nil
}

func gpusToSize(names []string, catalog *engine.Model) ([]sizing.GPUSpec, error) {
	if len(names) == 0 {
		return catalog.GPUs, nil
	}
	var out []sizing.GPUSpec
	for _, n := range names {
		g, ok := catalog.GPUSpec(n)
		if !ok {
			var known []string
			for _, g := range catalog.GPUs {
				known = append(known, g.Name)
			}
			return nil, fmt.Errorf("--gpu %s: not in the GPUs catalog; known GPUs: %s", n, strings.Join(known, ", "))
		}
		out = append(out, g)
	}
	return out, nil
}

func sizingRule(opts sizeOptions, catalog *engine.Model) (sizing.Rule, error) {
	rule := sizing.Rule{KVHeadroom: opts.kvHeadroom, NodeGPUs: 8}
	if in, ok := catalog.Input(engine.GPUs); ok && !in.Value.IsText {
		rule.NodeGPUs = int(in.Value.Num)
	}
	if opts.kvGiven && (!(opts.kvHeadroom >= 0) || opts.kvHeadroom > 10) {
		return rule, fmt.Errorf("--kv-headroom %g: give a share of the weights between 0 and 10 (0.4 is 40 %%)", opts.kvHeadroom)
	}
	if !opts.kvGiven {
		in, ok := catalog.Input(engine.KVHeadroom)
		if !ok || in.Value.IsText {
			return rule, fmt.Errorf("the workbook has no number input kv_headroom; pass --kv-headroom 0.4")
		}
		rule.KVHeadroom = in.Value.Num
	}
	return rule, nil
}

func catalogNames(m *engine.Model) string {
	var names []string
	for _, s := range m.Catalog {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

type sizeJSON struct {
	Model          string  `json:"model"`
	Precision      string  `json:"precision"`
	ParamsB        float64 `json:"params_b"`
	GPU            string  `json:"gpu"`
	GPUMemoryGB    float64 `json:"gpu_memory_gb"`
	WeightsGB      float64 `json:"weights_gb"`
	KVReserveGB    float64 `json:"kv_reserve_gb"`
	MinCards       int     `json:"min_cards"`
	MinCardsTP     int     `json:"min_cards_tp"`
	UsualCards     int     `json:"usual_cards"`
	KVGBPerReplica float64 `json:"kv_gb_per_replica"`
	FitsNode       bool    `json:"fits_node"`
	Note           string  `json:"note"`
}

// writeSizesJSON prints one JSON object per GPU sized.
func writeSizesJSON(w io.Writer, m sizing.ModelSpec, gpus []sizing.GPUSpec, sizes []sizing.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	for i, s := range sizes {
		err := enc.Encode(sizeJSON{Model: m.Name, Precision: strings.ToUpper(m.Precision), ParamsB: m.TotalParamsB,
			GPU: s.GPU, GPUMemoryGB: gpus[i].MemoryGB, WeightsGB: s.WeightsGB, KVReserveGB: s.KVGB,
			MinCards: s.MinCards, MinCardsTP: s.MinCardsTP, UsualCards: s.UsualCards,
			KVGBPerReplica: s.KVGBPerReplica, FitsNode: s.FitsNode, Note: s.Note})
		if err != nil {
			return err
		}
	}
	return nil
}

func writeSizes(w io.Writer, m sizing.ModelSpec, gpus []sizing.GPUSpec, sizes []sizing.Result, rule sizing.Rule) {
	kv := fmt.Sprintf("KV reserve %s of the weights", units.Format(rule.KVHeadroom, units.Share))
	if m.Arch != nil {
		kv = "KV reserve from the architecture"
	}
	params := fmt.Sprintf("%gB parameters", m.TotalParamsB)
	if m.ActiveParamsB > 0 {
		params = fmt.Sprintf("%gB total, %gB active", m.TotalParamsB, m.ActiveParamsB)
	}
	fmt.Fprintf(w, "%s · %s · %s · %s\n\n", m.Name, params, strings.ToUpper(m.Precision), kv)
	t := &table{right: []bool{false, true, true, true, true, true, true, false, false}}
	t.add("gpu", "memory", "weights", "min cards (TP)", "usual cards", "KV reserve", "KV left", "fits node", "note")
	for i, s := range sizes {
		fits := "no"
		if s.FitsNode {
			fits = "yes"
		}
		left := gb(s.KVGBPerReplica)
		if s.MinCardsTP == 0 {
			left = "-"
		}
		t.add(s.GPU, gb(gpus[i].MemoryGB), gb(s.WeightsGB), cards(s.MinCardsTP), cards(s.UsualCards), gb(s.KVGB), left, fits, s.Note)
	}
	t.write(w)
}

// gb prints gigabytes: whole when whole, else to a tenth.
func gb(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f GB", v)
	}
	return fmt.Sprintf("%.1f GB", v)
}

func cards(n int) string {
	if n == 0 {
		return "> 16"
	}
	return fmt.Sprint(n)
}
