package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestTry(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/try", Cmds: scriptCommands, RequireExplicitExec: true})
}
