package workbooks

import (
	"regexp"
	"strings"
)

// Command is the command line "planner sub path [args]" given as advice in
// a message, each word quoted as a POSIX shell needs: advice followed
// literally must work, for "my plan.xlsx" and for a file called -x.xlsx.
// The args are options and their values, such as "-o", "what-if.xlsx".
func Command(sub, path string, args ...string) string {
	if strings.HasPrefix(path, "-") {
		path = "./" + path // a file, not an option
	}
	words := []string{"planner", sub, shellWord(path)}
	for _, a := range args {
		words = append(words, shellWord(a))
	}
	return strings.Join(words, " ")
}

// shellWord is s as one word of a POSIX shell's command line.
func shellWord(s string) string {
	if !plainWord.MatchString(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,~-]+$`)
