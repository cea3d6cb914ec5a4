package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// workflow is the part of a GitHub Actions workflow that docs/planner-check.yml
// uses; decodeYAML refuses any other key.
type workflow struct {
	Name        string            `yaml:"name"`
	On          map[string]any    `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Defaults    struct {
		Run struct {
			Shell string `yaml:"shell"`
		} `yaml:"run"`
	} `yaml:"defaults"`
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		RunsOn string         `yaml:"runs-on"`
		Steps  []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
	Run  string            `yaml:"run"`
}

// stepResult is what one step of the job did.
type stepResult struct {
	name           string
	code           int
	stdout, stderr string
	ghArgs, ghBody string // what the step asked gh to post, if anything
}

// ciRun is a pull request's run of the workflow's job on a runner that is
// the test's: the job's steps in order, until one fails, as GitHub runs them.
type ciRun struct {
	steps []stepResult
}

func (r ciRun) step(t *testing.T, name string) *stepResult {
	t.Helper()
	for i := range r.steps {
		if r.steps[i].name == name {
			return &r.steps[i]
		}
	}
	return nil
}

// expression is one ${{ … }} of the workflow.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// runJob runs the job of wf in repo, a clone of the workbooks' repository
// checked out at the pull request's head, whose base is base. Each step
// that uses an action is done as the action would: the workbooks are
// already checked out, planner's source is a link to this one, and Go is
// the one running the test. Each run step runs as GitHub runs it, with
// bash -eo pipefail, the workflow's and the step's variables (set gives a
// step's own variable another value), GITHUB_PATH, and a gh that records
// what it was asked to post instead of posting it. Go's GOPATH is gopath,
// which the test's runs share so that go install links planner once.
func (u *user) runJob(t *testing.T, wf workflow, repo, base, gopath string, set map[string]string) ciRun {
	t.Helper()
	runner := t.TempDir()
	fakeBin, ghLog := filepath.Join(runner, "fake"), filepath.Join(runner, "gh")
	for _, dir := range []string{fakeBin, ghLog} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gh := `#!/bin/sh
[ -n "$GH_TOKEN" ] || { echo "gh: no GH_TOKEN" >&2; exit 4; }
printf '%s\n' "$@" > "$GH_LOG/args"
while [ $# -gt 0 ]; do
  if [ "$1" = --body-file ]; then cp "$2" "$GH_LOG/body"; fi
  shift
done
`
	if err := os.WriteFile(filepath.Join(fakeBin, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	githubPath := filepath.Join(runner, "github_path")
	if err := os.WriteFile(githubPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	context := map[string]string{
		"github.event.pull_request.base.sha": base,
		"github.event.pull_request.number":   "7",
		"github.token":                       "a-token-for-this-run",
	}
	expand := func(where, s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			v, ok := context[expression.FindStringSubmatch(e)[1]]
			if !ok {
				t.Fatalf("%s: the test cannot give %s a value", where, e)
			}
			return v
		})
	}
	for name := range set {
		found := false
		for _, job := range wf.Jobs {
			for _, step := range job.Steps {
				_, in := step.Env[name]
				found = found || in
			}
		}
		if !found {
			t.Fatalf("no step of the workflow has a variable %s to set", name)
		}
	}
	var run ciRun
	for _, job := range wf.Jobs {
		for i, step := range job.Steps {
			switch {
			case strings.HasPrefix(step.Uses, "actions/checkout@") && step.With["repository"] == "":
				// The workbooks, at the pull request's head, with the base.
				if step.With["fetch-depth"] != "0" {
					t.Errorf("%s: fetch-depth %q, want 0 so that the base commit is there for planner diff", step.Name, step.With["fetch-depth"])
				}
			case strings.HasPrefix(step.Uses, "actions/checkout@"):
				// planner's source, beside the workbooks.
				path := step.With["path"]
				if path == "" || filepath.IsAbs(path) || strings.HasPrefix(filepath.Clean(path), "..") {
					t.Fatalf("%s: path %q, want a folder of the workspace", step.Name, path)
				}
				if err := os.Symlink(u.root, filepath.Join(repo, path)); err != nil {
					t.Fatal(err)
				}
			case strings.HasPrefix(step.Uses, "actions/setup-go@"):
				for _, key := range []string{"go-version-file", "cache-dependency-path"} {
					if _, err := os.Stat(filepath.Join(repo, step.With[key])); err != nil || step.With[key] == "" {
						t.Errorf("%s: %s %q is not a file of the workspace", step.Name, key, step.With[key])
					}
				}
			case step.Uses != "":
				t.Fatalf("%s: the test does not know what %s does", step.Name, step.Uses)
			default:
				if strings.Contains(step.Run, "${{") {
					t.Errorf("%s: its script has an expression in it, which GitHub pastes in before bash reads it: pass it in env", step.Name)
				}
				script := filepath.Join(runner, fmt.Sprintf("step%d.sh", i))
				if err := os.WriteFile(script, []byte(expand(step.Name, step.Run)), 0o644); err != nil {
					t.Fatal(err)
				}
				added, err := os.ReadFile(githubPath)
				if err != nil {
					t.Fatal(err)
				}
				path := append(strings.Fields(string(added)), fakeBin, pathWithoutPlanner())
				env := []string{
					"CI=true", "GITHUB_ACTIONS=true", "GITHUB_WORKSPACE=" + repo, "GITHUB_PATH=" + githubPath, "GH_LOG=" + ghLog,
					"GOPATH=" + gopath, "PATH=" + strings.Join(path, string(filepath.ListSeparator)),
				}
				for _, name := range sortedKeys(wf.Env) {
					env = append(env, name+"="+expand(step.Name, wf.Env[name]))
				}
				for _, name := range sortedKeys(step.Env) {
					v := step.Env[name]
					if own, ok := set[name]; ok {
						v = own
					}
					env = append(env, name+"="+expand(step.Name, v))
				}
				r := stepResult{name: step.Name}
				r.code, r.stdout, r.stderr = u.runIn(repo, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
				if args, err := os.ReadFile(filepath.Join(ghLog, "args")); err == nil {
					body, _ := os.ReadFile(filepath.Join(ghLog, "body"))
					r.ghArgs, r.ghBody = string(args), string(body)
					os.Remove(filepath.Join(ghLog, "args"))
					os.Remove(filepath.Join(ghLog, "body"))
				}
				run.steps = append(run.steps, r)
				if r.code != 0 {
					return run
				}
			}
		}
	}
	return run
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The names of the workflow's steps that the test reads the results of.
const (
	compareStep = "Compare the changed workbooks with the base"
	commentStep = "Comment on the pull request"
	checkStep   = "planner eval --check"
	commentHead = "### planner: what this pull request changes in the workbooks\n\n"
	upToDate    = ": up to date: planner's sheets match a fresh evaluation\n"
)

// docs/planner-check.yml parses as the workflow it says it is, and its job,
// run on pull requests to a repository of workbooks with the planner it
// installs, comments with planner diff --format markdown of each workbook
// the pull request changes, fails on a stale workbook, and fails when
// planner diff is in trouble.
func (u *user) testCIJob(t *testing.T) {
	u.t = t
	data, err := os.ReadFile(filepath.Join(u.root, "docs", "planner-check.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	decodeYAML(t, "docs/planner-check.yml", data, &wf)
	if _, ok := wf.On["pull_request"]; !ok || len(wf.On) != 1 {
		t.Errorf("the workflow runs on %v, want pull_request", wf.On)
	}
	if wf.Permissions["contents"] != "read" || wf.Permissions["pull-requests"] != "write" || len(wf.Permissions) != 2 {
		t.Errorf("permissions %v, want contents: read and pull-requests: write", wf.Permissions)
	}
	if wf.Defaults.Run.Shell != "bash" {
		// GitHub runs a script without a shell of its own with bash -e, which
		// ignores a planner that fails in a pipe.
		t.Errorf("defaults.run.shell is %q, want bash, which GitHub runs with -o pipefail", wf.Defaults.Run.Shell)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(wf.Jobs))
	}
	for name, job := range wf.Jobs {
		var names []string
		for _, s := range job.Steps {
			names = append(names, s.Name)
		}
		if job.RunsOn == "" || len(names) < 3 || names[len(names)-3] != compareStep || names[len(names)-2] != commentStep || names[len(names)-1] != checkStep {
			t.Fatalf("job %s runs on %q with steps %q, want the last three %q, %q, %q", name, job.RunsOn, names, compareStep, commentStep, checkStep)
		}
	}

	gopath := filepath.Join(t.TempDir(), "go")

	// The workbooks' repository: two evaluated plans and a note on main.
	origin := filepath.Join(t.TempDir(), "plans")
	u.gitRepo(origin)
	u.evaluatedPlan(origin, "plan.xlsx")
	u.evaluatedPlan(origin, "other.xlsx")
	if err := os.WriteFile(filepath.Join(origin, "notes.txt"), []byte("the plans of the GPU team\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	u.must(origin, "git", "add", ".")
	u.must(origin, "git", "commit", "-q", "-m", "the plans")
	base := strings.TrimSpace(u.must(origin, "git", "rev-parse", "HEAD"))
	short := strings.TrimSpace(u.must(origin, "git", "rev-parse", "--short", base))
	// Each pull request is checked out afresh in the same workspace, as on
	// a runner: Go, which finds planner's source at the same path each
	// time, then builds it once.
	workspace := filepath.Join(t.TempDir(), "workspace")
	pullRequest := func(branch string, change func()) string {
		u.must(origin, "git", "checkout", "-q", "-b", branch, base)
		change()
		u.must(origin, "git", "add", "-A")
		u.must(origin, "git", "commit", "-q", "-m", branch)
		if err := os.Remove(filepath.Join(workspace, ".planner")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		if err := os.RemoveAll(workspace); err != nil {
			t.Fatal(err)
		}
		u.must(filepath.Dir(workspace), "git", "clone", "-q", "-b", branch, origin, workspace)
		return workspace
	}
	diffOf := func(repo, path string) string {
		code, out, errs := u.runIn(repo, nil, "planner", "diff", short+":"+path, path, "--format", "markdown")
		if code != 1 {
			t.Fatalf("planner diff %s:%s %s: exit status %d, want 1\n%s", short, path, path, code, errs)
		}
		return out
	}

	// Electricity moved and evaluated, and a new plan: the comment has the
	// first's diff and names the second; every workbook is up to date.
	repo := pullRequest("electricity", func() {
		setAssumption(t, filepath.Join(origin, "plan.xlsx"), "electricity_price", 0.16)
		u.must(origin, "planner", "eval", "plan.xlsx")
		u.evaluatedPlan(origin, "q3 plan.xlsx")
	})
	run := u.runJob(t, wf, repo, base, gopath, nil)
	for _, s := range run.steps {
		if s.code != 0 {
			t.Fatalf("%s: exit status %d\n%s%s", s.name, s.code, s.stdout, s.stderr)
		}
	}
	diff := diffOf(repo, "plan.xlsx")
	if !strings.Contains(diff, "electricity_price") {
		t.Errorf("planner diff does not name the assumption that moved:\n%s", diff)
	}
	comment := run.step(t, commentStep)
	if comment == nil {
		t.Fatal("the comment step did not run")
	}
	if want := "pr\ncomment\n7\n--body-file\ncomment.md\n"; comment.ghArgs != want {
		t.Fatalf("the comment step asked gh for %q, want %q", comment.ghArgs, want)
	}
	if want := commentHead + diff + "\n**q3 plan.xlsx** is a new workbook.\n\n"; comment.ghBody != want {
		t.Errorf("the comment is\n%s\nwant\n%s", comment.ghBody, want)
	}
	if got, want := run.step(t, checkStep).stderr, "other.xlsx"+upToDate+"plan.xlsx"+upToDate+"q3 plan.xlsx"+upToDate; got != want {
		t.Errorf("eval --check printed\n%s\nwant\n%s", got, want)
	}

	// Capex typed in and not evaluated, with a comment too long for its
	// limit: the comment is cut at a line and says how to see the rest, and
	// the check fails with the stale cells (xargs exits 123 when planner
	// exits 1).
	repo = pullRequest("stale", func() {
		setAssumption(t, filepath.Join(origin, "plan.xlsx"), "capex", 300000)
	})
	run = u.runJob(t, wf, repo, base, gopath, map[string]string{"LIMIT": "400"})
	full := commentHead + diffOf(repo, "plan.xlsx") + "\n"
	cut := strings.TrimSuffix(full[:400], "\n")
	cut = cut[:strings.LastIndex(cut, "\n")+1] + "\n\n… cut at 400 characters: run planner diff " + short + ":PATH PATH for the rest.\n"
	if comment := run.step(t, commentStep); comment == nil || comment.code != 0 || comment.ghBody != cut {
		t.Errorf("the cut comment is %+v, want\n%s", comment, cut)
	}
	check := run.step(t, checkStep)
	if check == nil || check.code == 0 || !strings.HasPrefix(check.stderr, "other.xlsx"+upToDate) ||
		!strings.HasSuffix(check.stderr, "\nplan.xlsx: stale; run planner eval plan.xlsx and commit the result\n") {
		t.Errorf("eval --check on a stale workbook: %+v, want exit status 1 and the stale message", check)
	}

	// A workbook that is no longer one: planner diff is in trouble, the step
	// fails with its message, and nothing is posted or checked.
	repo = pullRequest("broken", func() {
		if err := os.WriteFile(filepath.Join(origin, "other.xlsx"), []byte("not a workbook\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	run = u.runJob(t, wf, repo, base, gopath, nil)
	last := run.steps[len(run.steps)-1]
	if last.name != compareStep || last.code == 0 || !regexp.MustCompile(`(?m)^other.xlsx: is not an xlsx workbook`).MatchString(last.stderr) {
		t.Errorf("the job on a broken workbook stopped at %+v, want the compare step failing with planner diff's message", last)
	}
}
