package domain

import (
	"fmt"
	"strconv"
	"strings"
)

// ProfileHours24 is the values of a profile: one per hour of the day.
const ProfileHours24 = 24

// ParseProfile reads a busy hours profile as typed: 24 shares of the
// replicas busy, hour 0 (midnight to one) first, each from 0 to 1 or 0 %
// to 100 %, apart by spaces, commas or semicolons. The message says what
// to type when the text is not one.
func ParseProfile(text string) ([]float64, string) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == ';' || r == '\t' || r == '\n' || r == '\u00a0' })
	const want = "type 24 shares of the replicas busy, one per hour of the day from midnight, each from 0 to 1 (or 0 % to 100 %), apart by spaces"
	if len(fields) != ProfileHours24 {
		return nil, fmt.Sprintf("the busy hours profile has %d values, not 24; %s", len(fields), want)
	}
	out := make([]float64, 0, ProfileHours24)
	busy := false
	for i, f := range fields {
		scale := 1.0
		if s, ok := strings.CutSuffix(f, "%"); ok {
			f, scale = strings.TrimSpace(s), 0.01
		}
		v, err := strconv.ParseFloat(f, 64)
		v *= scale
		if err != nil || v < 0 || v > 1 || v != v {
			return nil, fmt.Sprintf("the busy hours profile's value for hour %d is %q, not a share from 0 to 1; %s", i, fields[i], want)
		}
		busy = busy || v > 0
		out = append(out, v)
	}
	if !busy {
		return nil, "the busy hours profile is 0 every hour; " + want + ", or clear the cell"
	}
	return out, ""
}

// ProfileHours are the busy hours of a day the profile gives one replica
// on average: the sum of its shares.
func ProfileHours(p []float64) float64 {
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	return sum
}
