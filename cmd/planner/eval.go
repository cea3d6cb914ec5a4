package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"planner/deploy"
	"planner/engine"
	"planner/formulas"
	"planner/internal/safefile"
	"planner/montecarlo"
	"planner/sizing"
	"planner/units"
	"planner/whatif"
	"planner/workbooks"
)

type evalOptions struct {
	scenarios []string // --scenario: the scenarios to print; all when empty
	output    string   // -o: write here instead of in place
	sets      []string // --set NAME=VALUE
	format    string   // table or json
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
		Long: `eval reads Assumptions, Cloud and Formulas, evaluates every formula, and writes the
Results sheet back into the same workbook (or into -o OUT.xlsx). Only planner's own
sheets change; the file is replaced atomically, and not at all when the results are
already up to date or anything goes wrong.

With --set, eval prints what-if results and leaves the workbook alone unless -o is given.
Several workbooks are evaluated one after another; one that fails does not stop the rest,
and the exit status is 1 if any failed.`,
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
	f.StringVar(&opts.format, "format", "table", "output format: table or json")
	f.BoolVar(&opts.force, "force", false, "replace a sheet called Results that planner did not make, and write a workbook that Excel's or LibreOffice's lock file says is open")
	f.IntVar(&opts.samples, "samples", montecarlo.DefaultSamples, "Monte Carlo samples per scenario")
	f.Uint64Var(&opts.seed, "seed", montecarlo.DefaultSeed, "Monte Carlo seed: the same seed gives the same numbers on any machine")
	f.BoolVar(&opts.check, "check", false, "write nothing; exit 1 and list what is stale when planner's sheets do not match a fresh evaluation")
	opts.age.flags(cmd)
	f.StringArrayVar(&opts.targets, "target", nil, "make the tornado follow this formula `NAME` instead of the Targets sheet's; repeatable")
	f.StringArrayVar(&opts.scenarios, "scenario", nil, "print only this `NAME`d scenario (base is the Assumptions' own values); repeatable; the workbook still gets every scenario")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"table", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runEval(cmd *cobra.Command, files []string, opts evalOptions) error {
	if opts.format != "table" && opts.format != "json" {
		return fmt.Errorf("--format %s: use table or json", opts.format)
	}
	if err := montecarlo.CheckSamples(opts.samples); err != nil {
		return fmt.Errorf("--samples: %v", err)
	}
	if err := opts.age.check(); err != nil {
		return err
	}
	if opts.check && (opts.output != "" || len(opts.sets) > 0 || len(opts.targets) > 0) {
		return fmt.Errorf("--check compares the workbook with a fresh evaluation of its own inputs; it does not take -o, --set or --target")
	}
	if opts.output != "" && len(files) > 1 {
		return fmt.Errorf("-o names one output file, but %d workbooks were given; evaluate them one at a time", len(files))
	}
	status := exitOK
	for _, path := range files {
		if cmd.Context().Err() != nil {
			return failed{exitFailed}
		}
		rep := evalFile(cmd.Context(), path, opts, cmd.ErrOrStderr())
		printReport(cmd, rep, opts.format)
		if rep.err != nil {
			status = exitFailed
		}
	}
	if status != exitOK {
		return failed{status}
	}
	return nil
}

// shown are the results to print: the scenarios asked for, or all.
func (rep *fileReport) shown() []*engine.Result {
	if len(rep.only) == 0 {
		return rep.results
	}
	var out []*engine.Result
	for _, r := range rep.results {
		for _, name := range rep.only {
			if r.Scenario == name {
				out = append(out, r)
			}
		}
	}
	return out
}

// fileReport is what became of one workbook.
type fileReport struct {
	only        []string // the scenarios to print
	quiet       bool     // print no table (--check)
	early       []string // warnings from before the workbook was read
	file        string
	plan        *engine.Plan
	results     []*engine.Result // base first, then every scenario
	sizing      []sizing.Result
	deployments []deploy.Result
	montecarlo  []*montecarlo.Result // one per scenario, as results
	whatifs     *whatif.Report
	set         map[string]engine.Value          // --set overrides
	names       map[string]workbooks.DefinedName // the workbook's defined names as read
	warnings    []string
	writing     []string // warnings from writing planner's sheets
	model       []string // warnings about the model and the --set values, from the engine
	note        string   // what happened to the file, for stderr
	err         error
}

func evalFile(ctx context.Context, path string, opts evalOptions, stderr io.Writer) *fileReport {
	rep := &fileReport{file: path, quiet: opts.check}
	target := path
	if opts.output != "" {
		switch {
		case !safefile.SameFile(opts.output, path):
			target = opts.output
		case len(opts.sets) > 0:
			rep.err = fmt.Errorf("%s: -o %s is this same workbook; planner saves --set results, a what-if, only into another file, so that %s keeps the results of its own inputs: name a new file, such as -o what-if.xlsx",
				path, opts.output, path)
			return rep
		default:
			// -o naming the workbook itself, by whatever path, link or
			// hard link, is eval in place.
			opts.output = ""
		}
	}
	if writes := (len(opts.sets) == 0 || opts.output != "") && !opts.check; writes {
		unlock, err := claim(target, path, opts, rep)
		if err != nil {
			rep.err = err
			return rep
		}
		defer unlock()
		rep.warnings = rep.early
	}
	book, err := workbooks.Read(path)
	if err != nil {
		rep.err = err
		return rep
	}
	rep.warnings = slices.Concat(rep.early, book.Warnings, opts.age.warnings(book))
	if rep.plan, rep.err = build(book.Model); rep.err != nil {
		return rep
	}
	set, err := parseSets(opts.sets, rep.plan)
	if err != nil {
		rep.err = err
		return rep
	}
	if ws := slices.Concat(rep.plan.Warnings(), montecarlo.HeldWarnings(rep.plan, set), rep.plan.OverrideWarnings(set)).Err(); ws != nil {
		for _, w := range ws.(formulas.List) {
			rep.model = append(rep.model, w.Error())
		}
	}
	rep.warnings = append(rep.warnings, rep.model...)
	rep.set, rep.names = set, book.Names
	for _, t := range opts.targets {
		if err := whatif.CheckTarget(rep.plan, t); err != nil {
			rep.err = fmt.Errorf("%s: --target %s: %w", path, t, err)
			return rep
		}
	}
	if rep.results, err = rep.plan.EvalAll(set); err != nil {
		rep.err = err
		if _, placed := err.(formulas.List); !placed {
			rep.err = fmt.Errorf("%s: %w", path, err)
		}
		return rep
	}
	if rep.err = checkScenarios(opts.scenarios, rep.results); rep.err != nil {
		return rep
	}
	rep.only = opts.scenarios
	if rep.sizing, rep.err = sizing.Table(book.Model.Catalog, book.Model.GPUs, rep.results[0].SizingRule()); rep.err != nil {
		return rep
	}
	rep.deployments = deploy.Cost(rep.plan, rep.results)
	if err := evalErrors(rep.results); err != nil {
		rep.err = err
		if len(opts.sets) == 0 || opts.output != "" {
			rep.note = target + ": not written, because formulas failed; the file is as it was"
		}
		return rep
	}
	if rep.montecarlo, rep.err = runMonteCarlo(ctx, rep.plan, set, opts, stderr); rep.err != nil {
		return rep
	}
	rep.warnings = append(rep.warnings, failedSamples(rep.montecarlo)...)
	if rep.whatifs, rep.err = whatif.Run(rep.plan, rep.plan.Scenarios(set), opts.targets); rep.err != nil {
		return rep
	}
	if len(opts.sets) > 0 && opts.output == "" {
		rep.note = path + ": --set given, so the workbook was left alone; add -o OUT.xlsx to save these results to a copy"
		return rep
	}
	if opts.check {
		rep.err = check(book, rep, opts)
		return rep
	}
	rep.err = write(book, target, rep, opts)
	rep.warnings = slices.Concat(rep.early, book.Warnings, rep.writing, opts.age.warnings(book), rep.model, failedSamples(rep.montecarlo))
	return rep
}

// lockWait is how long eval waits for another planner writing the same
// workbook.
const lockWait = 30 * time.Second

// claim makes sure eval may write target and takes it: not planner's copy
// of someone else's file (-o), not open in Excel or LibreOffice (unless
// --force), not read-only, and not being written by another planner.
func claim(target, input string, opts evalOptions, rep *fileReport) (unlock func(), err error) {
	if target != input {
		if err := workbooks.CheckOutput(target); err != nil {
			return nil, err
		}
	}
	if err := safefile.CheckNotOpen(target); err != nil {
		if !opts.force || !errors.Is(err, safefile.ErrOpenElsewhere) {
			return nil, err
		}
		rep.early = append(rep.early, err.Error()+"; writing anyway, as --force asks: the program that has it open will overwrite planner's sheets if it saves")
	}
	if err := safefile.CheckWritable(target); err != nil {
		return nil, err
	}
	return safefile.Lock(target, lockWait)
}

// check compares the workbook with what eval would write, and writes
// nothing.
func check(book *workbooks.Book, rep *fileReport, opts evalOptions) error {
	written, err := book.Write(rep.output(opts), workbooks.WriteOptions{Force: opts.force})
	if err != nil {
		return err
	}
	stale, err := book.Stale(written.Data)
	if err != nil {
		return err
	}
	if len(stale) > 0 {
		return fmt.Errorf("%s\n%s: stale; run %s and commit the result", strings.Join(stale, "\n"), book.Path, workbooks.Command("eval", book.Path))
	}
	rep.note = book.Path + ": up to date: planner's sheets match a fresh evaluation"
	return nil
}

// output is what eval writes into the workbook.
func (rep *fileReport) output(opts evalOptions) workbooks.Output {
	return workbooks.Output{Version: version, Plan: rep.plan, Results: rep.results, Overrides: setNotes(opts),
		Sizing: rep.sizing, Deployments: rep.deployments, MonteCarlo: rep.montecarlo, WhatIfs: rep.whatifs,
		Set: rep.set, Names: rep.names}
}

// write puts the results into the workbook and saves it, unless nothing
// would change.
func write(book *workbooks.Book, target string, rep *fileReport, opts evalOptions) error {
	written, err := book.Write(rep.output(opts), workbooks.WriteOptions{Force: opts.force})
	if err != nil {
		return err
	}
	rep.writing = written.Warnings
	if target == book.Path && workbooks.Same(written.Data, book.Data()) {
		rep.note = target + ": Results already up to date; the file is unchanged"
		return nil
	}
	if err := workbooks.Save(target, written.Data); err != nil {
		return err
	}
	rep.note = target + ": wrote " + joinSheets(written.Sheets)
	return nil
}

// setNotes are the command-line choices the provenance line records.
func setNotes(opts evalOptions) []string {
	var out []string
	for _, s := range opts.sets {
		out = append(out, "--set "+s)
	}
	for _, t := range opts.targets {
		out = append(out, "--target "+t)
	}
	return out
}

// evalErrors gathers the formulas that failed (not those skipped because of
// them), sorted, one message each.
func evalErrors(results []*engine.Result) error {
	seen := map[string]bool{}
	var list formulas.List
	add := func(errs map[string]*engine.EvalError) {
		for _, e := range errs {
			if msg := e.Error(); !e.Skipped && !seen[msg] {
				seen[msg] = true
				list = append(list, e)
			}
		}
	}
	for _, r := range results {
		add(r.Errors)
		for _, o := range r.Offers {
			add(o.Errors)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Error() < list[j].Error() })
	return list.Err()
}

// parseSets reads --set NAME=VALUE overrides against the model's inputs.
func parseSets(sets []string, plan *engine.Plan) (map[string]engine.Value, error) {
	m := plan.Model()
	out := map[string]engine.Value{}
	for _, s := range sets {
		name, raw, ok := strings.Cut(s, "=")
		name, raw = strings.TrimSpace(name), strings.TrimSpace(raw)
		if !ok || name == "" {
			return nil, fmt.Errorf("--set %s: write NAME=VALUE, such as --set capex=320000", s)
		}
		in, ok := plan.Settable(name)
		if !ok {
			return nil, fmt.Errorf("--set %s: %s is not an input of this workbook%s", s, name, suggestInput(name, m))
		}
		if in.Value.IsText {
			v := engine.Text(strings.Trim(raw, `"'`))
			if msg := plan.CheckText(name, v); msg != "" {
				return nil, fmt.Errorf("--set %s: %s", s, msg)
			}
			out[name] = v
			continue
		}
		v, err := parseValue(raw)
		if err != nil {
			return nil, fmt.Errorf("--set %s: %v", s, err)
		}
		if msg := units.Check(v, in.Unit); msg != "" {
			return nil, fmt.Errorf("--set %s: %s %s", s, name, msg)
		}
		out[name] = engine.Num(v)
	}
	return out, nil
}

// parseValue reads a number given on the command line: 320000, $320,000,
// 35%, or arithmetic such as 264/730.
func parseValue(raw string) (float64, error) {
	if v, ok := units.Parse(raw); ok {
		return v, nil
	}
	v, err := engine.Constant(raw)
	if err == nil {
		return v, nil
	}
	return 0, fmt.Errorf("%q is not a number (%v); write 320000, $320,000, 35%%, or arithmetic such as 264/730", raw, err)
}

func suggestInput(name string, m engine.Model) string {
	var names []string
	for _, in := range m.Inputs {
		names = append(names, in.Name)
	}
	if s := formulas.Suggest(name, names); s != "" {
		return " (did you mean " + s + "?)"
	}
	return "; the inputs are the names in the Assumptions sheet"
}

// checkScenarios refuses a --scenario the workbook does not have.
func checkScenarios(names []string, results []*engine.Result) error {
	var have []string
	for _, r := range results {
		have = append(have, r.Scenario)
	}
	for _, n := range names {
		if !slices.Contains(have, n) {
			return fmt.Errorf("--scenario %s: there is no such scenario; the scenarios are %s", n, strings.Join(have, ", "))
		}
	}
	return nil
}

// failedSamples warns about Monte Carlo samples that gave no number.
func failedSamples(mcs []*montecarlo.Result) []string {
	var out []string
	for _, mc := range mcs {
		if mc.Good < mc.Samples {
			out = append(out, fmt.Sprintf("scenario %s: %d of %d Monte Carlo samples gave no number and are left out; the first, %s",
				mc.Scenario, mc.Samples-mc.Good, mc.Samples, mc.FirstFailure))
		}
	}
	return out
}

// monteCarloOf is the Monte Carlo run of the named scenario, or nil.
func (rep *fileReport) monteCarloOf(scenario string) *montecarlo.Result {
	for _, mc := range rep.montecarlo {
		if mc.Scenario == scenario {
			return mc
		}
	}
	return nil
}
