package workbooks

import (
	"regexp"
	"strings"
)

// Command is the command line "planner sub path" given as advice in a
// message, the path quoted as a POSIX shell needs: advice followed
// literally must work, for "my plan.xlsx" and for a file called -x.xlsx.
func Command(sub, path string) string {
	if strings.HasPrefix(path, "-") {
		path = "./" + path // a file, not an option
	}
	if !plainWord.MatchString(path) {
		path = "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
	}
	return "planner " + sub + " " + path
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,~-]+$`)
