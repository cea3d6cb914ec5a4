package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// compositeAction is the part of an action.yml that planner's uses;
// decodeYAML refuses any other key.
type compositeAction struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Inputs      map[string]struct {
		Description string `yaml:"description"`
		Default     string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	Uses  string            `yaml:"uses"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	With  map[string]string `yaml:"with"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// The steps of the action the tests read the results of.
const (
	installStep = "Install planner"
	reviewStep  = "Compare the changed workbooks with the base"
	postStep    = "Comment on the pull request"
	policyStep  = "Apply the policy"
	markerLine  = "<!-- planner-review -->\n### planner: what this change does to the workbooks\n\n"
)

// actionRun is what a run of the action did: each step's exit status and
// output, the calls gh was asked for, the comments the pull request has
// after it, and the job summary.
type actionRun struct {
	steps    []stepResult
	calls    []string
	comments map[string]string
	summary  string
}

func (r actionRun) ran(name string) *stepResult {
	for i := range r.steps {
		if r.steps[i].name == name {
			return &r.steps[i]
		}
	}
	return nil
}

// runner is a pull request's runner for the action: the workbooks'
// repository checked out at the head, and a gh that keeps the pull
// request's comments in a folder across runs.
type runner struct {
	t       *testing.T
	root    string // planner's source: the action's folder
	repo    string
	base    string
	ghState string
	bin     string   // the stand-ins
	env     []string // more variables for every step
	path    string   // PATH after the stand-ins; the test's own when ""
}

// newRunner gives the action a runner with the stand-in gh on PATH, and a
// planner: the one this test binary is (install says whether the action's
// own install step builds one instead).
func newRunner(t *testing.T, repo, base string) *runner {
	t.Helper()
	for _, tool := range []string{"bash", "jq", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	r := &runner{t: t, root: moduleRoot(t), repo: repo, base: base, ghState: t.TempDir(), bin: t.TempDir()}
	for _, name := range []string{"gh", "curl"} {
		data, err := os.ReadFile(filepath.Join(r.root, "cmd", "planner", "testdata", "standins", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(r.bin, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// inputExpr is one ${{ … }} an action's text holds.
var inputExpr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// run runs the action's steps in order as GitHub runs a composite action
// (each run step with bash --noprofile --norc -eo pipefail, its env, the
// action's folder in GITHUB_ACTION_PATH), until one fails. inputs are the
// workflow's with:, over the inputs' defaults. The install step is left
// out unless install is set: this test binary is the planner on PATH.
func (r *runner) run(inputs map[string]string, install bool) actionRun {
	t := r.t
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a compositeAction
	decodeYAML(t, "action.yml", data, &a)
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", a.Runs.Using)
	}
	values := map[string]string{}
	for name, in := range a.Inputs {
		values["inputs."+name] = in.Default
	}
	// The plans are evaluated with 200 samples: eval --check compares
	// MonteCarlo with as many.
	values["inputs.check-args"] = "--samples 200"
	for name, v := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %s", name)
		}
		values["inputs."+name] = v
	}
	context := map[string]string{
		"github.action_path":                 r.root,
		"github.event.pull_request.base.sha": r.base,
		"github.event.pull_request.number":   "7",
		"github.token":                       "a-token-for-this-run",
	}
	expand := func(where, s string) string {
		return inputExpr.ReplaceAllStringFunc(s, func(e string) string {
			name := inputExpr.FindStringSubmatch(e)[1]
			if v, ok := values[name]; ok {
				return inputExpr.ReplaceAllStringFunc(v, func(e string) string { return context[inputExpr.FindStringSubmatch(e)[1]] })
			}
			v, ok := context[name]
			if !ok {
				t.Fatalf("%s: the test cannot give %s a value", where, e)
			}
			return v
		})
	}
	runner := t.TempDir()
	githubPath, summary := filepath.Join(runner, "github_path"), filepath.Join(runner, "summary")
	for _, f := range []string{githubPath, summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(r.ghState, "log"))
	var out actionRun
	for _, step := range a.Runs.Steps {
		if step.Uses != "" {
			if !strings.HasPrefix(step.Uses, "actions/setup-go@") {
				t.Fatalf("%s: the test does not know what %s does", step.Name, step.Uses)
			}
			for _, key := range []string{"go-version-file", "cache-dependency-path"} {
				if _, err := os.Stat(expand(step.Name, step.With[key])); err != nil {
					t.Errorf("%s: %s %q is not a file of the action", step.Name, key, step.With[key])
				}
			}
			continue
		}
		if step.Shell != "bash" {
			t.Errorf("%s: shell %q: a composite action's run step names its shell, bash for -o pipefail", step.Name, step.Shell)
		}
		if strings.Contains(step.Run, "${{") {
			t.Errorf("%s: its script has an expression in it, which GitHub pastes in before bash reads it: pass it in env", step.Name)
		}
		if step.Name == installStep && !install {
			continue
		}
		if m := regexp.MustCompile(`^inputs\.(\S+) == '(.*)'$`).FindStringSubmatch(step.If); m != nil {
			if values["inputs."+m[1]] != m[2] {
				continue
			}
		} else if step.If != "" {
			t.Fatalf("%s: the test cannot decide if: %s", step.Name, step.If)
		}
		script := filepath.Join(runner, "step.sh")
		if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		added, _ := os.ReadFile(githubPath)
		rest := r.path
		if rest == "" {
			rest = os.Getenv("PATH")
		}
		path := slices.Concat(strings.Fields(string(added)), []string{r.bin, rest})
		env := append(slices.Clone(r.env), "CI=true", "GITHUB_ACTIONS=true", "GITHUB_ACTION_PATH="+r.root,
			"GITHUB_WORKSPACE="+r.repo, "GITHUB_PATH="+githubPath, "GITHUB_STEP_SUMMARY="+summary,
			"GITHUB_REPOSITORY=team/plans", "GH_STATE="+r.ghState, "PATH="+strings.Join(path, string(filepath.ListSeparator)))
		for _, name := range sortedKeys(step.Env) {
			env = append(env, name+"="+expand(step.Name, step.Env[name]))
		}
		res := stepResult{name: step.Name}
		res.code, res.stdout, res.stderr = runCmd(t, r.repo, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		out.steps = append(out.steps, res)
		if res.code != 0 {
			break
		}
	}
	log, _ := os.ReadFile(filepath.Join(r.ghState, "log"))
	out.calls = strings.Fields(strings.ReplaceAll(string(log), " ", "·"))
	out.comments = map[string]string{}
	entries, _ := os.ReadDir(filepath.Join(r.ghState, "comments"))
	for _, e := range entries {
		body, _ := os.ReadFile(filepath.Join(r.ghState, "comments", e.Name()))
		out.comments[e.Name()] = string(body)
	}
	s, _ := os.ReadFile(summary)
	out.summary = string(s)
	return out
}

// runCmd runs a command in dir with env added to the test's, and returns
// its exit status and outputs.
func runCmd(t *testing.T, dir string, env []string, name string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errs.String()
}

// scratchRepo is a repository of workbooks with a commit of the default
// plan, evaluated, and a note; it returns the folder and a git that runs
// in it.
func scratchRepo(t *testing.T) (string, func(args ...string) string) {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		code, out, errs := runCmd(t, dir, []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + home}, "git", args...)
		if code != 0 {
			t.Fatalf("git %q: %s", args, errs)
		}
		return strings.TrimSpace(out)
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "analyst@example.com")
	git("config", "user.name", "analyst")
	mustPlanner(t, dir, "init", "plan.xlsx")
	mustPlanner(t, dir, "eval", "plan.xlsx", "--samples", "200")
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the plans of the GPU team\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "the plan")
	return dir, git
}

// mustPlanner runs planner in dir, which must succeed.
func mustPlanner(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, out, errs := runCmd(t, dir, nil, "planner", args...)
	if code != 0 {
		t.Fatalf("planner %q: exit status %d\n%s", args, code, errs)
	}
	return out
}

// The action, run on a pull request in a scratch repository with a gh that
// keeps the comments: it posts the report behind its marker once, leaves it
// alone when a run says the same, edits it in place when a push changes the
// report, posts afresh with comment: new and not at all with off, writes
// the job summary, and fails the job when the policy denies.
func TestReviewAction(t *testing.T) {
	repo, git := scratchRepo(t)
	base := git("rev-parse", "HEAD")
	short := git("rev-parse", "--short", "HEAD")
	r := newRunner(t, repo, base)
	// Someone else's comment is there first.
	if err := os.MkdirAll(filepath.Join(r.ghState, "comments"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.ghState, "comments", "50"), []byte("Looks right to me.\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// A pull request that only edits the note: nothing to post, the job
	// passes.
	git("checkout", "-q", "-b", "change")
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("the plans, reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-am", "a note")
	run := r.run(nil, false)
	if last := run.steps[len(run.steps)-1]; last.code != 0 || len(run.comments) != 1 || !slices.Equal(run.calls, []string{"GET·repos/team/plans/issues/7/comments"}) {
		t.Fatalf("a pull request without workbooks: %+v, gh asked %q, comments %q", last, run.calls, run.comments)
	}
	if want := markerLine + "No workbook changed since " + short + ".\n"; run.summary != want {
		t.Errorf("summary %q, want %q", run.summary, want)
	}

	// Capex and utilisation moved, evaluated, and a new plan, with a policy
	// that denies a flipped decision: the report is posted once, behind its
	// marker, and the job fails at the policy after posting.
	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 300000, "utilization": 0.48})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	mustPlanner(t, repo, "init", "q3 plan.xlsx")
	if err := os.WriteFile(filepath.Join(repo, "planner-policy.yaml"), []byte("rules:\n  - deny: flip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "capex at 300,000")
	inputs := map[string]string{"policy": "planner-policy.yaml"}
	run = r.run(inputs, false)
	report := markerLine + mustReport(t, repo, short, "--policy", "planner-policy.yaml")
	if !strings.Contains(report, "| deny | deny: flip (line 2) | plan.xlsx | 3 decisions flipped: ") ||
		!strings.Contains(report, "**q3 plan.xlsx** is a new workbook.") {
		t.Fatalf("the report lacks the policy's outcome or the new workbook:\n%s", report)
	}
	posted := ""
	for id := range run.comments {
		if id != "50" {
			posted = id
		}
	}
	if len(run.comments) != 2 || run.comments[posted] != report || run.comments["50"] != "Looks right to me.\n" {
		t.Errorf("the comments after the first run: %q, want the report beside the other comment\n%s", run.comments, report)
	}
	if !slices.Equal(run.calls, []string{"GET·repos/team/plans/issues/7/comments", "POST·repos/team/plans/issues/7/comments"}) {
		t.Errorf("gh was asked %q", run.calls)
	}
	if run.summary != report {
		t.Errorf("the job summary is\n%s\nwant the report", run.summary)
	}
	last := run.steps[len(run.steps)-1]
	if last.name != policyStep || last.code != 1 || !strings.Contains(last.stdout, "::error::planner: the policy fails this pull request (exit status 1)") {
		t.Errorf("the job ended at %+v, want the policy step failing with 1", last)
	}

	// The same pull request again: the comment already says it, so gh is
	// only asked to read.
	run = r.run(inputs, false)
	if len(run.comments) != 2 || !slices.Equal(run.calls, []string{"GET·repos/team/plans/issues/7/comments", "GET·repos/team/plans/issues/comments/" + posted}) {
		t.Errorf("a run that changes nothing asked gh %q, comments %q", run.calls, run.comments)
	}

	// A push that puts capex back and utilisation at 51 %: the one comment
	// is edited, and the policy passes (no decision flips), so eval
	// --check runs.
	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 285000, "utilization": 0.51})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	mustPlanner(t, repo, "eval", "q3 plan.xlsx", "--samples", "200")
	git("commit", "-q", "-am", "utilisation as before")
	run = r.run(inputs, false)
	report = markerLine + mustReport(t, repo, short, "--policy", "planner-policy.yaml")
	if len(run.comments) != 2 || run.comments[posted] != report ||
		!slices.Equal(run.calls, []string{"GET·repos/team/plans/issues/7/comments", "GET·repos/team/plans/issues/comments/" + posted, "PATCH·repos/team/plans/issues/comments/" + posted}) {
		t.Errorf("after a push: gh asked %q, comments %q, want comment %s edited to\n%s", run.calls, run.comments, posted, report)
	}
	if !strings.Contains(report, "| pass | deny: flip (line 2) | plan.xlsx | no decision flipped |") {
		t.Errorf("after a push, the report does not pass the policy:\n%s", report)
	}
	if check := run.ran("planner eval --check"); check == nil || check.code != 0 ||
		check.stderr != "plan.xlsx: up to date: planner's sheets match a fresh evaluation\nq3 plan.xlsx: up to date: planner's sheets match a fresh evaluation\n" {
		t.Errorf("eval --check: %+v", check)
	}

	// comment: new posts a comment of its own; off asks gh nothing.
	run = r.run(map[string]string{"comment": "new", "policy": "planner-policy.yaml", "check": "false"}, false)
	if len(run.comments) != 3 || !slices.Equal(run.calls, []string{"POST·repos/team/plans/issues/7/comments"}) {
		t.Errorf("comment: new: gh asked %q, %d comments", run.calls, len(run.comments))
	}
	run = r.run(map[string]string{"comment": "off", "check": "false"}, false)
	if len(run.calls) != 0 || run.steps[len(run.steps)-1].code != 0 {
		t.Errorf("comment: off: gh asked %q, steps %+v", run.calls, run.steps)
	}

	// The workbooks put back as they were on the base: the comment there is
	// brought up to date rather than left saying what no longer holds.
	git("checkout", "-q", base, "--", "plan.xlsx")
	git("rm", "-q", "q3 plan.xlsx")
	git("commit", "-q", "-m", "as before")
	run = r.run(nil, false)
	if want := markerLine + "No workbook changed since " + short + ".\n"; run.comments[posted] != want ||
		run.calls[len(run.calls)-1] != "PATCH·repos/team/plans/issues/comments/"+posted {
		t.Errorf("no workbook changed any more: gh asked %q, the comment is %q", run.calls, run.comments[posted])
	}
}

// mustReport is planner diff --against REV of the workbooks the pull
// request changed, as the action runs it.
func mustReport(t *testing.T, repo, rev string, args ...string) string {
	t.Helper()
	full := append([]string{"diff", "--against", rev, "--format", "markdown"}, args...)
	full = append(full, "--", "plan.xlsx", "q3 plan.xlsx")
	_, out, _ := runCmd(t, repo, nil, "planner", full...)
	return out
}

// gitlabTemplate is the part of a .gitlab-ci.yml planner's template uses.
type gitlabTemplate struct {
	Review struct {
		Stage        string              `yaml:"stage"`
		Image        string              `yaml:"image"`
		Rules        []map[string]string `yaml:"rules"`
		Variables    map[string]string   `yaml:"variables"`
		BeforeScript []string            `yaml:"before_script"`
		Script       []string            `yaml:"script"`
	} `yaml:"planner-review"`
}

// runGitLab runs the template's script in repo as GitLab's runner does,
// its lines one after another in one bash, stopping at the first that
// fails, with the template's variables (vars over them), a merge request's
// CI_ variables, planner's source at .planner (where before_script clones
// it) and the stand-in curl; notes are kept in state across runs.
func runGitLab(t *testing.T, r *runner, state string, vars map[string]string) (code int, stdout, stderr string, calls []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.root, "ci", "gitlab-planner.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var tpl gitlabTemplate
	decodeYAML(t, "ci/gitlab-planner.yml", data, &tpl)
	job := tpl.Review
	if len(job.Rules) != 1 || job.Rules[0]["if"] != `$CI_PIPELINE_SOURCE == "merge_request_event"` || job.Variables["GIT_DEPTH"] != "0" {
		t.Fatalf("the job runs on %v with GIT_DEPTH %q, want merge requests and the whole history", job.Rules, job.Variables["GIT_DEPTH"])
	}
	before := strings.Join(job.BeforeScript, "\n")
	if !strings.Contains(before, `"$PLANNER_REPOSITORY" .planner`) || !strings.Contains(before, "(cd .planner && go install ./cmd/planner)") {
		t.Fatalf("before_script does not install planner from .planner:\n%s", before)
	}
	if _, err := os.Lstat(filepath.Join(r.repo, ".planner")); err != nil {
		if err := os.Symlink(r.root, filepath.Join(r.repo, ".planner")); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(t.TempDir(), "script.sh")
	if err := os.WriteFile(script, []byte(strings.Join(job.Script, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"CI=true", "GITLAB_CI=true", "CI_PIPELINE_SOURCE=merge_request_event",
		"CI_API_V4_URL=https://gitlab.example.com/api/v4", "CI_PROJECT_ID=42", "CI_MERGE_REQUEST_IID=3",
		"CI_MERGE_REQUEST_DIFF_BASE_SHA=" + r.base, "PLANNER_GITLAB_TOKEN=a-project-token", "GL_TOKEN=a-project-token",
		"GL_STATE=" + state, "PATH=" + r.bin + string(filepath.ListSeparator) + os.Getenv("PATH")}
	for _, name := range sortedKeys(job.Variables) {
		v := job.Variables[name]
		if own, ok := vars[name]; ok {
			v = own
		}
		env = append(env, name+"="+v)
	}
	os.Remove(filepath.Join(state, "log"))
	code, stdout, stderr = runCmd(t, r.repo, env, "bash", "-e", script)
	log, _ := os.ReadFile(filepath.Join(state, "log"))
	return code, stdout, stderr, strings.Fields(strings.ReplaceAll(string(log), " ", "·"))
}

// The GitLab template, run on a merge request in a scratch repository with
// a curl that keeps the notes: it posts the report as one note behind its
// marker (turning the pages of notes to find it), leaves it when a run
// says the same, edits it when a push changes the report, and fails the
// job when the policy denies.
func TestGitLabTemplate(t *testing.T) {
	repo, git := scratchRepo(t)
	base := git("rev-parse", "HEAD")
	short := git("rev-parse", "--short", "HEAD")
	r := newRunner(t, repo, base)
	state := t.TempDir()
	if err := os.MkdirAll(filepath.Join(state, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"11", "12", "13"} { // others' notes: the first page, and one on the second
		if err := os.WriteFile(filepath.Join(state, "notes", id), []byte("note "+id+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("checkout", "-q", "-b", "change")
	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 300000, "utilization": 0.48})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	mustPlanner(t, repo, "init", "q3 plan.xlsx")
	if err := os.WriteFile(filepath.Join(repo, "planner-policy.yaml"), []byte("rules:\n  - deny: flip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "plan.xlsx", "q3 plan.xlsx", "planner-policy.yaml")
	git("commit", "-q", "-m", "capex at 300,000")
	vars := map[string]string{"PLANNER_POLICY": "planner-policy.yaml", "PLANNER_CHECK_ARGS": "--samples 200"}
	notes := "projects/42/merge_requests/3/notes"
	page := func(n string) string { return "GET·" + notes + "?per_page=100&page=" + n }

	code, out, errs, calls := runGitLab(t, r, state, vars)
	report := markerLine + mustReport(t, repo, short, "--policy", "planner-policy.yaml")
	posted, _ := os.ReadFile(filepath.Join(state, "notes", "203"))
	if code != 1 || string(posted) != report || !slices.Equal(calls, []string{page("1"), page("2"), page("3"), "POST·" + notes}) ||
		!strings.Contains(out, "planner: the policy fails this merge request (exit status 1)") {
		t.Fatalf("the first run: exit status %d, curl asked %q, note\n%s\nwant\n%s\n%s%s", code, calls, posted, report, out, errs)
	}

	code, _, _, calls = runGitLab(t, r, state, vars)
	if code != 1 || !slices.Equal(calls, []string{page("1"), page("2"), "GET·" + notes + "/203"}) {
		t.Errorf("a run that changes nothing: exit status %d, curl asked %q", code, calls)
	}

	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 285000, "utilization": 0.51})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	mustPlanner(t, repo, "eval", "q3 plan.xlsx", "--samples", "200")
	git("commit", "-q", "-am", "utilisation at 51 %")
	code, _, errs, calls = runGitLab(t, r, state, vars)
	report = markerLine + mustReport(t, repo, short, "--policy", "planner-policy.yaml")
	updated, _ := os.ReadFile(filepath.Join(state, "notes", "203"))
	entries, _ := os.ReadDir(filepath.Join(state, "notes"))
	if code != 0 || string(updated) != report || len(entries) != 4 ||
		!slices.Equal(calls, []string{page("1"), page("2"), "GET·" + notes + "/203", "PUT·" + notes + "/203"}) ||
		!strings.HasSuffix(errs, "q3 plan.xlsx: up to date: planner's sheets match a fresh evaluation\n") {
		t.Errorf("after a push: exit status %d, curl asked %q, %d notes, note\n%s\nwant\n%s\n%s", code, calls, len(entries), updated, report, errs)
	}
}

// The README's review section quotes the comment as the action posts it:
// its policy, in a repository where capex and utilisation moved as it
// says, run through ci/review.sh, gives the quoted lines, the base
// commit's name aside (it differs with every repository). Its policy
// parses as planner reads policies, and so does the guide's.
func TestReadmeReviewComment(t *testing.T) {
	root := moduleRoot(t)
	section := docSection(t, root, "Review in pull requests")
	policyText := blockWith(t, codeBlocks(section, "yaml"), "rules:")
	var quoted []string
	for _, l := range strings.Split(section, "\n") {
		if l == ">" || strings.HasPrefix(l, "> ") {
			quoted = append(quoted, strings.TrimPrefix(strings.TrimPrefix(l, ">"), " "))
		}
	}
	if len(quoted) < 10 || quoted[len(quoted)-1] != "…" {
		t.Fatalf("the README's review section quotes no comment ending …: %q", quoted)
	}
	quoted = quoted[:len(quoted)-1]
	guide := blockWith(t, codeBlocks(docSection(t, root, "A policy that gates the merge"), "yaml"), "rules:")
	for _, text := range []string{policyText, guide} {
		if code, _, errs := diffRun("--policy", policy(t, text), "nowhere.xlsx", "nowhere.xlsx"); !strings.HasPrefix(errs, "nowhere.xlsx: ") || code != 2 {
			t.Errorf("the policy\n%s\ndoes not parse: exit status %d, %s", text, code, errs)
		}
	}

	repo, git := scratchRepo(t)
	base := git("rev-parse", "HEAD")
	git("checkout", "-q", "-b", "change")
	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 300000, "utilization": 0.48})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	if err := os.WriteFile(filepath.Join(repo, "planner-policy.yaml"), []byte(policyText), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "capex at 300,000")
	out := t.TempDir()
	code, _, errs := runCmd(t, repo, []string{"PLANNER_BASE=" + base, "PLANNER_POLICY=planner-policy.yaml",
		"PLANNER_DIFF_ARGS=--today 2026-12-01", "PLANNER_OUT=" + out, "GITHUB_STEP_SUMMARY="}, "bash", filepath.Join(root, "ci", "review.sh"))
	if code != 0 {
		t.Fatalf("ci/review.sh: exit status %d\n%s", code, errs)
	}
	comment := string(mustRead(t, filepath.Join(out, "comment.md")))
	sha := regexp.MustCompile(`\b[0-9a-f]{7,40}:plan\.xlsx`)
	if m := sha.FindString(strings.Join(quoted, "\n")); m != "" {
		comment = strings.ReplaceAll(comment, git("rev-parse", "--short", base)+":plan.xlsx", m)
	}
	lines := strings.Split(comment, "\n")
	if len(lines) < len(quoted) || !slices.Equal(lines[:len(quoted)], quoted) {
		t.Errorf("the README quotes\n%s\nthe comment begins\n%s", strings.Join(quoted, "\n"), strings.Join(lines[:min(len(lines), len(quoted))], "\n"))
	}
	if status := strings.TrimSpace(string(mustRead(t, filepath.Join(out, "status")))); status != "1" {
		t.Errorf("the README's policy gives status %s, want 1: its flip denies", status)
	}
}
