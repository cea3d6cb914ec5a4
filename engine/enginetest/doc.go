// Package enginetest holds the models the tests of planner's packages
// share: SPEC.md's default node and the variants tests start from, with
// helpers that evaluate them. It is for tests only.
//
// It must not import workbooks, excelize, cobra or os.
package enginetest
