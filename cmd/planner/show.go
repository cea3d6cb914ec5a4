package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"planner/evaluate"
	"planner/facts"
	"planner/units"
	"planner/workbooks"
)

// priceAge binds --today and --max-price-age, for show and eval.
type priceAge struct{ evaluate.PriceAge }

func (a *priceAge) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&a.Today, "today", "", "measure the prices' age on this `DATE` (YYYY-MM-DD) instead of the workbook's own date")
	cmd.Flags().IntVar(&a.MaxAge, "max-price-age", facts.DefaultMaxPriceAge, "warn about cloud prices older than this many `DAYS`")
}

func newShowCmd() *cobra.Command {
	var age priceAge
	cmd := &cobra.Command{
		Use:   "show WORKBOOK.xlsx",
		Short: "Print the workbook as sorted text, one fact per line: for review and git diff",
		Long: `show prints every assumption, formula, offer, scenario, catalog entry, what-if and
source of the workbook, and every result computed from them, one per line, sorted, the
same on any machine. Set it up as git's text conversion for workbooks, and git diff and
pull requests show which assumption moved and what that did to every result:

  echo '*.xlsx diff=planner' >> .gitattributes
  git config diff.planner.textconv "planner show"`,
		Example:           "  planner show plan.xlsx\n  planner show plan.xlsx --today 2026-11-30",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := age.Check(); err != nil {
				return err
			}
			return runShow(cmd, args[0], age)
		},
	}
	age.flags(cmd)
	return cmd
}

func runShow(cmd *cobra.Command, path string, age priceAge) error {
	book, err := workbooks.Read(path)
	if err != nil {
		return report(cmd, err)
	}
	for _, w := range append(book.Warnings, age.Warnings(book)...) {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", oneLine(w.Error()))
	}
	out := cmd.OutOrStdout()
	for _, f := range facts.Of(book.Model) {
		fmt.Fprintln(out, oneLine(f.String()))
	}
	plan, err := evaluate.Build(book.Model)
	if err != nil {
		// The facts are shown; the results cannot be. Say why in the text,
		// so that a diff shows a workbook that broke.
		fmt.Fprintf(out, "results = not computed: %v\n", err)
		return nil
	}
	results, err := plan.EvalAll(nil)
	if err != nil {
		fmt.Fprintf(out, "results = not computed: %v\n", err)
		return nil
	}
	writeStatus(out, book)
	for _, r := range facts.Results(plan, results) {
		fmt.Fprintln(out, oneLine(fmt.Sprintf("result %s = %s", r.Key(), resultText(r))))
	}
	return nil
}

// writeStatus says whether planner's sheets are up to date with the inputs.
func writeStatus(w io.Writer, book *workbooks.Book) {
	now := facts.Fingerprint(book.Model)
	switch stored, ok := book.Computed[workbooks.SheetResults]; {
	case !ok:
		fmt.Fprintf(w, "results = computed by planner show from inputs %s; the workbook has no Results sheet\n", now)
	case stored != now:
		fmt.Fprintf(w, "results = computed by planner show from inputs %s; the Results sheet is stale (from inputs %s)\n", now, stored)
	default:
		fmt.Fprintf(w, "results = computed by planner show from inputs %s, as in the Results sheet\n", now)
	}
}

// resultText is a value to 12 significant digits and as a person reads it,
// or the reason it has none.
func resultText(r facts.Result) string {
	if r.Err != "" {
		return r.Err
	}
	v := strconv.FormatFloat(r.Value, 'g', 12, 64)
	if r.Unit == units.Share {
		return fmt.Sprintf("%s (%s)", v, units.Format(r.Value, r.Unit)) // 0.61 is 61 %, not 0.61 %
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s (%s)", v, r.Unit, units.Format(r.Value, r.Unit)))
}
