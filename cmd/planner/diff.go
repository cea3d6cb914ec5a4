package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"planner/deploy"
	"planner/domain"
	"planner/engine"
	"planner/evaluate"
	"planner/facts"
	"planner/fleet"
	"planner/montecarlo"
	"planner/review"
)

type diffOptions struct {
	tolerance string // ABS, REL% or ABS,REL%
	format    string // text, json or markdown
	against   string // a git revision to compare each PATH with
	policy    string // a policy file whose rules decide the exit status
	age       priceAge
	samples   int    // Monte Carlo samples, when a rule reads its chances
	seed      uint64 // and its seed
}

func newDiffCmd() *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff OLD.xlsx NEW.xlsx | diff --against REV PATH...",
		Short: "What changed between two workbooks: the decisions first, then every result",
		Long: `diff recomputes both workbooks, rather than trusting the values saved in them, and opens
with a headline: the cheapest month (the fleet's cheapest mix of owning and renting, or owning
the base scenario's node in a plan without deployments) old and new, the decisions that flipped,
and the largest change of owning's NPV with its offer. Then the decisions that changed: buy or
rent, of each scenario against each offer and of each deployment, with what owning saves a
month on either side. Then the headline figures (cost per GPU-hour, per used hour,
break-evens), the facts that changed (assumptions, formulas, offers, scenarios, catalogs,
deployments, what-ifs, sources), and every other result that moved, most money a month at
stake first. Either side may be a git revision, REV:PATH, read with git show. With --against
REV, each PATH is compared with REV:PATH (a PATH not at REV is a new workbook), the headlines
in one table.

--policy FILE applies the file's rules (a YAML list under rules:, each deny: or warn: and a
rule: flip, npv_below, cheapest_month_rise, price_age, p_own_cheaper_below) and prints each
rule's outcome: pass, warn or deny.

Exit status by planner's rule (planner --help): 0 when nothing differs, 1 when something does
or a side cannot be read (stderr says which), 2 when planner could not finish. With --policy,
the policy's: 0 when no rule denies (warnings printed), 1 when a rule denies, 2 when planner
cannot tell (a side or the policy it cannot read, a rule it cannot apply).`,
		Example: `  planner diff old.xlsx plan.xlsx
  planner diff HEAD~1:plan.xlsx plan.xlsx --format markdown
  planner diff main:plan.xlsx plan.xlsx --tolerance 0.005,0.1%
  planner diff --against main plan.xlsx other.xlsx --policy planner-policy.yaml`,
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.against != "" {
				return cobra.MinimumNArgs(1)(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(cmd, args, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.tolerance, "tolerance", "0", "ignore result changes within `ABS`, `REL%` or `ABS,REL%` (as |new − old| ≤ ABS + REL × |old|)")
	f.StringVar(&opts.format, "format", "text", "output format: text, json or markdown (for a pull-request comment)")
	f.StringVar(&opts.against, "against", "", "compare each PATH with PATH at this git `REV`ision (a branch, tag or commit)")
	f.StringVar(&opts.policy, "policy", "", "apply the rules of this policy `FILE` (YAML); the exit status is then the policy's")
	f.StringVar(&opts.age.Today, "today", "", "measure the prices' age (price_age) on this `DATE` (YYYY-MM-DD) instead of today")
	f.IntVar(&opts.samples, "samples", montecarlo.DefaultSamples, "Monte Carlo samples per scenario, for p_own_cheaper_below")
	f.Uint64Var(&opts.seed, "seed", montecarlo.DefaultSeed, "Monte Carlo seed, for p_own_cheaper_below")
	_ = cmd.RegisterFlagCompletionFunc("policy", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
	})
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json", "markdown"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// diffPair is one comparison: a workbook old and new.
type diffPair struct {
	old, new string
	newBook  bool // not at the revision: there is no old side
}

// comparison is one pair compared, and what its policy said.
type comparison struct {
	pair     diffPair
	diff     review.Diff
	outcomes []review.Outcome
}

func runDiff(cmd *cobra.Command, args []string, opts diffOptions) error {
	if opts.format != "text" && opts.format != "json" && opts.format != "markdown" {
		return fmt.Errorf("--format %s: use text, json or markdown", opts.format)
	}
	tol, err := review.ParseTolerance(opts.tolerance)
	if err != nil {
		return fmt.Errorf("--tolerance %s: %w", opts.tolerance, err)
	}
	if err := opts.age.Check(); err != nil {
		return err
	}
	if opts.against != "" && opts.format == "json" {
		return fmt.Errorf("--format json compares two workbooks: drop --against, or use text or markdown")
	}
	// Without a policy, a side planner cannot read is a finding (1); with
	// one, planner cannot tell whether the rules hold (2).
	cannot := exitFailed
	var policy *review.Policy
	if opts.policy != "" {
		cannot = exitTrouble
		if policy, err = readPolicy(opts.policy); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			return failed{cannot}
		}
	}
	pairs, err := diffPairs(args, opts.against)
	if err != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), err)
		return failed{cannot}
	}
	var all []comparison
	for _, p := range pairs {
		c, err := compare(cmd.Context(), p, tol, policy, opts)
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			return failed{cannot}
		}
		all = append(all, c)
	}
	w := cmd.OutOrStdout()
	switch {
	case opts.format == "json":
		if err := writeDoc(w, evaluate.DiffJSON(all[0].diff, all[0].outcomes)); err != nil {
			return fmt.Errorf("the differences cannot be written as JSON: %v", err)
		}
	default:
		writeComparisons(w, all, policy, opts.format == "markdown")
	}
	same := true
	var outcomes []review.Outcome
	for _, c := range all {
		if c.diff.Unrelated {
			fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s and %s share no assumption; they look like two different plans\n", c.pair.old, c.pair.new)
		}
		same = same && !c.pair.newBook && c.diff.Same()
		outcomes = append(outcomes, c.outcomes...)
	}
	if policy != nil {
		for _, o := range outcomes {
			if o.Result == review.Warn {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s (%s line %d): %s\n", o.Workbook, o.Rule, policy.File, o.Rule.Line, o.Why)
			}
		}
		if status := review.Status(outcomes); status != exitOK {
			return failed{status}
		}
		return nil
	}
	if !same {
		return failed{exitFailed}
	}
	return nil
}

// readPolicy reads and checks a policy file.
func readPolicy(path string) (*review.Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--policy %s: %v", path, errors.Unwrap(err))
	}
	p, err := review.ParsePolicy(path, data)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// diffPairs are the comparisons the arguments ask for: OLD NEW, or each
// PATH against REV:PATH.
func diffPairs(args []string, against string) ([]diffPair, error) {
	if against == "" {
		return []diffPair{{old: args[0], new: args[1]}}, nil
	}
	if strings.HasPrefix(against, "-") {
		return nil, fmt.Errorf("--against %s: a git revision never begins with -: name a commit, branch or tag, such as main", against)
	}
	var out []diffPair
	for _, path := range args {
		old := against + ":" + path
		exists, err := gitHas(old)
		if err != nil {
			return nil, fmt.Errorf("--against %s: %v", against, err)
		}
		out = append(out, diffPair{old: old, new: path, newBook: !exists})
	}
	return out, nil
}

// compare reads both sides of a pair, compares them and applies the
// policy.
func compare(ctx context.Context, p diffPair, tol review.Tolerance, policy *review.Policy, opts diffOptions) (comparison, error) {
	c := comparison{pair: p}
	old := review.Side{Name: p.old}
	var err error
	if !p.newBook {
		if old, err = diffSide(p.old); err != nil {
			return c, err
		}
	}
	new, err := diffSide(p.new)
	if err != nil {
		return c, err
	}
	if policy != nil && policy.NeedsMonteCarlo() && new.Broken == "" {
		if new.Chances, err = chances(ctx, new.Model, opts); err != nil {
			return c, fmt.Errorf("%s: Monte Carlo: %v", p.new, err)
		}
	}
	c.diff = review.Compare(old, new, tol)
	if policy != nil {
		today, from := opts.age.Day()
		c.outcomes = policy.Apply(review.Evidence{Diff: c.diff, New: new, NewBook: p.newBook, Today: today, TodayFrom: from})
	}
	return c, nil
}

// chances runs Monte Carlo on every scenario of a model for the chance
// that owning is cheaper than each offer.
func chances(ctx context.Context, m *domain.Model, opts diffOptions) ([]review.Chance, error) {
	plan, err := evaluate.Build(*m)
	if err != nil {
		return nil, err
	}
	runs, err := montecarlo.RunAll(ctx, plan, plan.Scenarios(nil), montecarlo.Options{Samples: opts.samples, Seed: opts.seed})
	if err != nil {
		return nil, err
	}
	var out []review.Chance
	for _, r := range runs {
		for _, oc := range r.OwnCheaper {
			out = append(out, review.Chance{Scenario: r.Scenario, Offer: oc.Offer.Label(), Probability: oc.Probability})
		}
	}
	return out, nil
}

// diffSide reads one side and computes its results; a side with a cell
// planner cannot read, or whose formulas do not build, is still compared
// by its facts, the problems among them.
func diffSide(arg string) (review.Side, error) {
	book, err := readSide(arg)
	if err != nil {
		return review.Side{}, err
	}
	side := review.Side{Name: arg, Facts: slices.Concat(facts.Problems(book.Problems), facts.Of(book.Model)), Model: &book.Model}
	if len(book.Problems) > 0 {
		side.Broken = evaluate.NotRead(book.Problems)
		return side, nil
	}
	plan, err := evaluate.Build(book.Model)
	if err == nil {
		var results []*engine.Result
		if results, err = plan.EvalAll(nil); err == nil {
			costs := deploy.Cost(plan, results)
			f := fleet.Within(costs, deploy.SiteOf(&book.Model, results))
			side.Results = slices.Concat(facts.Results(plan, results), facts.Deployments(costs), facts.Fleet(f))
			side.Verdicts = append(facts.Verdicts(plan, results, costs), facts.FleetVerdicts(f)...)
		}
	}
	if err != nil {
		side.Broken = err.Error()
	}
	return side, nil
}

// writeComparisons prints every comparison: one workbook's headline line
// or several workbooks' table, the policy's outcomes, then each report.
func writeComparisons(w io.Writer, all []comparison, policy *review.Policy, markdown bool) {
	var heads []review.Headline
	var outcomes []review.Outcome
	for _, c := range all {
		heads = append(heads, c.diff.Headline())
		outcomes = append(outcomes, c.outcomes...)
	}
	table, text := writeTextTable, func(s string) { fmt.Fprintln(w, s) }
	if markdown {
		table = func(w io.Writer, t review.Table) { writeMarkdownTable(w, t, false) }
		text = func(s string) { fmt.Fprintln(w, markdownCell(s)) }
	}
	switch {
	case len(all) > 1:
		t := review.HeadlineTable(heads)
		if markdown {
			fmt.Fprintln(w, "**planner diff**: "+markdownCell(plural(len(all), "workbook")+" compared"))
		} else {
			fmt.Fprintln(w, plural(len(all), "workbook")+" compared")
		}
		table(w, t)
	case !all[0].diff.Same() || all[0].pair.newBook:
		text(heads[0].Line())
	}
	if policy != nil {
		table(w, review.PolicyTable(policy.File, outcomes))
	}
	for _, c := range all {
		if len(all) > 1 || policy != nil || !c.diff.Same() || c.pair.newBook {
			fmt.Fprintln(w)
		}
		writeReport(w, c, markdown, len(all) > 1)
	}
}

// writeReport prints one comparison's report; folded away under its
// summary when it is one of several in markdown.
func writeReport(w io.Writer, c comparison, markdown, fold bool) {
	r := c.diff.Report()
	switch {
	case c.pair.newBook && markdown:
		fmt.Fprintf(w, "**%s** is a new workbook.\n", markdownCell(c.pair.new))
	case c.pair.newBook:
		fmt.Fprintf(w, "%s is a new workbook.\n", c.pair.new)
	case markdown && fold:
		fmt.Fprintf(w, "<details><summary>%s</summary>\n\n", markdownCell(r.Summary))
		writeDiffMarkdown(w, r)
		fmt.Fprintln(w, "\n</details>")
	case markdown:
		writeDiffMarkdown(w, r)
	default:
		writeDiffText(w, r)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func writeDiffText(w io.Writer, r review.Report) {
	fmt.Fprintln(w, r.Summary)
	for _, b := range r.Broken {
		fmt.Fprintln(w, b)
	}
	if r.NoDecision != "" {
		fmt.Fprintln(w, "\n"+r.NoDecision)
	}
	writeTextTable(w, r.Decisions)
	writeTextTable(w, r.Headline)
	if len(r.Facts) > 0 {
		fmt.Fprintf(w, "\n%s\n\n", r.FactsTitle)
		for _, f := range r.Facts {
			fmt.Fprintln(w, "  "+oneLine(f.Words(nil)))
		}
	}
	writeTextTable(w, r.Rest)
}

func writeTextTable(w io.Writer, s review.Table) {
	if len(s.Rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n\n", s.Title)
	t := &table{right: s.Right}
	for _, row := range append([][]string{s.Header}, s.Rows...) {
		t.add(row...)
	}
	t.write(w)
}

// writeDiffMarkdown prints the report for a pull-request comment: the
// decisions and the headline figures as tables, a long rest folded away.
func writeDiffMarkdown(w io.Writer, r review.Report) {
	fmt.Fprintf(w, "**planner diff** %s\n", markdownCell(r.Summary))
	if len(r.Broken) > 0 {
		fmt.Fprintln(w)
	}
	for _, b := range r.Broken {
		fmt.Fprintln(w, "- "+markdownCell(b))
	}
	if r.NoDecision != "" {
		fmt.Fprintln(w, "\n"+r.NoDecision)
	}
	writeMarkdownTable(w, r.Decisions, false)
	writeMarkdownTable(w, r.Headline, false)
	if len(r.Facts) > 0 {
		fmt.Fprintf(w, "\n#### %s\n\n", r.FactsTitle)
		for _, f := range r.Facts {
			fmt.Fprintln(w, "- "+oneLine(f.Words(markdownCode)))
		}
	}
	writeMarkdownTable(w, r.Rest, len(r.Rest.Rows) > 10)
}

func writeMarkdownTable(w io.Writer, s review.Table, fold bool) {
	if len(s.Rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\n#### %s\n\n", s.Title)
	if fold {
		fmt.Fprintf(w, "<details><summary>%d results</summary>\n\n", len(s.Rows))
	}
	align := make([]string, len(s.Header))
	for i := range align {
		align[i] = "---"
		if s.Right[i] {
			align[i] = "--:"
		}
	}
	for _, row := range append([][]string{s.Header, align}, s.Rows...) {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = markdownCell(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if fold {
		fmt.Fprintln(w, "\n</details>")
	}
}

func markdownCell(s string) string { return strings.ReplaceAll(oneLine(s), "|", "\\|") }

// markdownCode is s as inline code, whatever backticks it holds.
func markdownCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}
