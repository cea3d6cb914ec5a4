package diag

import (
	"strings"
)

// List joins names for a message, "base, H100 low, H200 node", so that a
// reader can tell where each one ends. Names may hold commas of their own
// (an offer "RunPod H100 SXM, Community", a scenario "H100 mid, 30 %
// residual"): when one does, every name is separated by "; " instead, and a
// name that holds a semicolon as well is quoted. Every message that lists
// names lists them with List or ListAnd.
func List(names []string) string {
	sep := separator(names)
	return strings.Join(marked(names, sep), sep)
}

// ListAnd is List for a sentence: "Results, Sizing and Goal seek", or
// "RunPod H200; RunPod H100 SXM, Community; and Lambda B200" when a name
// holds a comma.
func ListAnd(names []string) string { return sentence(names, "and") }

// ListOr is ListAnd with "or": "BF16, FP8 or INT4".
func ListOr(names []string) string { return sentence(names, "or") }

func sentence(names []string, word string) string {
	sep := separator(names)
	ns := marked(names, sep)
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	last := " " + word + " "
	if sep == "; " {
		last = "; " + word + " "
	}
	return strings.Join(ns[:len(ns)-1], sep) + last + ns[len(ns)-1]
}

// separator is ", ", or "; " when a name holds a comma.
func separator(names []string) string {
	for _, n := range names {
		if strings.Contains(n, ",") {
			return "; "
		}
	}
	return ", "
}

// marked quotes the names that hold the separator's own mark, in double
// quotes, a quote or backslash in them escaped with a backslash (and
// nothing else: a terminal's escapes are the printer's).
func marked(names []string, sep string) []string {
	mark := strings.TrimSpace(sep)
	quote := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	out := make([]string, len(names))
	for i, n := range names {
		if strings.Contains(n, mark) {
			n = `"` + quote.Replace(n) + `"`
		}
		out[i] = n
	}
	return out
}
