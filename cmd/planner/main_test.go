package main

import (
	"flag"
	"os"
	"path/filepath"
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
	if filepath.Base(os.Args[0]) == "planner" {
		// A script's planner: its cache folder is the script's (see Setup).
		testscript.Main(m, scriptPlanner)
	}
	// planner remembers the workbooks it left up to date in the user's
	// cache folder; the tests keep a folder of their own.
	cache, err := os.MkdirTemp("", "planner-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	testscript.Main(removingAfter{m, cache}, scriptPlanner)
}

var scriptPlanner = map[string]func(){
	"planner": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
}

// removingAfter runs the tests, then removes a folder they used.
type removingAfter struct {
	*testing.M
	dir string
}

func (r removingAfter) Run() int {
	defer os.RemoveAll(r.dir)
	return r.M.Run()
}

// TestScripts runs the CLI scripts in testdata/script. Besides planner they
// use small commands that stand in for a user editing the workbook in a
// spreadsheet application; see helpers_test.go. Figures are checked
// against SPEC.md's arithmetic worked by hand (owning, renting, sampled,
// shown, diffed; see figures_test.go); the few golden file sections
// (NAME.golden) hold layout and wording, and -update rewrites them.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Cmds:                scriptCommands,
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.Getenv("TMPDIR"), "cache"))
			return nil
		},
	})
}
