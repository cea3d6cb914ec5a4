// Command planner evaluates GPU cost models kept in Excel workbooks: how many
// GPUs one replica needs, and whether renting them by the hour or owning the
// server is cheaper.
//
// It is flags and printers: one file per subcommand builds its cobra command
// and prints what the library packages compute (evaluate for eval, whatif
// for solve, review for diff, facts for show), as text or as the JSON
// documents evaluate builds; all printing, shell completion of the names a
// workbook holds, and every exit status, by the one rule of main.go, live
// here. The terminal-safe writer keeps
// text from a workbook from moving the cursor or passing for planner's own
// lines. Nothing below it may import it.
package main
