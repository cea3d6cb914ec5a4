package main

import (
	"fmt"
	"os"

	"github.com/xuri/excelize/v2"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: floor IN.xlsx OUT.xlsx")
		os.Exit(2)
	}
	if err := openAndSave(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// openAndSave opens in with excelize and saves it as out: every part read
// and written back, none of it looked at.
func openAndSave(in, out string) error {
	f, err := excelize.OpenFile(in)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.SaveAs(out)
}
