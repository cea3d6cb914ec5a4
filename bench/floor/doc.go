// Command floor is the least any program can do with a workbook planner
// evaluated: open it with excelize and save it again, every part read and
// compressed anew, none of it looked at. bench/compare.sh times planner
// eval of the default workbook against it, in the same run, as the floor
// of what a Go program that reads and writes xlsx costs:
//
//	go build -o floor ./bench/floor
//	./floor evaluated.xlsx copy.xlsx
//
// It is no part of planner and imports none of it.
package main
