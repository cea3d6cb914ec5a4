package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"planner/evaluate"

	"github.com/spf13/cobra"
)

// version is planner's version, --version's and every owned sheet's.
const version = evaluate.Version

func main() {
	limitMemory()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailed  = 1 // a workbook could not be evaluated or written
	exitTrouble = 2 // planner was called wrongly
)

// failed is returned by a command that has already told the user what went
// wrong, one line per problem, and only needs the exit status set.
type failed struct{ status int }

func (f failed) Error() string { return fmt.Sprintf("exit status %d", f.status) }

func run(args []string, stdout, stderr io.Writer) int {
	out, errs := newSafeWriter(stdout), newSafeWriter(stderr)
	defer out.Flush()
	defer errs.Flush()
	stdout, stderr = out, errs
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var f failed
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &f):
		return f.status
	}
	fmt.Fprintln(stderr, "planner:", err)
	return exitTrouble
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "planner",
		Short: "Rent or own GPUs: cost models in Excel workbooks, evaluated headless",
		Long: `planner evaluates the GPU cost model kept in an Excel workbook: capital, power and
rack cost per GPU-hour, break-even utilisation against every cloud offer, and the
rent-or-buy verdict, written back into the workbook as sheets a reviewer can read.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newInitCmd(), newEvalCmd(), newSizeCmd(), newSolveCmd(), newShowCmd(), newDiffCmd(), newFormulasCmd())
	return root
}

// workbookArgs completes workbook file names in shells.
func workbookArgs(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"xlsx", "xlsm"}, cobra.ShellCompDirectiveFilterFileExt
}
