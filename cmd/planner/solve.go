package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"planner/domain"
	"planner/engine"
	"planner/evaluate"
	"planner/whatif"
	"planner/workbooks"
)

type solveOptions struct {
	evaluate.GoalRequest
	with     []string // --with, the old name of --set
	scenario string   // --scenario: solve in this scenario
	format   string
}

func newSolveCmd() *cobra.Command {
	var opts solveOptions
	cmd := &cobra.Command{
		Use:   "solve WORKBOOK.xlsx --for INPUT --target NAME=VALUE",
		Short: "Goal seek: which value of an input makes a formula reach a value",
		Long: `solve finds the value of one input (--for) at which a formula (--target) reaches a
value, as Excel's Goal Seek does, by Brent's method inside a bracket: --between, else the
input's low and high in Assumptions, else wider ranges its unit allows. Without a bracket
it says so, with the formula's values at the ends, and exits with status 1: it never
prints a number that does not reach the goal. The workbook is only read.`,
		Example: `  planner solve plan.xlsx --for utilization --target cost_per_used_hour=2.69
  planner solve plan.xlsx --for capex --target cost_per_used_hour=2.69 --set utilization=40%
  planner solve plan.xlsx --for residual --target breakeven_utilization=35% --offer "Lambda H100, 8-GPU plan"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			warnOld(cmd, "with", "use --set NAME=VALUE, as eval does")
			opts.Sets = append(opts.Sets, opts.with...)
			return runSolve(cmd, args[0], opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.For, "for", "", "the `INPUT` to solve for (required)")
	f.StringVar(&opts.Target, "target", "", "the formula and the value it must reach: `NAME=VALUE` (required)")
	f.StringVar(&opts.Offer, "offer", "", "for a formula evaluated per offer: the `OFFER` (provider and offer, as the Results sheet names it)")
	f.StringArrayVar(&opts.Sets, "set", nil, "set another input while solving: `NAME=VALUE`, as eval's --set; repeatable")
	f.StringArrayVar(&opts.with, "with", nil, "the old name of --set")
	_ = f.MarkHidden("with")
	f.StringVar(&opts.Between, "between", "", "look for the answer between `LOW,HIGH` (default: the input's range)")
	f.StringVar(&opts.scenario, "scenario", domain.Base, "solve in this `NAME`d scenario")
	formatFlag(cmd, &opts.format)
	_ = cmd.MarkFlagRequired("for")
	_ = cmd.MarkFlagRequired("target")
	completeFlags(cmd, map[string]cobra.CompletionFunc{"for": complete(inputNames), "target": completeNamed(formulaNames),
		"offer": complete(offerNames), "set": completeSet, "with": completeSet, "scenario": complete(scenarioNames)})
	return cmd
}

func runSolve(cmd *cobra.Command, path string, opts solveOptions) error {
	var err error
	if opts.format, err = checkFormat(opts.format); err != nil {
		return err
	}
	book, err := workbooks.Read(path)
	if err != nil {
		return report(cmd, err)
	}
	plan, err := evaluate.Build(book.Model)
	if err != nil {
		return report(cmd, err)
	}
	goal, err := evaluate.Goal(plan, opts.GoalRequest)
	if err != nil {
		return err
	}
	sc, err := evaluate.Scenario(plan, opts.scenario)
	if err != nil {
		return err
	}
	// The workbook's and the overrides' warnings are eval's: an implausible
	// value warned of there is one here too.
	for _, w := range slices.Concat(book.Warnings, plan.Warnings(), plan.OverrideWarnings(goal.With)) {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", oneLine(w.Error()))
	}
	sol, err := whatif.Solve(plan, sc, goal)
	if err != nil {
		return report(cmd, fmt.Errorf("%s: %w", path, err))
	}
	if opts.format == "json" {
		writeSolutionJSON(cmd.OutOrStdout(), path, sc.Name, sol)
	} else {
		writeSolution(cmd.OutOrStdout(), plan, sc.Name, sol)
	}
	if !sol.Found {
		return report(cmd, fmt.Errorf("%s: %s", path, sol.Why))
	}
	return nil
}

func writeSolution(w io.Writer, plan *engine.Plan, scenario string, s whatif.Solution) {
	m := plan.Model()
	in, _ := m.Input(s.For)
	unit := plan.Unit(s.Target)
	target := s.Target
	if s.Offer != "" {
		target += " vs " + s.Offer
	}
	if !s.Found {
		fmt.Fprintf(w, "%s: no answer for %s = %s (scenario %s)\n", s.For, target, m.Currency.Format(s.Value, unit), scenario)
		return
	}
	steps := "steps"
	if s.Iterations == 1 {
		steps = "step"
	}
	fmt.Fprintf(w, "%s = %s makes %s = %s (scenario %s; %d %s)\n",
		s.For, m.Currency.Format(s.X, in.Unit), target, m.Currency.Format(s.Reached, unit), scenario, s.Iterations, steps)
}

func writeSolutionJSON(w io.Writer, path, scenario string, s whatif.Solution) {
	j := evaluate.Solution(s)
	j.File, j.Scenario = path, scenario
	_ = writeDoc(w, j)
}
