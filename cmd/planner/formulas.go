package main

import (
	"github.com/spf13/cobra"

	"planner/evaluate"
	"planner/workbooks"
)

func newFormulasCmd() *cobra.Command {
	var excel bool
	var format string
	cmd := &cobra.Command{
		Use:   "formulas [WORKBOOK.xlsx]",
		Short: "List the formulas, and with --excel their translation into Excel's formula language",
		Long: `formulas lists every formula of the workbook (or of the built-in library): its name,
unit and expression. With --excel it prints the Excel formula planner writes into the
Results sheet's base column, over the inputs' and formulas' defined names, where
spreadsheets recalculate it live. A per-offer formula's offer_price is, in the sheet, the
offer's price cell.`,
		Example:           "  planner formulas --excel\n  planner formulas plan.xlsx --excel\n  planner formulas plan.xlsx --format json",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if format, err = checkFormat(format); err != nil {
				return err
			}
			m, file := workbooks.DefaultModel(), ""
			if len(args) == 1 {
				book, err := workbooks.Read(args[0])
				if err != nil {
					return report(cmd, err)
				}
				m, file = book.Model, args[0]
			}
			plan, err := evaluate.Build(m)
			if err != nil {
				return report(cmd, err)
			}
			if format == "json" {
				return writeDoc(cmd.OutOrStdout(), evaluate.FormulasJSON(file, plan, excel))
			}
			t := &table{right: []bool{false, false, false}}
			if excel {
				t.add("formula", "unit", "Excel")
			} else {
				t.add("formula", "unit", "expression")
			}
			for _, c := range plan.Checked() {
				text := c.Source
				if excel {
					text = evaluate.Excel(plan, c)
				}
				t.add(c.Name, plan.Currency().Unit(c.Unit), text)
			}
			t.write(cmd.OutOrStdout())
			return nil
		},
	}
	cmd.Flags().BoolVar(&excel, "excel", false, "print each formula as planner writes it for Excel")
	formatFlag(cmd, &format)
	return cmd
}
