package review

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The rules a policy may state, each a key's value: deny: flip.
const (
	RuleFlip         = "flip"
	RuleNPVBelow     = "npv_below"
	RuleMonthRise    = "cheapest_month_rise"
	RulePriceAge     = "price_age"
	RuleOwnCheaper   = "p_own_cheaper_below"
	actionDeny       = "deny"
	actionWarn       = "warn"
	policyRuleFields = "deny or warn, scenario, offer, deployment, value, percent, amount and days"
)

// ruleKeys are the keys each rule reads beside deny or warn; the first
// ones it cannot do without (percent or amount: one of them at least).
var ruleKeys = map[string]struct{ needs, takes []string }{
	RuleFlip:       {takes: []string{"scenario", "offer", "deployment"}},
	RuleNPVBelow:   {needs: []string{"value"}, takes: []string{"scenario", "offer"}},
	RuleMonthRise:  {needs: []string{"percent", "amount"}},
	RulePriceAge:   {needs: []string{"days"}},
	RuleOwnCheaper: {needs: []string{"value"}, takes: []string{"scenario", "offer"}},
}

// Rule is one rule of a policy, as its file states it.
type Rule struct {
	Line                        int    // where the rule begins in its file
	Action                      string // deny or warn: what a rule that fails does
	Kind                        string // flip, npv_below, ...
	Scenario, Offer, Deployment string // narrow the rule to these; "" for every one
	Value, Percent, Amount      *float64
	Days                        *int
}

// Policy is the rules a comparison must keep, from a policy file.
type Policy struct {
	File  string
	Rules []Rule
}

// ruleYAML is one rule as YAML gives it; the decoder refuses any other
// key.
type ruleYAML struct {
	Deny       string   `yaml:"deny"`
	Warn       string   `yaml:"warn"`
	Scenario   string   `yaml:"scenario"`
	Offer      string   `yaml:"offer"`
	Deployment string   `yaml:"deployment"`
	Value      *float64 `yaml:"value"`
	Percent    *float64 `yaml:"percent"`
	Amount     *float64 `yaml:"amount"`
	Days       *int     `yaml:"days"`
}

type policyYAML struct {
	Rules []ruleYAML `yaml:"rules"`
}

// yamlLine is how the YAML library starts a message about a line.
var yamlLine = regexp.MustCompile(`^\s*(?:yaml: )?line (\d+): (.*)$`)

// unknownField is the YAML library's message about a key no field takes.
var unknownField = regexp.MustCompile(`^field (\S+) not found in type review\.(\w+)$`)

// ParsePolicy reads a policy file's rules, refusing a key planner does not
// read, naming the line it is on.
func ParsePolicy(file string, data []byte) (Policy, error) {
	p := Policy{File: file}
	var doc policyYAML
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return p, policyError(file, err)
	}
	var nodes struct{ Rules []yaml.Node }
	if err := yaml.Unmarshal(data, &nodes); err != nil {
		return p, policyError(file, err)
	}
	if len(doc.Rules) == 0 {
		return p, fmt.Errorf("%s: no rules; write rules: and under it a list such as - deny: flip", file)
	}
	for i, y := range doc.Rules {
		r, err := y.rule(nodes.Rules[i].Line)
		if err != nil {
			return p, fmt.Errorf("%s:%d: %v", file, nodes.Rules[i].Line, err)
		}
		p.Rules = append(p.Rules, r)
	}
	return p, nil
}

// policyError says the YAML library's complaint at its line, in planner's
// words where it is a key planner does not read.
func policyError(file string, err error) error {
	var lines []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		lines = te.Errors
	} else {
		lines = []string{err.Error()}
	}
	var out []string
	for _, l := range lines {
		m := yamlLine.FindStringSubmatch(l)
		if m == nil {
			out = append(out, file+": "+strings.TrimPrefix(l, "yaml: "))
			continue
		}
		msg := m[2]
		if f := unknownField.FindStringSubmatch(msg); f != nil {
			where := "a policy, which reads rules"
			if f[2] == "ruleYAML" {
				where = "a rule, which reads " + policyRuleFields
			}
			msg = fmt.Sprintf("%s is not a key of %s", f[1], where)
		}
		out = append(out, fmt.Sprintf("%s:%s: %s", file, m[1], msg))
	}
	return errors.New(strings.Join(out, "\n"))
}

// rule checks one rule: deny or warn, a rule planner knows, the keys it
// needs and no key it does not read.
func (y ruleYAML) rule(line int) (Rule, error) {
	r := Rule{Line: line, Scenario: y.Scenario, Offer: y.Offer, Deployment: y.Deployment,
		Value: y.Value, Percent: y.Percent, Amount: y.Amount, Days: y.Days}
	switch {
	case y.Deny != "" && y.Warn != "":
		return r, errors.New("a rule either denies or warns: keep deny or warn, not both")
	case y.Deny != "":
		r.Action, r.Kind = actionDeny, y.Deny
	case y.Warn != "":
		r.Action, r.Kind = actionWarn, y.Warn
	default:
		return r, errors.New("a rule begins deny: or warn: and the rule's name, such as - deny: flip")
	}
	keys, ok := ruleKeys[r.Kind]
	if !ok {
		return r, fmt.Errorf("%s: planner knows the rules %s", r.Kind, strings.Join(kinds(), ", "))
	}
	given := r.keys()
	for _, k := range given {
		if !slices.Contains(keys.needs, k) && !slices.Contains(keys.takes, k) {
			return r, fmt.Errorf("%s does not read %s; it reads %s", r.Kind, k, strings.Join(slices.Concat(keys.needs, keys.takes), ", "))
		}
	}
	if len(keys.needs) > 0 && !slices.ContainsFunc(keys.needs, func(k string) bool { return slices.Contains(given, k) }) {
		return r, fmt.Errorf("%s needs %s", r.Kind, strings.Join(keys.needs, " or "))
	}
	for _, v := range []*float64{r.Percent, r.Amount} {
		if v != nil && *v < 0 {
			return r, fmt.Errorf("%s: a rise is a number 0 or more", r.Kind)
		}
	}
	if r.Days != nil && *r.Days < 0 {
		return r, fmt.Errorf("%s: days is a number 0 or more", r.Kind)
	}
	if r.Kind == RuleOwnCheaper && (*r.Value < 0 || *r.Value > 1) {
		return r, fmt.Errorf("%s: value is a chance between 0 and 1, such as 0.5", r.Kind)
	}
	return r, nil
}

func kinds() []string {
	return []string{RuleFlip, RuleNPVBelow, RuleMonthRise, RulePriceAge, RuleOwnCheaper}
}

// keys are the keys the rule was given beside deny or warn.
func (r Rule) keys() []string {
	var out []string
	for _, k := range []struct {
		name string
		set  bool
	}{{"scenario", r.Scenario != ""}, {"offer", r.Offer != ""}, {"deployment", r.Deployment != ""},
		{"value", r.Value != nil}, {"percent", r.Percent != nil}, {"amount", r.Amount != nil}, {"days", r.Days != nil}} {
		if k.set {
			out = append(out, k.name)
		}
	}
	return out
}

// String is the rule as its file states it, on one line:
// "deny: npv_below, offer Lambda H100, 8-GPU plan, value 0".
func (r Rule) String() string {
	parts := []string{r.Action + ": " + r.Kind}
	for _, k := range []struct{ name, v string }{{"scenario", r.Scenario}, {"offer", r.Offer}, {"deployment", r.Deployment},
		{"value", num(r.Value)}, {"percent", num(r.Percent)}, {"amount", num(r.Amount)}} {
		if k.v != "" {
			parts = append(parts, k.name+" "+k.v)
		}
	}
	if r.Days != nil {
		parts = append(parts, "days "+strconv.Itoa(*r.Days))
	}
	return strings.Join(parts, ", ")
}

func num(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}

// NeedsMonteCarlo reports whether a rule reads Monte Carlo's chances, which
// the caller then runs.
func (p Policy) NeedsMonteCarlo() bool {
	return slices.ContainsFunc(p.Rules, func(r Rule) bool { return r.Kind == RuleOwnCheaper })
}
