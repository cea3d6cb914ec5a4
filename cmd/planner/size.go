package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"planner/evaluate"
	"planner/sizing"
	"planner/units"
	"planner/workbooks"
)

type sizeOptions struct {
	evaluate.SizeRequest
	workbook string // take catalogs and assumptions from this workbook
	format   string
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
			opts.KVGiven = cmd.Flags().Changed("kv-headroom")
			return runSize(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Model, "model", "", "size this `NAME` from the Models catalog")
	f.Float64Var(&opts.Params, "params", 0, "total parameters, in `BILLIONS` (a MoE counts all of them)")
	f.Float64Var(&opts.Active, "active", 0, "active parameters of a MoE, in `BILLIONS` (for the record: fit depends on the total)")
	f.StringVar(&opts.Precision, "precision", "", "weights' precision: "+sizing.PrecisionNames())
	f.StringArrayVar(&opts.GPUs, "gpu", nil, "size on this `GPU` of the catalog; repeatable; default every GPU")
	f.StringVar(&opts.workbook, "workbook", "", "take the GPU and model catalogs and kv_headroom from `WORKBOOK.xlsx`")
	f.Float64Var(&opts.KVHeadroom, "kv-headroom", 0, "KV-cache reserve as a `SHARE` of the weights, for a model without an architecture (default: the workbook's kv_headroom)")
	f.Float64Var(&opts.Arch.Layers, "layers", 0, "architecture: layers")
	f.Float64Var(&opts.Arch.KVHeads, "kv-heads", 0, "architecture: KV heads")
	f.Float64Var(&opts.Arch.HeadDim, "head-dim", 0, "architecture: head dimension")
	f.Float64Var(&opts.Arch.Context, "context", 0, "architecture: tokens of context per sequence")
	f.Float64Var(&opts.Arch.Sequences, "sequences", 0, "architecture: sequences held at once")
	f.StringVar(&opts.KVPrecision, "kv-precision", "", "architecture: KV-cache precision (default: the weights')")
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
	sized, err := evaluate.Size(opts.SizeRequest, catalog)
	if err != nil {
		return err
	}
	m, gpus, sizes, rule := sized.Model, sized.GPUs, sized.Sizes, sized.Rule
	if opts.format == "json" {
		return writeSizesJSON(cmd.OutOrStdout(), m, gpus, sizes)
	}
	writeSizes(cmd.OutOrStdout(), m, gpus, sizes, rule)
	return nil
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
