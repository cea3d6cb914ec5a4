package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"planner/deploy"
	"planner/engine"
	"planner/evaluate"
	"planner/facts"
	"planner/fleet"
	"planner/review"
)

type diffOptions struct {
	tolerance string // ABS, REL% or ABS,REL%
	format    string // text, json or markdown
}

func newDiffCmd() *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff OLD.xlsx NEW.xlsx",
		Short: "What changed between two workbooks: the decisions first, then every result",
		Long: `diff recomputes both workbooks, rather than trusting the values saved in them, and leads
with the decisions that changed: buy or rent, of each scenario against each offer and of each
deployment, with what owning saves a month on either side. Then the headline figures (cost per
GPU-hour, per used hour, break-evens), the facts that changed (assumptions, formulas, offers,
scenarios, catalogs, deployments, what-ifs, sources), and every other result that moved, most
money a month at stake first. Either side may be a git revision, REV:PATH, read with git show.

Exit status by planner's rule (planner --help): 0 when nothing differs, 1 when something does
or a side cannot be read (stderr says which), 2 when planner could not finish.`,
		Example: `  planner diff old.xlsx plan.xlsx
  planner diff HEAD~1:plan.xlsx plan.xlsx --format markdown
  planner diff main:plan.xlsx plan.xlsx --tolerance 0.005,0.1%`,
		Args:              cobra.ExactArgs(2),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(cmd, args[0], args[1], opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.tolerance, "tolerance", "0", "ignore result changes within `ABS`, `REL%` or `ABS,REL%` (as |new − old| ≤ ABS + REL × |old|)")
	f.StringVar(&opts.format, "format", "text", "output format: text, json or markdown (for a pull-request comment)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json", "markdown"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runDiff(cmd *cobra.Command, oldArg, newArg string, opts diffOptions) error {
	if opts.format != "text" && opts.format != "json" && opts.format != "markdown" {
		return fmt.Errorf("--format %s: use text, json or markdown", opts.format)
	}
	tol, err := review.ParseTolerance(opts.tolerance)
	if err != nil {
		return fmt.Errorf("--tolerance %s: %w", opts.tolerance, err)
	}
	var sides [2]review.Side
	for i, arg := range []string{oldArg, newArg} {
		if sides[i], err = diffSide(arg); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			return failed{exitFailed}
		}
	}
	d := review.Compare(sides[0], sides[1], tol)
	switch opts.format {
	case "json":
		if err := writeDoc(cmd.OutOrStdout(), evaluate.DiffJSON(d)); err != nil {
			return fmt.Errorf("the differences cannot be written as JSON: %v", err)
		}
	case "markdown":
		writeDiffMarkdown(cmd.OutOrStdout(), d.Report())
	default:
		writeDiffText(cmd.OutOrStdout(), d.Report())
	}
	if d.Unrelated {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s and %s share no assumption; they look like two different plans\n", oldArg, newArg)
	}
	if !d.Same() {
		return failed{exitFailed}
	}
	return nil
}

// diffSide reads one side and computes its results; a side with a cell
// planner cannot read, or whose formulas do not build, is still compared
// by its facts, the problems among them.
func diffSide(arg string) (review.Side, error) {
	book, err := readSide(arg)
	if err != nil {
		return review.Side{}, err
	}
	side := review.Side{Name: arg, Facts: slices.Concat(facts.Problems(book.Problems), facts.Of(book.Model))}
	if len(book.Problems) > 0 {
		side.Broken = evaluate.NotRead(book.Problems)
		return side, nil
	}
	plan, err := evaluate.Build(book.Model)
	if err == nil {
		var results []*engine.Result
		if results, err = plan.EvalAll(nil); err == nil {
			costs := deploy.Cost(plan, results)
			f := fleet.Of(costs)
			side.Results = slices.Concat(facts.Results(plan, results), facts.Deployments(costs), facts.Fleet(f))
			side.Verdicts = append(facts.Verdicts(plan, results, costs), facts.FleetVerdicts(f)...)
		}
	}
	if err != nil {
		side.Broken = err.Error()
	}
	return side, nil
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
