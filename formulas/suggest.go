package formulas

import "strings"

// Suggest returns the candidate closest to name in spelling, or "" when none
// is close enough to be a likely typo. Ties go to the alphabetically first.
// Failing a typo, a name that starts exactly one candidate (own_minus_rent
// for own_minus_rent_per_used_hour) is taken as that candidate, shortened.
func Suggest(name string, candidates []string) string {
	if c := closest(name, candidates); c != "" {
		return c
	}
	return onlyPrefixed(name, candidates)
}

func closest(name string, candidates []string) string {
	limit := max(2, len(name)/3) // edits a typo may plausibly hold
	best, bestDist := "", limit+1
	for _, c := range candidates {
		d := distance(strings.ToLower(name), strings.ToLower(c))
		if d < bestDist || (d == bestDist && c < best) {
			best, bestDist = c, d
		}
	}
	return best
}

// distance is the Levenshtein edit distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// onlyPrefixed is the one candidate that starts with name followed by an
// underscore, or "".
func onlyPrefixed(name string, candidates []string) string {
	if len(name) < 3 {
		return ""
	}
	found := ""
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), strings.ToLower(name)+"_") {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}
