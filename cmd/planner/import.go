package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"planner/benchmarks"
	"planner/domain"
	"planner/evaluate"
	"planner/internal/safefile"
	"planner/workbooks"
)

func newImportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Add measured figures to a workbook's input sheets",
		Long:  "import adds figures measured elsewhere to a workbook's input sheets; bench adds benchmark runs to the Benchmarks sheet.",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newImportBenchCmd())
	return cmd
}

// benchFlags are what the command line says of the points the files do
// not.
type benchFlags struct {
	into string
	benchmarks.Given
}

func newImportBenchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench FILE... --into WORKBOOK.xlsx",
		Short: "Add benchmark runs (vllm bench serve, GenAI-Perf, AIPerf) to the Benchmarks sheet",
		Long: `bench adds the measured points of each FILE to the Benchmarks sheet of WORKBOOK, one
row a run: GPU, model, precision, cards per replica, concurrency (or request rate),
output and total tokens per second, TTFT, TPOT and inter-token latency at p50, p90 and
p99 as the file gives them, the file and its date. It reads ` + benchmarks.Formats + `.

A file that does not say its GPU, model, precision, cards per replica or load takes
them from --gpu, --model, --precision, --cards and --concurrency (or --request-rate);
a flag given stands for what every file says. A point the sheet holds already, figure
for figure, is not added again, so importing a file twice adds nothing. Only the
Benchmarks sheet changes (planner writes it when the workbook has none); every other
sheet is kept byte for byte. A deployment with a ttft target ms or a tpot target ms
reads its tokens per second per replica from these points when planner eval runs.`,
		Example: `  planner import bench results/*.json --gpu "H100 SXM" --model "Llama 3.1 70B" --precision fp8 --cards 4 --into plan.xlsx
  planner import bench artifacts/*/profile_export_genai_perf.json --gpu "H100 SXM" --precision fp8 --cards 1 --into plan.xlsx`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImportBench(cmd, args, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.into, "into", "", "the workbook to add the points to (required)")
	fl.StringVar(&f.GPU, "gpu", "", "the GPU the runs were measured on, as the GPUs sheet names it")
	fl.StringVar(&f.Model, "model", "", "the model the runs served, as the Models sheet names it")
	fl.StringVar(&f.Precision, "precision", "", "the precision the model was served at, such as fp8")
	fl.IntVar(&f.Cards, "cards", 0, "the cards per replica the runs were measured on")
	fl.Float64Var(&f.Concurrency, "concurrency", 0, "the concurrency of a run whose file does not say it")
	fl.Float64Var(&f.RequestRate, "request-rate", 0, "the request rate per second of a run whose file does not say it")
	_ = cmd.MarkFlagRequired("into")
	_ = cmd.RegisterFlagCompletionFunc("into", workbookArgs)
	return cmd
}

// maxBenchBytes is the largest benchmark file planner reads: a result
// saved with every request's details is large, but not this large.
const maxBenchBytes = 256 << 20

func runImportBench(cmd *cobra.Command, files []string, f benchFlags) error {
	if f.Cards < 0 || f.Concurrency < 0 || f.RequestRate < 0 {
		return report(cmd, errors.New("--cards, --concurrency and --request-rate count something: give numbers above zero"))
	}
	var points []domain.Benchmark
	for _, name := range files {
		data, err := readBench(name)
		if err != nil {
			return report(cmd, err)
		}
		read, err := benchmarks.Read(name, data, f.Given)
		if err != nil {
			return report(cmd, err)
		}
		points = append(points, read...)
	}
	if err := safefile.CheckNotOpen(f.into); err != nil {
		return report(cmd, err)
	}
	unlock, err := safefile.Lock(f.into, evaluate.LockWait)
	if err != nil {
		return report(cmd, err)
	}
	defer unlock()
	in, err := workbooks.ImportBenchmarks(f.into, points)
	if err != nil {
		return report(cmd, err)
	}
	if in.Added == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: the %s sheet holds every point of these files already; nothing written\n", f.into, in.Sheet)
		return nil
	}
	if err := workbooks.Save(f.into, in.Data, in.Original); err != nil {
		return report(cmd, workbooks.RunAgain(err, "the import"))
	}
	for _, w := range in.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", oneLine(w.Error()))
	}
	present := ""
	if in.Present > 0 {
		present = fmt.Sprintf(" (%s there already)", counted(in.Present))
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: added %s to the %s sheet%s; run %s\n",
		f.into, counted(in.Added), in.Sheet, present, workbooks.Command("eval", f.into))
	return nil
}

// counted is n measured points in words.
func counted(n int) string {
	if n == 1 {
		return "1 measured point"
	}
	return fmt.Sprintf("%d measured points", n)
}

// readBench reads a benchmark file, refusing one too large to be one.
func readBench(name string) ([]byte, error) {
	file, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: cannot be read: %v; give the path of a benchmark result", name, err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxBenchBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot be read: %v", name, err)
	}
	if len(data) > maxBenchBytes {
		return nil, fmt.Errorf("%s: is larger than the %d MB planner reads of a benchmark result; save the result without per-request details", name, maxBenchBytes>>20)
	}
	return data, nil
}
