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
		if err := writeDiffJSON(cmd.OutOrStdout(), d); err != nil {
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

// diffSide reads one side and computes its results; a side whose formulas
// do not build is still compared by its facts.
func diffSide(arg string) (review.Side, error) {
	book, err := readSide(arg)
	if err != nil {
		return review.Side{}, err
	}
	side := review.Side{Name: arg, Facts: facts.Of(book.Model)}
	plan, err := evaluate.Build(book.Model)
	if err == nil {
		var results []*engine.Result
		if results, err = plan.EvalAll(nil); err == nil {
			costs := deploy.Cost(plan, results)
			f := fleet.Of(costs)
			side.Results = slices.Concat(facts.Results(plan, results), facts.Deployments(costs), facts.Fleet(f))
			side.Verdicts = append(facts.Verdicts(results, costs), facts.FleetVerdicts(f)...)
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

type jsonDiff struct {
	Old       string            `json:"old"`
	New       string            `json:"new"`
	Same      bool              `json:"same"`
	Unrelated bool              `json:"unrelated,omitempty"`
	Broken    map[string]string `json:"broken,omitempty"`
	Decisions []jsonDecision    `json:"decisions"`
	Facts     []jsonFactChange  `json:"facts"`
	Results   []jsonResultDiff  `json:"results"`
}

// jsonDecision is a verdict that changed; per_month and old_per_month are
// what owning saves over renting a month on each side.
type jsonDecision struct {
	Scenario    string   `json:"scenario,omitempty"`
	Offer       string   `json:"offer,omitempty"`
	Deployment  string   `json:"deployment,omitempty"`
	Fleet       bool     `json:"fleet,omitempty"` // the deployment's part in the fleet's cheapest mix: buy is own
	Old         string   `json:"old"`
	New         string   `json:"new"`
	OldPerMonth *float64 `json:"old_per_month"`
	PerMonth    *float64 `json:"per_month"`
	Change      *float64 `json:"change,omitempty"`
	Words       string   `json:"words,omitempty"`
}

type jsonFactChange struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

type jsonResultDiff struct {
	Scenario   string   `json:"scenario,omitempty"`
	Offer      string   `json:"offer,omitempty"`
	Deployment string   `json:"deployment,omitempty"`
	Fleet      string   `json:"fleet,omitempty"` // the fleet's GPU, or "every GPU"
	Name       string   `json:"name"`
	Unit       string   `json:"unit"`
	Headline   bool     `json:"headline,omitempty"`
	Old        *float64 `json:"old"`
	New        *float64 `json:"new"`
	OldError   string   `json:"old_error,omitempty"`
	NewError   string   `json:"new_error,omitempty"`
	Change     *float64 `json:"change,omitempty"`
	Relative   *float64 `json:"relative,omitempty"` // null from zero
}

func writeDiffJSON(w io.Writer, d review.Diff) error {
	doc := jsonDiff{Old: d.Old, New: d.New, Same: d.Same(), Unrelated: d.Unrelated,
		Decisions: []jsonDecision{}, Facts: []jsonFactChange{}, Results: []jsonResultDiff{}}
	for i, why := range d.Broken {
		if why != "" {
			if doc.Broken == nil {
				doc.Broken = map[string]string{}
			}
			doc.Broken[[]string{"old", "new"}[i]] = why
		}
	}
	for _, c := range d.Decisions {
		j := jsonDecision{Scenario: c.Scenario, Offer: c.Offer, Deployment: c.Deployment, Fleet: c.Verdict.Fleet, Old: c.Old, New: c.New,
			OldPerMonth: c.OldSaving, PerMonth: c.NewSaving, Words: c.Words}
		if v, ok := c.Change(); ok {
			j.Change = evaluate.OrNull(v)
		}
		doc.Decisions = append(doc.Decisions, j)
	}
	for _, f := range d.Facts {
		doc.Facts = append(doc.Facts, jsonFactChange{Kind: f.Kind, Key: f.Key, Old: f.Old, New: f.New})
	}
	for _, r := range d.Results {
		j := jsonResultDiff{Scenario: r.Scenario, Offer: r.Offer, Deployment: r.Deployment, Fleet: r.Fleet, Name: r.Name, Unit: r.Unit,
			Headline: r.Headline, Old: r.Old, New: r.New, OldError: r.OldErr, NewError: r.NewErr}
		if r.Old != nil && r.New != nil {
			j.Change = evaluate.OrNull(r.Abs) // null beyond the largest float64
			j.Relative = evaluate.OrNull(r.Rel)
		}
		doc.Results = append(doc.Results, j)
	}
	return writeDoc(w, doc)
}
