package evaluate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"planner/deploy"
	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/finance"
	"planner/fleet"
	"planner/internal/safefile"
	"planner/montecarlo"
	"planner/sizing"
	"planner/whatif"
	"planner/workbooks"
)

// Options are the choices of one evaluation. The zero value evaluates the
// workbook in place with the default number of Monte Carlo samples, seeded
// with 0.
type Options struct {
	Output    string   // write here instead of in place; "" or the workbook itself is in place
	Sets      []string // NAME=VALUE overrides; with them the workbook is written only to Output
	Force     bool     // replace a foreign sheet called Results, write a workbook open elsewhere
	Samples   int      // Monte Carlo samples per scenario; 0 is montecarlo.DefaultSamples
	Seed      uint64   // Monte Carlo seed, as given: 0 is a seed too; the command line's default is montecarlo.DefaultSeed
	Targets   []string // what the tornado follows, instead of the Targets sheet
	Scenarios []string // scenarios the caller will show: each must exist
	Check     bool     // compare with a fresh evaluation and write nothing
	Prices    PriceAge // how the cloud prices' age is measured
	Version   string   // planner's version, written into every sheet planner owns; "" is Version
	// Build names the build of planner that runs, so that a workbook it
	// wrote can prove itself up to date to the same build (stamp.go); ""
	// is a build that cannot say which it is, which writes no proof and
	// trusts none.
	Build string

	// Progress, when set, hears how far a long phase has got.
	Progress func(phase string, done, total int)
}

// Report is what became of one workbook: what was computed, as far as the
// evaluation got, and what happened to the file.
type Report struct {
	File        string
	Plan        *engine.Plan
	Results     []*engine.Result // base first, then every scenario
	Sizing      []sizing.Result
	Deployments []deploy.Result
	Fleet       fleet.Fleet          // every deployment together
	MonteCarlo  []*montecarlo.Result // one per scenario, as Results
	WhatIfs     *whatif.Report
	Set         map[string]domain.Value          // the overrides, parsed
	Names       map[string]workbooks.DefinedName // the workbook's defined names as read
	Warnings    diag.Diagnostics                 // what the user should hear that did not stop the run, in the order found
	Note        string                           // what happened to the file
}

// MonteCarloOf is the Monte Carlo run of the named scenario, or nil.
func (rep *Report) MonteCarloOf(scenario string) *montecarlo.Result {
	for _, mc := range rep.MonteCarlo {
		if mc.Scenario == scenario {
			return mc
		}
	}
	return nil
}

// LockWait is how long planner waits for another planner writing the
// same workbook.
const LockWait = 30 * time.Second

// Evaluate evaluates the workbook at path as opts say. The report is never
// nil: on an error it holds what was computed before it (results whose
// formulas failed, say) and the warnings so far. The file is written only
// when everything succeeded, and then atomically.
func Evaluate(ctx context.Context, path string, opts Options) (*Report, error) {
	opts = opts.withDefaults()
	rep := &Report{File: path}
	err := opts.Valid()
	if err == nil {
		err = evaluate(ctx, path, opts, rep)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = interrupted{path, err}
	}
	return rep, err
}

// Version is planner's version. It is written into every sheet planner
// owns, so it changes only with a release.
const Version = "0.2.0"

func (o Options) withDefaults() Options {
	if o.Version == "" {
		o.Version = Version
	}
	if o.Samples == 0 {
		o.Samples = montecarlo.DefaultSamples
	}
	return o
}

// Valid refuses options that cannot run as given: a number of samples out
// of bounds, a date planner cannot read, choices that contradict each
// other. Evaluate calls it after reading 0 samples as the default.
func (o Options) Valid() error {
	if err := montecarlo.CheckSamples(o.Samples); err != nil {
		return fmt.Errorf("--samples: %v", err)
	}
	if err := o.Prices.Check(); err != nil {
		return err
	}
	if o.Check && (o.Output != "" || len(o.Sets) > 0 || len(o.Targets) > 0) {
		return fmt.Errorf("--check compares the workbook with a fresh evaluation of its own inputs; it does not take -o, --set or --target")
	}
	return nil
}

// run is one evaluation's state: the options, with Output settled, and the
// file written to.
type run struct {
	opts   Options
	path   string
	target string
	// What the run warns of, by where it came from.
	early   diag.Diagnostics // before the workbook was read: --force over a lock
	read    diag.Diagnostics // reading the workbook
	prices  diag.Diagnostics // the cloud prices' age, which depends on the day asked
	model   diag.Diagnostics // the engine's and Monte Carlo's warnings about the model and the overrides
	failed  diag.Diagnostics // Monte Carlo samples that gave no number
	writing diag.Diagnostics // writing the sheets: defined names
	// replaces is the target as read (none when there was none): the save
	// replaces it only while it is still there as read.
	replaces safefile.Original
	// known is the Monte Carlo results the workbook carries with its
	// proof of being up to date (stamp.go), or that planner remembers of
	// leaving its bytes up to date with this run's choices (uptodate.go);
	// nil when there are none to trust.
	known []*montecarlo.Result
	// proven is whether the workbook as read proves itself up to date
	// under this run's key, once asked (stamp.go).
	proven *bool
	// encoded is the run's Monte Carlo results as the record and the
	// memory keep them, once encoded (encoded).
	encoded *[]byte
}

// warnings is everything the run warns of so far, in the order planner
// prints it.
func (r *run) warnings() diag.Diagnostics {
	return slices.Concat(r.early, r.read, r.writing, r.prices, r.model, r.failed)
}

// aboutTheWorkbook are the warnings Results lists: those that follow from
// the workbook's cells alone. The prices' age follows from --today and
// --max-price-age too, and would make the sheet change with the day; the
// defined names' come from writing the sheet itself.
func (r *run) aboutTheWorkbook() diag.Diagnostics {
	return slices.Concat(r.read, r.model, r.failed)
}

func evaluate(ctx context.Context, path string, opts Options, rep *Report) error {
	r := &run{opts: opts, path: path, target: path}
	if err := r.settleOutput(); err != nil {
		return err
	}
	if writes := (len(opts.Sets) == 0 || r.opts.Output != "") && !opts.Check; writes {
		unlock, err := r.claim()
		if err != nil {
			return err
		}
		defer unlock()
		rep.Warnings = r.early
	}
	read := r.phase(phaseReading)
	book, err := workbooks.Read(path)
	if err != nil {
		return err
	}
	read()
	if r.target == r.path {
		r.replaces = book.Original()
	}
	if err := r.compute(ctx, book, rep); err != nil {
		return err
	}
	return r.finish(ctx, book, rep)
}

// settleOutput decides where the results go: -o naming the workbook itself,
// by whatever path, link or hard link, is eval in place.
func (r *run) settleOutput() error {
	if r.opts.Output == "" {
		return nil
	}
	switch {
	case !safefile.SameFile(r.opts.Output, r.path):
		r.target = r.opts.Output
	case len(r.opts.Sets) > 0:
		return fmt.Errorf("%s: -o %s is this same workbook; planner saves --set results, a what-if, only into another file, so that %s keeps the results of its own inputs: name a new file, such as -o what-if.xlsx",
			r.path, r.opts.Output, r.path)
	default:
		r.opts.Output = ""
	}
	return nil
}

// claim makes sure the evaluation may write the target and takes it: not
// planner's copy of someone else's file (-o; the file as read is what the
// save may replace), not open in Excel or LibreOffice (unless Force), not
// read-only, and not being written by another planner.
func (r *run) claim() (unlock func(), err error) {
	if r.target != r.path {
		if r.replaces, err = workbooks.CheckOutput(r.target); err != nil {
			return nil, err
		}
	}
	if err := safefile.CheckNotOpen(r.target); err != nil {
		if !r.opts.Force || !errors.Is(err, safefile.ErrOpenElsewhere) {
			return nil, err
		}
		r.early = append(r.early, diag.Warningf(diag.Origin{}, "", "%v; writing anyway, as --force asks: the program that has it open will overwrite planner's sheets if it saves", err))
	}
	if err := safefile.CheckWritable(r.target); err != nil {
		return nil, err
	}
	return safefile.Lock(r.target, LockWait)
}

// compute builds and evaluates the model, its sizing, deployments, Monte
// Carlo and what-ifs, gathering their warnings as it goes.
func (r *run) compute(ctx context.Context, book *workbooks.Book, rep *Report) (err error) {
	r.read, r.prices = book.Warnings, r.opts.Prices.Warnings(book)
	rep.Warnings = r.warnings()
	if rep.Plan, err = Build(book.Model); err != nil {
		return err
	}
	if rep.Set, err = ParseSets(r.opts.Sets, rep.Plan); err != nil {
		return err
	}
	if ws := slices.Concat(rep.Plan.Warnings(), montecarlo.HeldWarnings(rep.Plan, rep.Set), rep.Plan.OverrideWarnings(rep.Set)).Err(); ws != nil {
		r.model = ws.(diag.Diagnostics)
	}
	rep.Warnings = r.warnings()
	rep.Names = book.Names
	evaluated := r.phase(phaseEvaluating)
	if err := r.evalAll(rep); err != nil {
		return err
	}
	evaluated()
	if r.known = r.carried(book, rep); r.known == nil {
		r.known = r.recall(book.Path, book.Data(), rep)
	}
	if r.known != nil {
		rep.MonteCarlo = r.known
	} else if rep.MonteCarlo, err = monteCarlo(ctx, rep.Plan, rep.Set, r.opts); err != nil {
		return err
	}
	r.failed = failedSamples(rep.MonteCarlo)
	rep.Warnings = r.warnings()
	whatIfs := r.phase(phaseWhatIfs)
	if rep.WhatIfs, err = whatif.Run(rep.Plan, rep.Plan.Scenarios(rep.Set), r.opts.Targets); err != nil {
		return err
	}
	whatIfs()
	return nil
}

// evalAll evaluates every scenario, sizes the base one and prices the
// deployments; formulas that failed stop the run here, with the file
// untouched.
func (r *run) evalAll(rep *Report) error {
	for _, t := range r.opts.Targets {
		if err := whatif.CheckTarget(rep.Plan, t); err != nil {
			return fmt.Errorf("%s: --target %s: %w", r.path, t, err)
		}
	}
	if err := checkScenarios(rep.Plan, r.opts.Scenarios); err != nil {
		return fmt.Errorf("%s: %w", r.path, err) // which of several workbooks lacks it
	}
	var err error
	if rep.Results, err = rep.Plan.EvalAll(rep.Set); err != nil {
		if _, placed := err.(diag.Diagnostics); !placed {
			err = fmt.Errorf("%s: %w", r.path, err)
		}
		return err
	}
	if rep.Sizing, err = sizing.Table(rep.Plan.Model().Catalog, rep.Plan.Model().GPUs, rep.Results[0].SizingRule()); err != nil {
		return err
	}
	rep.Deployments = deploy.Cost(rep.Plan, rep.Results)
	m := rep.Plan.Model()
	site := deploy.SiteOf(&m, rep.Results)
	rep.Fleet = fleet.Within(rep.Deployments, site)
	r.model = append(r.model, deploy.Uncosted(rep.Deployments)...)
	r.model = append(r.model, siteWarnings(rep.Fleet, site)...)
	if err := evalErrors(rep.Results); err != nil {
		if r.writes() {
			rep.Note = r.target + ": not written, because formulas failed; the file is as it was"
		}
		return err
	}
	return nil
}

// writes is whether this evaluation means to write a file.
func (r *run) writes() bool { return len(r.opts.Sets) == 0 || r.opts.Output != "" }

// finish writes the results, checks them, or says why the file was left
// alone.
func (r *run) finish(ctx context.Context, book *workbooks.Book, rep *Report) error {
	if !r.writes() {
		rep.Note = r.path + ": --set given, so the workbook was left alone; add -o OUT.xlsx to save these results to a copy"
		return nil
	}
	if r.opts.Check {
		return r.check(ctx, book, rep)
	}
	err := r.write(ctx, book, rep)
	rep.Warnings = r.warnings()
	return err
}

// check compares the workbook with what the evaluation would write, and
// writes nothing, not even a memory: only a full eval records one.
func (r *run) check(ctx context.Context, book *workbooks.Book, rep *Report) error {
	compared := r.phase(phaseChecking)
	written, err := book.Write(r.output(rep), workbooks.WriteOptions{Force: r.opts.Force, Context: ctx})
	if err != nil {
		return err
	}
	// The same parts are the same sheets; only a difference needs the
	// sheet-by-sheet comparison that says what is stale.
	var stale []string
	if !workbooks.Same(written.Data, book.Data()) {
		if stale, err = book.Stale(written.Data); err != nil {
			return err
		}
	}
	compared()
	if len(stale) > 0 {
		return fmt.Errorf("%s\n%s: stale; run %s and commit the result", strings.Join(stale, "\n"), book.Path, workbooks.Command("eval", book.Path))
	}
	rep.Note = book.Path + ": up to date: planner's sheets match a fresh evaluation"
	return nil
}

// write puts the results into the workbook and saves it, unless nothing
// would change.
func (r *run) write(ctx context.Context, book *workbooks.Book, rep *Report) error {
	inPlace := r.target == book.Path
	unchanged := r.target + ": Results already up to date; the file is unchanged"
	if r.known != nil || (inPlace && r.stamped(book)) {
		rep.Note = unchanged
		return nil
	}
	wrote := r.phase(phaseWriting)
	written, err := book.Write(r.output(rep), workbooks.WriteOptions{Force: r.opts.Force, Context: ctx})
	if err != nil {
		return err
	}
	wrote()
	r.writing = written.Warnings
	carries := false // the workbook saved proves itself up to date with its Monte Carlo results
	if key := r.stampKey(); len(written.Warnings) == 0 && key != "" {
		written.Data, carries = workbooks.Stamp(written.Data, key, r.record(rep), written.Sheets)
	}
	// Only a run that warned of nothing while writing is remembered: the
	// shortcut has no warnings of writing to repeat.
	remember := inPlace && len(written.Warnings) == 0
	if inPlace && workbooks.Same(written.Data, book.Data()) {
		if remember {
			r.remember(book.Path, book.Data(), rep)
		}
		rep.Note = unchanged
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err // Ctrl-C while writing: the workbook stays as it was
	}
	saved := r.phase(phaseSaving)
	if err := workbooks.Save(r.target, written.Data, r.replaces); err != nil {
		return workbooks.RunAgain(err, r.again())
	}
	saved()
	if remember && !carries { // one that carries them needs no memory
		r.remember(r.target, written.Data, rep)
	}
	rep.Note = r.target + ": wrote " + diag.ListAnd(written.Sheets)
	return nil
}

// again is the command line that runs this evaluation again: the
// workbook, and every choice that decides what is written.
func (r *run) again() string {
	var args []string
	if r.target != r.path {
		args = append(args, "-o", r.target)
	}
	for _, s := range r.opts.Sets {
		args = append(args, "--set", s)
	}
	for _, t := range r.opts.Targets {
		args = append(args, "--target", t)
	}
	if r.opts.Samples != montecarlo.DefaultSamples {
		args = append(args, "--samples", strconv.Itoa(r.opts.Samples))
	}
	if r.opts.Seed != montecarlo.DefaultSeed {
		args = append(args, "--seed", strconv.FormatUint(r.opts.Seed, 10))
	}
	if r.opts.Force {
		args = append(args, "--force")
	}
	return workbooks.Command("eval", r.path, args...)
}

// output is what the evaluation writes into the workbook.
func (r *run) output(rep *Report) workbooks.Output {
	return workbooks.Output{Version: r.opts.Version, Plan: rep.Plan, Results: rep.Results, Overrides: r.notes(),
		Sizing: rep.Sizing, Deployments: rep.Deployments, Fleet: rep.Fleet, MonteCarlo: rep.MonteCarlo, WhatIfs: rep.WhatIfs,
		Set: rep.Set, Names: rep.Names, Warnings: r.aboutTheWorkbook()}
}

// notes are the command-line choices the provenance line records.
func (r *run) notes() []string {
	var out []string
	for _, s := range r.opts.Sets {
		out = append(out, "--set "+s)
	}
	for _, t := range r.opts.Targets {
		out = append(out, "--target "+t)
	}
	return out
}

// Build checks and compiles a workbook's model with every check planner
// makes of it: the engine's own, then the deployments', the correlations',
// the what-ifs' and owning's lines' (finance). Their problems are reported
// at once, sorted by place, and two at the same place in this order. Every command that evaluates a
// workbook builds it here, so that none forgets a check.
func Build(m domain.Model) (*engine.Plan, error) {
	return engine.Build(m, deploy.Check, montecarlo.Check, whatif.Check, finance.Check)
}
