package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"planner/diag"
	"planner/evaluate"
	"planner/internal/safefile"
	"planner/units"
	"planner/workbooks"
)

func newInitCmd() *cobra.Command {
	var output, currency string
	cmd := &cobra.Command{
		Use:   "init WORKBOOK.xlsx",
		Short: "Write a workbook holding every assumption, cloud offer and formula, ready to edit",
		Long: fmt.Sprintf(`init writes the %d sheets a plan is kept in, with the article's figures (prices of
2026-10-10):

%s

When the file exists, init adds the sheets to it and changes nothing else. A sheet of
yours with the name of one of these is read as planner's when it has planner's header row
and the others need nothing from it; otherwise planner names its own beside it, such as
"Formulas (planner)", and says so. init refuses if the workbook has planner's input sheets
already, a sheet eval writes (Results, …) or a defined name planner needs. With -o it
writes the workbook with planner's sheets added to a new file instead, and leaves
WORKBOOK alone.

With --currency EUR (any ISO 4217 code) the workbook is in that currency: its input
currency says EUR, its money cells show €, its units read €/kWh. Its figures stay the
article's, which are US dollars, and planner converts none of them: init warns you to
type your own prices over them (or to mark an offer kept in dollars USD in its Cloud
currency cell, with its rate on the FX sheet).`,
			len(workbooks.InputSheets()), indented(diag.ListAnd(workbooks.InputSheets()))),
		Example:           "  planner init plan.xlsx\n  planner init budget.xlsx -o plan.xlsx\n  planner init plan.xlsx --currency EUR",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cur, err := initCurrency(args[0], output, currency)
			if err != nil {
				return report(cmd, err)
			}
			return runInit(cmd, args[0], output, cur)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the workbook with planner's sheets added to `OUT.xlsx`, a new file, and leave WORKBOOK alone")
	cmd.Flags().StringVar(&currency, "currency", units.Dollars, "the `CODE` (ISO 4217) of the currency the workbook is in: EUR, GBP, CHF")
	_ = cmd.RegisterFlagCompletionFunc("currency", cobra.FixedCompletions(units.SignedCurrencies(), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// initCurrency is the currency --currency names, or an error that says
// what to type instead.
func initCurrency(path, output, code string) (units.Currency, error) {
	cur, ok := units.CurrencyOf(code)
	if ok {
		return cur, nil
	}
	again := []string{"--currency", "EUR"}
	if output != "" {
		again = []string{"-o", output, "--currency", "EUR"}
	}
	return cur, fmt.Errorf("--currency %q is not an ISO 4217 currency code; type the three letters of one, such as USD, EUR, GBP or CHF: %s",
		code, workbooks.Command("init", path, again...))
}

func runInit(cmd *cobra.Command, path, output string, cur units.Currency) error {
	target := path
	if output != "" && !safefile.SameFile(output, path) {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return report(cmd, fmt.Errorf("%s: no such file; -o writes a copy of a workbook you have, with planner's sheets added; to start a new workbook, run %s",
				path, workbooks.Command("init", output)))
		}
		if _, err := os.Lstat(output); err == nil {
			return report(cmd, fmt.Errorf("%s: exists; planner init -o writes a new file and replaces none: choose another name for -o", output))
		}
		target = output
	}
	if err := safefile.CheckNotOpen(target); err != nil {
		return report(cmd, err)
	}
	// Save refuses a read-only file or folder; a workbook init would refuse
	// whatever its mode is told so first, so that -o is advised only where
	// it helps.
	unlock, err := safefile.Lock(target, evaluate.LockWait)
	if err != nil {
		return report(cmd, err)
	}
	defer unlock()
	in, err := workbooks.Init(path, cur)
	if err != nil {
		return report(cmd, err)
	}
	was := in.Original
	if target != path {
		was = safefile.Original{} // -o names a new file
	}
	if err := workbooks.Save(target, in.Data, was); err != nil {
		again := workbooks.Command("init", path)
		if target != path {
			again = workbooks.Command("init", path, "-o", output)
		}
		return report(cmd, workbooks.RunAgain(err, again))
	}
	for _, w := range in.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", oneLine(w.Error()))
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: wrote the sheets %s; edit the assumptions, then run %s\n",
		target, diag.ListAnd(in.Sheets), workbooks.Command("eval", target))
	return nil
}

// report prints err for the user and fails the command.
func report(cmd *cobra.Command, err error) error {
	fmt.Fprintln(cmd.ErrOrStderr(), err)
	return failed{exitFailed}
}
