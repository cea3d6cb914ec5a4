package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"planner/engine"
	"planner/evaluate"
	"planner/formulas"
	"planner/workbooks"
)

func newFormulasCmd() *cobra.Command {
	var excel bool
	cmd := &cobra.Command{
		Use:   "formulas [WORKBOOK.xlsx]",
		Short: "List the formulas, and with --excel their translation into Excel's formula language",
		Long: `formulas lists every formula of the workbook (or of the built-in library): its name,
unit and expression. With --excel it prints the Excel formula planner writes into the
Results sheet's base column, over the inputs' and formulas' defined names, where
spreadsheets recalculate it live. A per-offer formula's offer_price is, in the sheet, the
offer's price cell.`,
		Example:           "  planner formulas --excel\n  planner formulas plan.xlsx --excel",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			m := workbooks.DefaultModel()
			if len(args) == 1 {
				book, err := workbooks.Read(args[0])
				if err != nil {
					return report(cmd, err)
				}
				m = book.Model
			}
			plan, err := evaluate.Build(m)
			if err != nil {
				return report(cmd, err)
			}
			t := &table{right: []bool{false, false, false}}
			if excel {
				t.add("formula", "unit", "Excel")
			} else {
				t.add("formula", "unit", "expression")
			}
			for _, c := range plan.Checked() {
				t.add(c.Name, c.Unit, formulaText(plan, c, excel))
			}
			t.write(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().BoolVar(&excel, "excel", false, "print each formula as planner writes it for Excel")
	return cmd
}

func formulaText(plan *engine.Plan, c *formulas.Checked, excel bool) string {
	if !excel {
		return c.Source
	}
	s, err := c.Excel(plan.Env(), func(name string) (string, error) {
		if workbooks.ExcelNameProblem(name) != "" {
			return "<the cell of " + name + ">", nil
		}
		return name, nil
	})
	if err != nil {
		return fmt.Sprintf("(stays a value: %v)", err)
	}
	return "=" + s
}
