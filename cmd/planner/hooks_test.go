package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodeYAML decodes YAML into v, refusing keys that v has no field for,
// so that a misspelt key fails here rather than being ignored by the tool
// that reads the file.
func decodeYAML(t *testing.T, what string, data []byte, v any) {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// preCommitHook is a hook of .pre-commit-hooks.yaml, with the keys planner's
// uses, and those a user's configuration adds.
type preCommitHook struct {
	ID          string   `yaml:"id"`
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Entry       string   `yaml:"entry"`
	Language    string   `yaml:"language"`
	Files       string   `yaml:"files"`
	Exclude     string   `yaml:"exclude"`
	Args        []string `yaml:"args"`
}

// planner's pre-commit hook: its file parses, picks the workbooks, and its
// entry passes a fresh workbook and stops a stale one; the guide's three
// lines name it; the guide's plain git hook stops a stale commit; and,
// where the pre-commit framework is installed, the framework itself builds
// the hook from this repository and runs it.
func (u *user) testPreCommit(t *testing.T) {
	u.t = t
	data, err := os.ReadFile(filepath.Join(u.root, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	decodeYAML(t, ".pre-commit-hooks.yaml", data, &hooks)
	if len(hooks) != 1 {
		t.Fatalf(".pre-commit-hooks.yaml has %d hooks, want 1", len(hooks))
	}
	hook := hooks[0]
	if hook.ID != "planner-eval-check" || hook.Language != "golang" || hook.Entry != "planner eval --check" {
		t.Errorf("hook %+v: want id planner-eval-check, language golang, entry planner eval --check", hook)
	}
	files, exclude := regexp.MustCompile(hook.Files), regexp.MustCompile(hook.Exclude)
	for path, want := range map[string]bool{
		"plan.xlsx": true, "plans/q3 plan.xlsx": true, "macros.xlsm": true,
		"plan.xlsx.bak": false, "notes.md": false, "old.xls": false, "plan.ods": false,
		"~$plan.xlsx": false, "plans/~$plan.xlsx": false, "plans/a~$b.xlsx": true,
	} {
		if got := files.MatchString(path) && !exclude.MatchString(path); got != want {
			t.Errorf("the hook runs on %s: %v, want %v", path, got, want)
		}
	}

	// The guide's three lines of .pre-commit-config.yaml.
	section := docSection(t, u.root, "Reviewing changes: show, diff, eval --check")
	block := blockWith(t, codeBlocks(section, "yaml"), hook.ID)
	if lines := strings.Split(strings.TrimSpace(block), "\n"); len(lines) != 3 {
		t.Errorf("the guide's pre-commit configuration is %d lines, want 3:\n%s", len(lines), block)
	}
	var config struct {
		Repos []struct {
			Repo  string          `yaml:"repo"`
			Rev   string          `yaml:"rev"`
			Hooks []preCommitHook `yaml:"hooks"`
		} `yaml:"repos"`
	}
	decodeYAML(t, "the guide's .pre-commit-config.yaml", []byte("repos:\n"+block), &config)
	if len(config.Repos) != 1 || config.Repos[0].Repo == "" || config.Repos[0].Rev == "" ||
		!reflect.DeepEqual(config.Repos[0].Hooks, []preCommitHook{{ID: hook.ID}}) {
		t.Errorf("the guide's pre-commit configuration is not one repo, rev and hook %s: %+v", hook.ID, config)
	}
	// Its example of a hook with the user's --samples and folder.
	m := regexp.MustCompile("`hooks: (\\[\\{id: " + hook.ID + ", [^`]*\\}\\])`").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the guide has no example of the hook with args and files")
	}
	var own []preCommitHook
	decodeYAML(t, "the guide's hook with args", []byte(m[1]), &own)
	if len(own) != 1 || !reflect.DeepEqual(own[0].Args, []string{"--samples", "20000"}) {
		t.Errorf("the guide's hook with args is %+v, want args --samples 20000", own)
	} else {
		plans := regexp.MustCompile(own[0].Files)
		for path, want := range map[string]bool{"plans/q3.xlsx": true, "q3.xlsx": false, "plans/q3.xlsx.bak": false} {
			if plans.MatchString(path) != want {
				t.Errorf("the guide's files: %s runs on %s: %v, want %v", own[0].Files, path, !want, want)
			}
		}
	}

	// The entry as pre-commit runs it: its words, then the staged files.
	dir := t.TempDir()
	u.evaluatedPlan(dir, "fresh.xlsx")
	setAssumption(t, u.evaluatedPlan(dir, "stale.xlsx"), "capex", 300000)
	entry := strings.Fields(hook.Entry)
	code, out, errs := u.runIn(dir, nil, entry[0], append(entry[1:], "fresh.xlsx")...)
	if code != 0 || out != "" || errs != "fresh.xlsx: up to date: planner's sheets match a fresh evaluation\n" {
		t.Errorf("%s fresh.xlsx: exit status %d\nstdout: %s\nstderr: %s", hook.Entry, code, out, errs)
	}
	code, out, errs = u.runIn(dir, nil, entry[0], append(entry[1:], "fresh.xlsx", "stale.xlsx")...)
	if code != 1 || out != "" || !strings.HasPrefix(errs, "fresh.xlsx: up to date: planner's sheets match a fresh evaluation\n") ||
		!regexp.MustCompile(`(?m)^stale.xlsx: Results was computed from inputs [0-9a-f]{12}, but the inputs are now [0-9a-f]{12}: someone changed the workbook without running planner eval stale.xlsx$`).MatchString(errs) ||
		!strings.HasSuffix(errs, "stale.xlsx: stale; run planner eval stale.xlsx and commit the result\n") {
		t.Errorf("%s fresh.xlsx stale.xlsx: exit status %d, want 1 and the stale cells\nstdout: %s\nstderr: %s", hook.Entry, code, out, errs)
	}

	t.Run("git hook", u.testGitHook)
	t.Run("framework", func(t *testing.T) {
		u.t = t
		u.testPreCommitFramework(t, block, config.Repos[0].Repo, config.Repos[0].Rev)
	})
}

// The guide's .git/hooks/pre-commit stops a commit of a stale workbook
// (one whose name has a space) and lets it through once evaluated.
func (u *user) testGitHook(t *testing.T) {
	u.t = t
	section := docSection(t, u.root, "Reviewing changes: show, diff, eval --check")
	script := blockWith(t, codeBlocks(section, "sh"), "#!/bin/sh")
	repo := filepath.Join(t.TempDir(), "plans")
	u.gitRepo(repo)
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "pre-commit"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	plan := u.evaluatedPlan(repo, "q3 plan.xlsx")
	u.must(repo, "git", "add", "q3 plan.xlsx")
	u.must(repo, "git", "commit", "-q", "-m", "the plan")

	setAssumption(t, plan, "capex", 300000)
	u.must(repo, "git", "add", "q3 plan.xlsx")
	code, _, errs := u.runIn(repo, nil, "git", "commit", "-q", "-m", "capex at 300,000")
	if code == 0 || !strings.Contains(errs, "q3 plan.xlsx: stale; run planner eval 'q3 plan.xlsx' and commit the result\n") {
		t.Errorf("the hook let a stale workbook be committed: exit status %d\n%s", code, errs)
	}
	if n := strings.TrimSpace(u.must(repo, "git", "rev-list", "--count", "HEAD")); n != "1" {
		t.Errorf("%s commits after the refused one, want 1", n)
	}
	u.must(repo, "planner", "eval", "q3 plan.xlsx")
	u.must(repo, "git", "commit", "-q", "-am", "capex at 300,000")
}

// The guide's three lines, in a repository's .pre-commit-config.yaml
// with the repo and rev of a copy of this source: pre-commit install makes
// git commit build the hook with Go and run it, which lets a fresh workbook
// be committed and stops a stale one.
func (u *user) testPreCommitFramework(t *testing.T, block, repo, rev string) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("the pre-commit framework is not installed")
	}
	source := filepath.Join(t.TempDir(), "planner")
	copySource(t, u.root, source)
	u.gitRepo(source)
	u.must(source, "git", "add", ".")
	u.must(source, "git", "commit", "-q", "-m", "planner")
	sha := strings.TrimSpace(u.must(source, "git", "rev-parse", "HEAD"))
	if strings.Count(block, repo) != 1 || strings.Count(block, rev) != 1 {
		t.Fatalf("the guide's configuration names its repo and rev more than once:\n%s", block)
	}
	config := "repos:\n" + strings.Replace(strings.Replace(block, repo, source, 1), rev, sha, 1)

	plans := filepath.Join(t.TempDir(), "plans")
	u.gitRepo(plans)
	if err := os.WriteFile(filepath.Join(plans, ".pre-commit-config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PRE_COMMIT_HOME=" + filepath.Join(t.TempDir(), "pre-commit")}
	if code, out, errs := u.runIn(plans, env, "pre-commit", "install"); code != 0 {
		t.Fatalf("pre-commit install: exit status %d\n%s%s", code, out, errs)
	}
	plan := u.evaluatedPlan(plans, "plan.xlsx")
	u.must(plans, "git", "add", ".pre-commit-config.yaml", "plan.xlsx")
	code, out, errs := u.runIn(plans, env, "git", "commit", "-m", "the plan")
	if code != 0 || !regexp.MustCompile(`(?m)^planner eval --check\.+Passed$`).MatchString(out+errs) {
		t.Fatalf("git commit of a fresh workbook with pre-commit: exit status %d\n%s%s", code, out, errs)
	}
	setAssumption(t, plan, "capex", 300000)
	u.must(plans, "git", "add", "plan.xlsx")
	const commit = "git commit -m 'capex at 300,000'"
	code, out, errs = u.runIn(plans, env, "sh", "-c", commit+" 2>&1")
	if code == 0 || !regexp.MustCompile(`(?m)^planner eval --check\.+Failed$`).MatchString(out+errs) ||
		!strings.Contains(out+errs, "plan.xlsx: stale; run planner eval plan.xlsx and commit the result\n") {
		t.Errorf("git commit of a stale workbook with pre-commit: exit status %d, want a refusal with the stale message\n%s%s", code, out, errs)
	}
	// What the guide shows of that commit is what it printed.
	var got []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		got = append(got, strings.TrimRight(l, " "))
	}
	for _, s := range samples(t, u.root) {
		if s.command == commit && !matchesSample(s.output, got) {
			t.Errorf("%s: $ %s prints\n%s\nwhere the page shows\n%s", s.page, commit, out, strings.Join(s.output, "\n"))
		}
	}
	if n := strings.TrimSpace(u.must(plans, "git", "rev-list", "--count", "HEAD")); n != "1" {
		t.Errorf("%s commits after the refused one, want 1", n)
	}
}

// copySource copies planner's source from root to dir, without git,
// tests and test data, as a repository of planner's holds it for go
// install.
func copySource(t *testing.T, root, dir string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		case !d.Type().IsRegular() || strings.HasSuffix(d.Name(), "_test.go") || d.Name() == ".git":
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
