package main

import (
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
		Use:   "size [WORKBOOK.xlsx]",
		Short: "How many GPUs one replica of a model needs",
		Long: `size computes, for a model on each GPU, the weights in GB, the minimum cards for the
weights, that minimum rounded up to a tensor-parallel size (1, 2, 4, 8, 16), the usual
count with a KV-cache reserve, the memory left for KV per replica, and whether the
weights fit one node. The GPU and model catalogs and kv_headroom come from the built-in
default workbook, or from WORKBOOK.xlsx.`,
		Example: `  planner size --params 70 --precision fp8 --gpu "H100 SXM"
  planner size plan.xlsx --model "DeepSeek-R1 (671B MoE)" --format json
  planner size --params 70 --precision fp8 --layers 80 --kv-heads 8 --head-dim 128 --context 32768 --sequences 32`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.KVGiven = cmd.Flags().Changed("kv-headroom")
			if len(args) == 1 {
				if opts.workbook != "" && opts.workbook != args[0] {
					return fmt.Errorf("--workbook %s and %s: name one workbook, as the argument", opts.workbook, args[0])
				}
				opts.workbook = args[0]
			}
			warnOld(cmd, "workbook", "name the workbook as the argument, as the other commands do: planner size WORKBOOK.xlsx")
			return runSize(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Model, "model", "", "size this `NAME` from the Models catalog")
	f.Float64Var(&opts.Params, "params", 0, "total parameters, in `BILLIONS` (a MoE counts all of them)")
	f.Float64Var(&opts.Active, "active", 0, "active parameters of a MoE, in `BILLIONS` (for the record: fit depends on the total)")
	f.StringVar(&opts.Precision, "precision", "", "weights' precision: "+sizing.PrecisionNames())
	f.StringArrayVar(&opts.GPUs, "gpu", nil, "size on this `GPU` of the catalog; repeatable; default every GPU")
	f.StringVar(&opts.workbook, "workbook", "", "the old way to name the workbook")
	_ = f.MarkHidden("workbook")
	f.Float64Var(&opts.KVHeadroom, "kv-headroom", 0, "KV-cache reserve as a `SHARE` of the weights, for a model without an architecture (default: the workbook's kv_headroom)")
	f.Float64Var(&opts.Arch.Layers, "layers", 0, "architecture: layers")
	f.Float64Var(&opts.Arch.KVHeads, "kv-heads", 0, "architecture: KV heads")
	f.Float64Var(&opts.Arch.HeadDim, "head-dim", 0, "architecture: head dimension")
	f.Float64Var(&opts.Arch.Context, "context", 0, "architecture: tokens of context per sequence")
	f.Float64Var(&opts.Arch.Sequences, "sequences", 0, "architecture: sequences held at once")
	f.StringVar(&opts.KVPrecision, "kv-precision", "", "architecture: KV-cache precision (default: the weights')")
	formatFlag(cmd, &opts.format)
	completeFlags(cmd, map[string]cobra.CompletionFunc{"gpu": complete(gpuNames), "model": complete(modelNames),
		"precision": cobra.FixedCompletions(sizing.Precisions(), cobra.ShellCompDirectiveNoFileComp)})
	return cmd
}

func runSize(cmd *cobra.Command, opts sizeOptions) error {
	var err error
	if opts.format, err = checkFormat(opts.format); err != nil {
		return err
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
	if opts.format == "json" {
		return writeDoc(cmd.OutOrStdout(), sized.JSON(opts.workbook))
	}
	writeSizes(cmd.OutOrStdout(), sized.Model, sized.GPUs, sized.Sizes, sized.Rule)
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
