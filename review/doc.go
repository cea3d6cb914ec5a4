// Package review compares two workbooks as a reviewer reads them: first
// the decisions that changed (buy or rent, of each scenario against each
// offer and of each deployment, with what owning saves a month on either
// side), then the headline figures (cost per GPU-hour, per used hour,
// break-evens), the facts that changed (assumptions, formulas, offers,
// scenarios, catalogs, deployments), and every other result, most money a
// month at stake first. Report lays that out as cells for the command to
// print as text or markdown. It works on the facts (package facts) of
// each side and reads no files itself. Headline sums a comparison up in
// one line (the cheapest month old and new, the decisions that flipped,
// the largest NPV change); a Policy, read from a policy file's YAML,
// judges a comparison rule by rule (pass, warn, deny or cannot tell), and
// Status turns the outcomes into the exit status.
//
// It must not import workbooks, excelize, cobra or os.
package review
