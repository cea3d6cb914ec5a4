package main

import (
	"os"
	"path/filepath"
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
	Jobs        map[string]struct {
		RunsOn string         `yaml:"runs-on"`
		Steps  []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
}

// stepResult is what one step of the job did.
type stepResult struct {
	name           string
	code           int
	stdout, stderr string
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// docs/planner-check.yml parses as the workflow it says it is: on pull
// requests, the workbooks checked out with their history, then planner's
// action. Its action, run as that workflow runs it, with the planner its
// own install step builds (go install, on a PATH without any other
// planner), comments with the report and gates on the policy.
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
	if len(wf.Jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(wf.Jobs))
	}
	var with map[string]string
	for name, job := range wf.Jobs {
		s := job.Steps
		if job.RunsOn == "" || len(s) != 2 || !strings.HasPrefix(s[0].Uses, "actions/checkout@") || s[0].With["fetch-depth"] != "0" ||
			!strings.Contains(s[1].Uses, "/planner@") {
			t.Fatalf("job %s: %+v, want the checkout with fetch-depth 0, then planner's action", name, s)
		}
		with = s[1].With
	}

	repo, git := scratchRepo(t)
	base := git("rev-parse", "HEAD")
	short := git("rev-parse", "--short", "HEAD")
	git("checkout", "-q", "-b", "change")
	setInputs(t, filepath.Join(repo, "plan.xlsx"), map[string]float64{"capex": 300000, "utilization": 0.48})
	mustPlanner(t, repo, "eval", "plan.xlsx", "--samples", "200")
	if err := os.WriteFile(filepath.Join(repo, with["policy"]), []byte("rules:\n  - deny: flip\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "capex at 300,000")

	r := newRunner(t, repo, base)
	r.path = pathWithoutPlanner()
	for _, kv := range u.env {
		if !strings.HasPrefix(kv, "PATH=") {
			r.env = append(r.env, kv)
		}
	}
	run := r.run(with, true)
	if install := run.ran(installStep); install == nil || install.code != 0 {
		t.Fatalf("the install step: %+v", install)
	}
	code, out, errs := u.runIn(repo, nil, "planner", "diff", "--against", short, "--format", "markdown", "--policy", with["policy"], "--", "plan.xlsx")
	report := markerLine + out
	if code != 1 || len(run.comments) != 1 || run.summary != report {
		t.Errorf("planner diff: exit status %d %s; comments %q, summary\n%s\nwant\n%s", code, errs, run.comments, run.summary, report)
	}
	for _, body := range run.comments {
		if body != report {
			t.Errorf("the comment is\n%s\nwant\n%s", body, report)
		}
	}
	if last := run.steps[len(run.steps)-1]; last.name != policyStep || last.code != 1 {
		t.Errorf("the job ended at %+v, want the policy failing it", last)
	}
}
