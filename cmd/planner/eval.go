package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"planner/diag"
	"planner/engine"
	"planner/evaluate"
	"planner/montecarlo"
	"planner/workbooks"
)

type evalOptions struct {
	scenarios []string // --scenario: the scenarios to print; all when empty
	output    string   // -o: write here instead of in place
	sets      []string // --set NAME=VALUE
	format    string   // text or json
	force     bool     // replace a foreign sheet called Results
	samples   int      // Monte Carlo samples per scenario
	seed      uint64   // Monte Carlo seed
	targets   []string // --target: what the tornado follows, instead of the Targets sheet
	check     bool     // --check: compare with a fresh evaluation, write nothing
	age       priceAge // --today, --max-price-age
}

func newEvalCmd() *cobra.Command {
	var opts evalOptions
	cmd := &cobra.Command{
		Use:   "eval WORKBOOK.xlsx...",
		Short: "Evaluate the workbook's formulas and write the Results sheet back into it",
		Long: fmt.Sprintf(`eval reads the sheets init writes, evaluates every formula, and writes planner's own
%d sheets back into the same workbook (or into -o OUT.xlsx), each when it has something
to show:

%s

Only planner's own sheets change; the file is replaced atomically, and not at all when
the results are already up to date or anything goes wrong. A workbook planner writes
carries, in its zip comment, a digest of its bytes and of the choices that decided them,
so that the same build of planner evaluating it again unchanged, on any machine, writes
nothing and takes a fraction of the time; planner also remembers each workbook a full eval
leaves up to date (a digest and its Monte Carlo results, sealed with a secret of the
user's, in the user's cache folder, planner/up-to-date), and then does not sample again.
Any edit to the file is noticed and evaluated in full. --check trusts neither, and
deleting the folder is always safe.
`, len(workbooks.OwnedSheets()), indented(diag.ListAnd(workbooks.OwnedSheets()))) + `
With --set, eval prints what-if results and leaves the workbook alone unless -o is given.
Several workbooks are evaluated one after another; one that fails does not stop the rest,
and the exit status is 1 if any failed, 2 if eval was interrupted.`,
		Example: `  planner eval plan.xlsx
  planner eval plan.xlsx --set capex=320000 --format json
  planner eval plan.xlsx --set utilization=264/730 -o what-if.xlsx
  planner eval a.xlsx b.xlsx`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(cmd, args, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.output, "output", "o", "", "write the evaluated workbook to `OUT.xlsx` and leave the input alone")
	f.StringArrayVar(&opts.sets, "set", nil, "override an input: `NAME=VALUE` (a number, 35%, an expression such as 264/730, or text); repeatable")
	formatFlag(cmd, &opts.format)
	f.BoolVar(&opts.force, "force", false, "replace a sheet called Results that planner did not make, and write a workbook that Excel's or LibreOffice's lock file says is open")
	f.IntVar(&opts.samples, "samples", montecarlo.DefaultSamples, "Monte Carlo samples per scenario")
	f.Uint64Var(&opts.seed, "seed", montecarlo.DefaultSeed, "Monte Carlo seed: the same seed gives the same numbers on any machine")
	f.BoolVar(&opts.check, "check", false, "write nothing; exit 1 and list what is stale when planner's sheets do not match a fresh evaluation")
	opts.age.flags(cmd)
	f.StringArrayVar(&opts.targets, "target", nil, "make the tornado follow this formula `NAME` instead of the Targets sheet's; repeatable")
	f.StringArrayVar(&opts.scenarios, "scenario", nil, "print only this `NAME`d scenario (base is the Assumptions' own values); repeatable; the workbook still gets every scenario")
	completeFlags(cmd, map[string]cobra.CompletionFunc{"scenario": complete(scenarioNames), "set": completeSet,
		"target": complete(formulaNames)})
	return cmd
}

func runEval(cmd *cobra.Command, files []string, opts evalOptions) error {
	var err error
	if opts.format, err = checkFormat(opts.format); err != nil {
		return err
	}
	if err := opts.evaluation(nil).Valid(); err != nil {
		return err
	}
	if opts.output != "" && len(files) > 1 {
		return fmt.Errorf("-o names one output file, but %d workbooks were given; evaluate them one at a time", len(files))
	}
	status := exitOK
	for i, path := range files {
		if cmd.Context().Err() != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "planner: interrupted; not evaluated: %s\n", diag.List(files[i:]))
			return failed{exitTrouble}
		}
		bar := newProgress(cmd.ErrOrStderr())
		rep, err := evaluate.Evaluate(cmd.Context(), path, opts.evaluation(bar.set))
		bar.finish()
		switch err := printReport(cmd, printed{Report: rep, err: err, only: opts.scenarios, quiet: opts.check}, opts.format); {
		case errors.Is(err, context.Canceled):
			status = exitTrouble
		case err != nil && status == exitOK:
			status = exitFailed
		}
	}
	if status != exitOK {
		return failed{status}
	}
	return nil
}

// evaluation is what the flags ask of evaluate.Evaluate.
func (o evalOptions) evaluation(progress func(phase string, done, total int)) evaluate.Options {
	return evaluate.Options{Output: o.output, Sets: o.sets, Force: o.force, Samples: o.samples, Seed: o.seed,
		Targets: o.targets, Scenarios: o.scenarios, Check: o.check, Prices: o.age.PriceAge, Version: version, Build: build,
		Progress: progress}
}

// printed is one workbook's report as the command prints it.
type printed struct {
	*evaluate.Report
	err   error
	only  []string // the scenarios to print; all when empty
	quiet bool     // print no table (--check)
}

// shown are the results to print: the scenarios asked for, or all (an
// evaluation asked for one the workbook lacks fails before it has any).
func (p printed) shown() []*engine.Result { return p.Report.Shown(p.only) }
