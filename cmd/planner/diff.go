package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"planner/engine"
	"planner/evaluate"
	"planner/facts"
	"planner/review"
	"planner/units"
)

type diffOptions struct {
	tolerance string // ABS, REL% or ABS,REL%
	format    string // text, json or markdown
}

func newDiffCmd() *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff OLD.xlsx NEW.xlsx",
		Short: "What changed between two workbooks, and what it did to every result",
		Long: `diff lists the facts that changed between two workbooks (assumptions, formulas, offers,
scenarios, catalogs, what-ifs, sources) and, recomputing both sides rather than trusting the
values saved in them, every result that moved: old, new, absolute and relative change,
largest first. Either side may be a git revision, REV:PATH, read with git show.

Exit status as diff(1): 0 when nothing differs, 1 when something does, 2 on trouble.`,
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
	tol, err := parseTolerance(opts.tolerance)
	if err != nil {
		return err
	}
	var sides [2]review.Side
	for i, arg := range []string{oldArg, newArg} {
		if sides[i], err = diffSide(arg); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), err)
			return failed{exitTrouble}
		}
	}
	d := review.Compare(sides[0], sides[1], tol)
	switch opts.format {
	case "json":
		writeDiffJSON(cmd.OutOrStdout(), d)
	case "markdown":
		writeDiffMarkdown(cmd.OutOrStdout(), d)
	default:
		writeDiffText(cmd.OutOrStdout(), d)
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
			side.Results = facts.Results(plan, results)
		}
	}
	if err != nil {
		side.Broken = err.Error()
	}
	return side, nil
}

// parseTolerance reads ABS, REL% or ABS,REL%.
func parseTolerance(s string) (review.Tolerance, error) {
	var tol review.Tolerance
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		rel, isRel := strings.CutSuffix(part, "%")
		v, err := strconv.ParseFloat(strings.TrimSpace(rel), 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return tol, fmt.Errorf("--tolerance %s: write an absolute amount (0.005), a relative one (0.1%%), or both (0.005,0.1%%)", s)
		}
		if isRel {
			tol.Rel = v / 100
		} else {
			tol.Abs = v
		}
	}
	return tol, nil
}

// summary is the diff's first line.
func summary(d review.Diff) string {
	if d.Same() {
		return fmt.Sprintf("%s and %s: the same inputs and results", d.Old, d.New)
	}
	return fmt.Sprintf("%s → %s: %s changed, %s changed", d.Old, d.New,
		plural(len(d.Facts), "fact"), plural(len(d.Results), "result"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func writeDiffText(w io.Writer, d review.Diff) {
	fmt.Fprintln(w, summary(d))
	writeBroken(w, d, "")
	if len(d.Facts) > 0 {
		fmt.Fprintln(w, "\nWhat changed")
		fmt.Fprintln(w)
		for _, f := range d.Facts {
			fmt.Fprintln(w, "  "+oneLine(factChange(f, func(s string) string { return s })))
		}
	}
	if len(d.Results) > 0 {
		fmt.Fprintln(w, "\nWhat it did to the results, largest change first")
		fmt.Fprintln(w)
		t := &table{right: []bool{false, true, true, true, true}}
		t.add("result", "old", "new", "change", "relative")
		for _, r := range d.Results {
			t.add(resultCells(r)...)
		}
		t.write(w)
	}
}

func writeBroken(w io.Writer, d review.Diff, bullet string) {
	for i, why := range d.Broken {
		if why != "" {
			fmt.Fprintf(w, "%s%s computes nothing: %s\n", bullet, []string{d.Old, d.New}[i], firstLine(why))
		}
	}
}

// factChange says one changed fact in words; code marks up names and
// values (as code in markdown, as they are in text).
func factChange(f review.FactChange, code func(string) string) string {
	what := f.Kind + " " + f.Key
	switch {
	case f.Old == "":
		return "added " + code(what) + ": " + code(f.New)
	case f.New == "":
		return "removed " + code(what) + " (was " + code(f.Old) + ")"
	}
	return code(what) + ": " + code(f.Old) + " → " + code(f.New)
}

// resultCells are a changed result's name, old, new, change and relative
// change, as people read them.
func resultCells(r review.ResultChange) []string {
	side := func(v *float64, why string) string {
		switch {
		case v != nil:
			return units.Format(*v, r.Unit)
		case why != "":
			code, _, _ := strings.Cut(why, ":")
			return code
		}
		return "—"
	}
	cells := []string{resultName(r), side(r.Old, r.OldErr), side(r.New, r.NewErr), "", ""}
	if r.Old != nil && r.New != nil {
		sign := ""
		if r.Abs > 0 {
			sign = "+"
		}
		cells[3] = sign + units.Format(r.Abs, r.Unit)
		switch {
		case math.IsInf(r.Rel, 0):
			cells[4] = "from zero"
		default:
			cells[4] = fmt.Sprintf("%+.1f %%", r.Rel*100)
		}
	}
	return cells
}

func resultName(r review.ResultChange) string {
	name := r.Scenario + " · " + r.Name
	if r.Offer != "" {
		name = r.Scenario + " · " + r.Name + " vs " + r.Offer
	}
	return name
}

func writeDiffMarkdown(w io.Writer, d review.Diff) {
	fmt.Fprintf(w, "**planner diff** %s\n", strings.ReplaceAll(summary(d), "|", "\\|"))
	if d.Broken != [2]string{} {
		fmt.Fprintln(w)
		writeBroken(w, d, "- ")
	}
	if len(d.Facts) > 0 {
		fmt.Fprintln(w, "\n#### What changed")
		fmt.Fprintln(w)
		for _, f := range d.Facts {
			fmt.Fprintln(w, "- "+oneLine(factChange(f, markdownCode)))
		}
	}
	if len(d.Results) > 0 {
		fmt.Fprintln(w, "\n#### What it did to the results, largest change first")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| result | old | new | change | relative |")
		fmt.Fprintln(w, "|---|--:|--:|--:|--:|")
		for _, r := range d.Results {
			cells := resultCells(r)
			for i := range cells {
				cells[i] = strings.ReplaceAll(oneLine(cells[i]), "|", "\\|")
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
}

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
	Facts     []jsonFactChange  `json:"facts"`
	Results   []jsonResultDiff  `json:"results"`
}

type jsonFactChange struct {
	Kind string `json:"kind"`
	Key  string `json:"key"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

type jsonResultDiff struct {
	Scenario string   `json:"scenario"`
	Offer    string   `json:"offer,omitempty"`
	Name     string   `json:"name"`
	Unit     string   `json:"unit"`
	Old      *float64 `json:"old"`
	New      *float64 `json:"new"`
	OldError string   `json:"old_error,omitempty"`
	NewError string   `json:"new_error,omitempty"`
	Change   *float64 `json:"change,omitempty"`
	Relative *float64 `json:"relative,omitempty"` // null from zero
}

func writeDiffJSON(w io.Writer, d review.Diff) {
	doc := jsonDiff{Old: d.Old, New: d.New, Same: d.Same(), Unrelated: d.Unrelated,
		Facts: []jsonFactChange{}, Results: []jsonResultDiff{}}
	for i, why := range d.Broken {
		if why != "" {
			if doc.Broken == nil {
				doc.Broken = map[string]string{}
			}
			doc.Broken[[]string{"old", "new"}[i]] = why
		}
	}
	for _, f := range d.Facts {
		doc.Facts = append(doc.Facts, jsonFactChange{Kind: f.Kind, Key: f.Key, Old: f.Old, New: f.New})
	}
	for _, r := range d.Results {
		j := jsonResultDiff{Scenario: r.Scenario, Offer: r.Offer, Name: r.Name, Unit: r.Unit, Old: r.Old, New: r.New,
			OldError: r.OldErr, NewError: r.NewErr}
		if r.Old != nil && r.New != nil {
			abs := r.Abs
			j.Change = &abs
			j.Relative = finiteOrNil(r.Rel)
		}
		doc.Results = append(doc.Results, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
}
