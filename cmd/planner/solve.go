package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"planner/engine"
	"planner/evaluate"
	"planner/units"
	"planner/whatif"
	"planner/workbooks"
)

type solveOptions struct {
	input    string   // --for: the input to solve for
	target   string   // --target NAME=VALUE
	offer    string   // --offer: for a per-offer target
	with     []string // --with NAME=VALUE: other inputs set while solving
	between  string   // --between LOW,HIGH: where to look
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
  planner solve plan.xlsx --for capex --target cost_per_used_hour=2.69 --with utilization=40%
  planner solve plan.xlsx --for residual --target breakeven_utilization=35% --offer "Lambda H100, 8-GPU plan"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSolve(cmd, args[0], opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.input, "for", "", "the `INPUT` to solve for (required)")
	f.StringVar(&opts.target, "target", "", "the formula and the value it must reach: `NAME=VALUE` (required)")
	f.StringVar(&opts.offer, "offer", "", "for a formula evaluated per offer: the `OFFER` (provider and offer, as the Results sheet names it)")
	f.StringArrayVar(&opts.with, "with", nil, "set another input while solving: `NAME=VALUE`; repeatable")
	f.StringVar(&opts.between, "between", "", "look for the answer between `LOW,HIGH` (default: the input's range)")
	f.StringVar(&opts.scenario, "scenario", engine.Base, "solve in this `NAME`d scenario")
	f.StringVar(&opts.format, "format", "table", "output format: table or json")
	_ = cmd.MarkFlagRequired("for")
	_ = cmd.MarkFlagRequired("target")
	return cmd
}

func runSolve(cmd *cobra.Command, path string, opts solveOptions) error {
	if opts.format != "table" && opts.format != "json" {
		return fmt.Errorf("--format %s: use table or json", opts.format)
	}
	book, err := workbooks.Read(path)
	if err != nil {
		return report(cmd, err)
	}
	plan, err := evaluate.Build(book.Model)
	if err != nil {
		return report(cmd, err)
	}
	goal, err := goalFromFlags(opts, plan)
	if err != nil {
		return err
	}
	sc, err := scenarioNamed(plan, opts.scenario)
	if err != nil {
		return err
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

// goalFromFlags reads the goal the flags describe and refuses one the
// model cannot solve, naming the flag at fault.
func goalFromFlags(opts solveOptions, plan *engine.Plan) (engine.Goal, error) {
	g := engine.Goal{Name: "--for " + opts.input, For: opts.input, Offer: opts.offer}
	name, raw, ok := strings.Cut(opts.target, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return g, fmt.Errorf("--target %s: write NAME=VALUE, such as --target cost_per_used_hour=2.69", opts.target)
	}
	g.Target = strings.TrimSpace(name)
	v, err := evaluate.ParseNumber(strings.TrimSpace(raw))
	if err != nil {
		return g, fmt.Errorf("--target %s: %v", opts.target, err)
	}
	g.Value = v
	if g.With, err = evaluate.ParseSets(opts.with, plan); err != nil {
		return g, errors.New(strings.ReplaceAll(err.Error(), "--set ", "--with "))
	}
	if opts.between != "" {
		low, high, ok := strings.Cut(opts.between, ",")
		var errLow, errHigh error
		g.Low, errLow = evaluate.ParseNumber(strings.TrimSpace(low))
		g.High, errHigh = evaluate.ParseNumber(strings.TrimSpace(high))
		if !ok || errLow != nil || errHigh != nil {
			return g, fmt.Errorf("--between %s: write LOW,HIGH, such as --between 10%%,100%%", opts.between)
		}
		g.HasRange = true
	}
	flags := map[string]string{"for": "--for " + opts.input, "target": "--target " + opts.target,
		"offer": strings.TrimSpace("--offer " + opts.offer), "with": "--with", "low": "--between " + opts.between}
	for _, p := range whatif.GoalProblems(plan, g) {
		return g, fmt.Errorf("%s: %s", flags[p.Column], p.Msg)
	}
	return g, nil
}

// scenarioNamed is the named scenario, base included.
func scenarioNamed(plan *engine.Plan, name string) (engine.Scenario, error) {
	var names []string
	for _, sc := range plan.Scenarios(nil) {
		if sc.Name == name {
			return sc, nil
		}
		names = append(names, sc.Name)
	}
	return engine.Scenario{}, fmt.Errorf("--scenario %s: there is no such scenario; the scenarios are %s", name, strings.Join(names, ", "))
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
		fmt.Fprintf(w, "%s: no answer for %s = %s (scenario %s)\n", s.For, target, units.Format(s.Value, unit), scenario)
		return
	}
	steps := "steps"
	if s.Iterations == 1 {
		steps = "step"
	}
	fmt.Fprintf(w, "%s = %s makes %s = %s (scenario %s; %d %s)\n",
		s.For, units.Format(s.X, in.Unit), target, units.Format(s.Reached, unit), scenario, s.Iterations, steps)
}

type jsonSolution struct {
	File       string             `json:"file,omitempty"`
	Scenario   string             `json:"scenario,omitempty"`
	Name       string             `json:"name,omitempty"`
	For        string             `json:"for"`
	Target     string             `json:"target"`
	Value      float64            `json:"value"`
	Offer      string             `json:"offer,omitempty"`
	With       map[string]float64 `json:"with,omitempty"`
	Found      bool               `json:"found"`
	Answer     *float64           `json:"answer,omitempty"`
	Reached    *float64           `json:"reached,omitempty"`
	Iterations int                `json:"iterations,omitempty"`
	Why        string             `json:"why,omitempty"`
}

func solutionJSON(s whatif.Solution) jsonSolution {
	j := jsonSolution{For: s.For, Target: s.Target, Value: s.Value, Offer: s.Offer, Found: s.Found, Why: s.Why}
	if len(s.With) > 0 {
		j.With = map[string]float64{}
		for k, v := range s.With {
			j.With[k] = v.Num
		}
	}
	if s.Found {
		j.Answer, j.Reached, j.Iterations = &s.X, &s.Reached, s.Iterations
	}
	return j
}

func writeSolutionJSON(w io.Writer, path, scenario string, s whatif.Solution) {
	j := solutionJSON(s)
	j.File, j.Scenario = path, scenario
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(j)
}
