// Package evaluate is planner's main job as a library: read a workbook,
// build and evaluate its model with the user's --set overrides, run Monte
// Carlo and the what-ifs, and write the results back into the workbook
// safely, or check that the results already there are up to date. The
// command line is a thin layer over Evaluate; so is any other program that
// wants planner's results for a file.
//
// It owns the order of the steps and what becomes of the file; the steps
// themselves belong to engine, montecarlo, whatif, deploy and workbooks.
// It also reads what the other commands' flags ask for (a goal, a scenario,
// a model to size), computes what show prints, and builds the JSON document
// of every command, planner's machine interface, so that a program using
// the library gets what the command line prints.
// It prints nothing and never exits: everything a user should hear comes
// back in the Report. It must not import cobra.
package evaluate
