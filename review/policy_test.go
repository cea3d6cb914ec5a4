package review

import (
	"testing"
)

// A policy file is read with its rules' lines, and a mistake in it is
// refused with the file, the line and what to write instead.
func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy("p.yaml", []byte("# the team's rules\nrules:\n  - deny: flip\n    scenario: base\n\n  - warn: price_age\n    days: 60\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 2 || p.Rules[0].Line != 3 || p.Rules[0].String() != "deny: flip, scenario base" ||
		p.Rules[1].Line != 6 || p.Rules[1].String() != "warn: price_age, days 60" {
		t.Errorf("rules %+v", p.Rules)
	}
	for text, want := range map[string]string{
		"rules:\n  - deny: flip\n    offers: A\n":                "p.yaml:3: offers is not a key of a rule, which reads deny or warn, scenario, offer, deployment, value, percent, amount and days",
		"rule:\n  - deny: flip\n":                                "p.yaml:1: rule is not a key of a policy, which reads rules",
		"rules:\n  - deny: npv_below\n    value: zero\n":         "p.yaml:3: cannot unmarshal !!str `zero` into float64",
		"rules:\n  - deny: npv_below\n":                          "p.yaml:2: npv_below needs value",
		"rules:\n  - deny: cheapest_month_rise\n":                "p.yaml:2: cheapest_month_rise needs percent or amount",
		"rules:\n  - deny: flip\n    warn: flip\n":               "p.yaml:2: a rule either denies or warns: keep deny or warn, not both",
		"rules:\n  - scenario: base\n":                           "p.yaml:2: a rule begins deny: or warn: and the rule's name, such as - deny: flip",
		"rules:\n  - deny: p_own_cheaper_below\n    value: 50\n": "p.yaml:2: p_own_cheaper_below: value is a chance between 0 and 1, such as 0.5",
		"rules: []\n": "p.yaml: no rules; write rules: and under it a list such as - deny: flip",
		"":            "p.yaml: no rules; write rules: and under it a list such as - deny: flip",
	} {
		if _, err := ParsePolicy("p.yaml", []byte(text)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
}

// A rule that denies decides the status over one planner cannot tell, and
// a warning alone passes.
func TestPolicyStatus(t *testing.T) {
	for _, c := range []struct {
		results []string
		want    int
	}{
		{[]string{Pass, Warn}, 0},
		{[]string{Pass, CannotTell, Warn}, 2},
		{[]string{CannotTell, Deny}, 1},
		{nil, 0},
	} {
		var outs []Outcome
		for _, r := range c.results {
			outs = append(outs, Outcome{Result: r})
		}
		if got := Status(outs); got != c.want {
			t.Errorf("%q: status %d, want %d", c.results, got, c.want)
		}
	}
}
