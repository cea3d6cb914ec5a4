package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"planner/workbooks"
)

func newInitCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init WORKBOOK.xlsx",
		Short: "Write a workbook holding every assumption, cloud offer and formula, ready to edit",
		Long: `init writes the sheets Assumptions, Cloud and Formulas with the article's figures
(prices of 2026-10-10). When the file exists, init adds the sheets to it and changes
nothing else; it refuses if the workbook already has a sheet or a name planner needs.`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: workbookArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(cmd, args[0])
		},
	}
}

func runInit(cmd *cobra.Command, path string) error {
	if err := workbooks.CheckNotOpen(path); err != nil {
		return report(cmd, err)
	}
	if err := workbooks.CheckWritable(path); err != nil {
		return report(cmd, err)
	}
	unlock, err := workbooks.Lock(path, lockWait)
	if err != nil {
		return report(cmd, err)
	}
	defer unlock()
	data, err := workbooks.Init(path)
	if err != nil {
		return report(cmd, err)
	}
	if err := workbooks.Save(path, data); err != nil {
		return report(cmd, err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "%s: wrote the sheets %s; edit the assumptions, then run planner eval %s\n",
		path, joinSheets(workbooks.InputSheets), path)
	return nil
}

// report prints err for the user and fails the command.
func report(cmd *cobra.Command, err error) error {
	fmt.Fprintln(cmd.ErrOrStderr(), err)
	return failed{exitFailed}
}

func joinSheets(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, x := range s[1 : len(s)-1] {
		out += ", " + x
	}
	return out + " and " + s[len(s)-1]
}
