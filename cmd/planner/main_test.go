package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// update rewrites the expected output that scripts compare with cmp: after
// a deliberate change to what planner prints, go test ./cmd/planner -run
// TestScripts -update puts planner's new output into each failing cmp's
// file section of the script's own archive. Read the diff before committing
// it. cmpenv sections are never rewritten.
var update = flag.Bool("update", false, "rewrite the cmp sections of testdata/script/*.txtar with planner's output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"planner": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script. Besides planner they
// use small commands that stand in for a user editing the workbook in a
// spreadsheet application; see helpers_test.go. Whole tables and reports
// are compared with cmp against a golden file section of the same script
// (NAME.golden); -update rewrites those sections from planner's output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Cmds:                scriptCommands,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
	})
}
