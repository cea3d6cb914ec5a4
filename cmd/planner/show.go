package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"planner/evaluate"
	"planner/facts"
)

// priceAge binds --today and --max-price-age, for show and eval.
type priceAge struct{ evaluate.PriceAge }

func (a *priceAge) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&a.Today, "today", "", "measure the prices' age on this `DATE` (YYYY-MM-DD) instead of today")
	cmd.Flags().IntVar(&a.MaxAge, "max-price-age", facts.DefaultMaxPriceAge, "warn about cloud prices older than this many `DAYS`")
}

func newShowCmd() *cobra.Command {
	var age priceAge
	var format string
	cmd := &cobra.Command{
		Use:   "show WORKBOOK.xlsx",
		Short: "Print the workbook as sorted text, one fact per line: for review and git diff",
		Long: `show prints every assumption, formula, offer, scenario, catalog entry, what-if and
source of the workbook, and every result computed from them, one per line, sorted, the
same on any machine. Set it up as git's text conversion for workbooks, and git diff and
pull requests show which assumption moved and what that did to every result:

  echo '*.xlsx diff=planner' >> .gitattributes
  git config diff.planner.textconv "planner show"

show exits with status 0 whenever the file is a workbook, even when a cell holds a typo
(each problem is a line of the text, at its cell) or its results cannot be computed (the
text says why): git's diff stops at a text conversion that fails.`,
		Example:           "  planner show plan.xlsx\n  planner show plan.xlsx --today 2026-11-30\n  planner show plan.xlsx --format json",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if format, err = checkFormat(format); err != nil {
				return err
			}
			if err := age.Check(); err != nil {
				return err
			}
			s, err := evaluate.Show(args[0], age.PriceAge)
			if err != nil {
				return report(cmd, err)
			}
			if format == "json" {
				return writeDoc(cmd.OutOrStdout(), s.JSON())
			}
			writeShown(cmd, s)
			return nil
		},
	}
	age.flags(cmd)
	formatFlag(cmd, &format)
	return cmd
}

func writeShown(cmd *cobra.Command, s *evaluate.Shown) {
	for _, w := range s.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", oneLine(w.Error()))
	}
	out := cmd.OutOrStdout()
	for _, f := range s.Facts {
		fmt.Fprintln(out, oneLine(f.String()))
	}
	if s.Broken != "" {
		// The facts are shown; the results cannot be. Say why in the text,
		// so that a diff shows a workbook that broke.
		fmt.Fprintf(out, "results = not computed: %s\n", s.Broken)
		return
	}
	switch {
	case s.Stored == "":
		fmt.Fprintf(out, "results = computed by planner show from inputs %s; the workbook has no Results sheet\n", s.Inputs)
	case s.Stored != s.Inputs:
		fmt.Fprintf(out, "results = computed by planner show from inputs %s; the Results sheet is stale (from inputs %s)\n", s.Inputs, s.Stored)
	default:
		fmt.Fprintf(out, "results = computed by planner show from inputs %s, as in the Results sheet\n", s.Inputs)
	}
	for _, r := range s.Results {
		fmt.Fprintln(out, oneLine(fmt.Sprintf("result %s = %s", r.Key(), r.Text())))
	}
}
