package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"planner/evaluate"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"planner/diag"
)

// version is planner's version, --version's and every owned sheet's.
const version = evaluate.Version

// build is the build of planner that runs, which a workbook's proof of
// being up to date names (evaluate.ThisBuild); tests set their own.
var build = evaluate.ThisBuild()

func main() {
	limitMemory()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit statuses, one rule for every command; exitRule states it in the
// root's help.
const (
	exitOK      = 0
	exitFailed  = 1 // a finding, or a mistake planner names
	exitTrouble = 2 // planner could not finish: interrupted, or a bug of its own
)

const exitRule = `Exit status, the same for every command:
  0  done, and nothing to act on
  1  something to act on, which planner names: a finding (a stale --check, a goal
     without an answer, workbooks that differ) or a mistake (a flag or argument
     planner cannot use, a workbook it cannot read, evaluate or write)
  2  planner could not finish: it was interrupted, or it failed for a bug of its
     own, which it reports as one
With diff --policy, the status is the policy's: 0 no rule denies (warnings
printed), 1 a rule denies, 2 planner cannot tell whether the rules hold (a side
or the policy it cannot read, a rule it cannot apply)`

// failed is returned by a command that has already told the user what went
// wrong, one line per problem, and only needs the exit status set.
type failed struct{ status int }

func (f failed) Error() string { return fmt.Sprintf("exit status %d", f.status) }

func run(args []string, stdout, stderr io.Writer) int {
	out, errs := newSafeWriter(stdout), newSafeWriter(stderr)
	defer out.Flush()
	defer errs.Flush()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := newRootCmd(out, errs)
	root.SetArgs(args)
	return execute(ctx, root, errs)
}

// execute runs the command line and gives its exit status by the rule: an
// error the command did not print itself is the command line's (1), an
// interruption or a panic is trouble (2).
func execute(ctx context.Context, root *cobra.Command, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "planner: internal error: %v\nThis is a bug in planner, not a mistake of yours: please report it with the command you ran, this trace and, if you can share it, the workbook.\n%s", r, debug.Stack())
			status = exitTrouble
		}
	}()
	err := root.ExecuteContext(ctx)
	var f failed
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &f):
		return f.status
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "planner: interrupted")
		return exitTrouble
	}
	fmt.Fprintln(stderr, "planner:", err)
	return exitFailed
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "planner",
		Short: "Rent or own GPUs: cost models in Excel workbooks, evaluated headless",
		Long: `planner evaluates the GPU cost model kept in an Excel workbook: capital, power and
rack cost per GPU-hour, break-even utilisation against every cloud offer, and the
rent-or-buy verdict, written back into the workbook as sheets a reviewer can read.

` + exitRule,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newInitCmd(), newEvalCmd(), newImportCmd(), newSizeCmd(), newSolveCmd(), newShowCmd(), newDiffCmd(), newFormulasCmd())
	strictCompletion(root)
	return root
}

// workbookArgs completes workbook file names in shells.
func workbookArgs(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return []string{"xlsx", "xlsm"}, cobra.ShellCompDirectiveFilterFileExt
}

// strictCompletion makes cobra's completion command refuse a shell it has
// no script for, naming those it has, instead of printing its help with
// status 0.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sub := range c.Commands() {
			shells = append(shells, sub.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("completion: name your shell: planner completion %s", strings.Join(shells, "|"))
			}
			return fmt.Errorf("completion %s: planner writes completion scripts for %s only", args[0], diag.ListAnd(shells))
		}
	}
}

// warnOld warns on standard error that an old flag, hidden but still
// working, was used (cobra's MarkDeprecated would print on standard output,
// into the JSON a script reads).
func warnOld(cmd *cobra.Command, flag, advice string) {
	if cmd.Flags().Changed(flag) {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: --%s is an old flag of planner %s, kept for the scripts that use it: %s\n", flag, cmd.Name(), advice)
	}
}
