package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests of where users work follow the lines of the README and its
// guide (docs/), read from them, as a new user would type them: the set-up
// that installs planner, git's text conversion, the pre-commit hook and the
// CI job. They run the planner
// that the README's go install builds, on a PATH without any other planner,
// in git repositories of their own.

// moduleRoot is the folder of go.mod, two above this package's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	return root
}

// codeBlocks are the fenced blocks of one language in text, without their
// fences.
func codeBlocks(text, lang string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```"+regexp.QuoteMeta(lang)+"\n(.*?)^```$").FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// blockWith is the one block of blocks that contains s.
func blockWith(t *testing.T, blocks []string, s string) string {
	t.Helper()
	var found []string
	for _, b := range blocks {
		if strings.Contains(b, s) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one block with %q, found %d: %q", s, len(found), found)
	}
	return found[0]
}

// commands are the lines of a shell block a user types: without blank
// lines, comment lines, and the comments after a command.
func commands(block string) []string {
	var lines []string
	for _, line := range strings.Split(block, "\n") {
		line = regexp.MustCompile(`\s{2,}#.*$`).ReplaceAllString(line, "")
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return lines
}

// user is a shell as a user of planner has it after the README's set-up: a
// home of its own (no git configuration of the machine's), and on PATH the
// planner that go install built, and no other.
type user struct {
	t    *testing.T
	root string   // planner's source
	bin  string   // the installed planner's folder
	env  []string // of every command run
}

// pathWithoutPlanner is PATH less the folders that hold a planner, such as
// the one testscript puts this test binary in.
func pathWithoutPlanner() string {
	var dirs []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "planner")); err != nil && dir != "" {
			dirs = append(dirs, dir)
		}
	}
	return strings.Join(dirs, string(filepath.ListSeparator))
}

// goEnv is the value of one of go env's variables.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// newUser runs the README's set-up line that installs planner, with a
// GOPATH of the test's own (and the machine's module and build caches, so
// that nothing is downloaded again), and checks that planner is then the
// one it built.
func newUser(t *testing.T) *user {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	root := moduleRoot(t)
	blocks := codeBlocks(docSection(t, root, "Set up, run, test"), "sh")
	if len(blocks) != 3 {
		t.Fatalf("the set-up section has %d shell blocks, want 3 (set up, run, test): %q", len(blocks), blocks)
	}
	setup := commands(blocks[0])
	if len(setup) != 2 || !strings.HasPrefix(setup[0], "$(command -v sudo) apt-get ") || !strings.HasPrefix(setup[1], "go install ./cmd/planner") {
		t.Fatalf("the set-up is not two commands, apt-get then go install: %q", setup)
	}
	tmp := t.TempDir()
	home, gopath := filepath.Join(tmp, "home"), filepath.Join(tmp, "go")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "GOPATH", name == "GOBIN", name == "GOCACHE", name == "GOMODCACHE",
			strings.HasPrefix(name, "GIT_"), strings.HasPrefix(name, "PRE_COMMIT"):
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GOPATH="+gopath,
		"GOCACHE="+goEnv(t, "GOCACHE"), "GOMODCACHE="+goEnv(t, "GOMODCACHE"))
	u := &user{t: t, root: root, bin: filepath.Join(gopath, "bin"), env: env}

	// The set-up line, then what the shell it ran in finds as planner.
	code, out, errs := u.runIn(root, []string{"PATH=" + pathWithoutPlanner()}, "sh", "-c", setup[1]+"\ncommand -v planner")
	if code != 0 {
		t.Fatalf("%s: exit status %d\n%s", setup[1], code, errs)
	}
	if got, want := strings.TrimSpace(out), filepath.Join(u.bin, "planner"); got != want {
		t.Fatalf("after %s, planner is %q, want %q", setup[1], got, want)
	}
	u.env = append(u.env, "PATH="+u.bin+string(filepath.ListSeparator)+pathWithoutPlanner())
	return u
}

// runIn runs a command in dir with the user's environment and extra
// variables (a later one of the same name wins), killed after five minutes
// (a build of planner in a new folder, on a busy machine, takes one).
func (u *user) runIn(dir string, extra []string, name string, args ...string) (code int, stdout, stderr string) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, u.env...), extra...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	if ctx.Err() != nil {
		u.t.Fatalf("%s %q did not finish in 5 minutes; stderr: %s", name, args, errs.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		u.t.Fatalf("%s %q: %v", name, args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errs.String()
}

// must runs a command that has to succeed, and returns its output.
func (u *user) must(dir, name string, args ...string) string {
	u.t.Helper()
	code, out, errs := u.runIn(dir, nil, name, args...)
	if code != 0 {
		u.t.Fatalf("%s %q in %s: exit status %d\n%s%s", name, args, dir, code, out, errs)
	}
	return out
}

// sh runs a script of the README's with sh, as a user pasting it would.
func (u *user) sh(dir, script string) string {
	u.t.Helper()
	return u.must(dir, "sh", "-c", script)
}

// gitRepo is a new git repository at dir with an author.
func (u *user) gitRepo(dir string) {
	u.t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		u.t.Skip("git is not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		u.t.Fatal(err)
	}
	u.must(dir, "git", "init", "-q", "-b", "main")
	u.must(dir, "git", "config", "user.email", "analyst@example.com")
	u.must(dir, "git", "config", "user.name", "analyst")
}

// evaluatedPlan is the default workbook at dir/name, evaluated.
func (u *user) evaluatedPlan(dir, name string) string {
	u.t.Helper()
	u.must(dir, "planner", "init", name)
	u.must(dir, "planner", "eval", name)
	return filepath.Join(dir, name)
}

// setAssumption types a value into an assumption's value cell, as in a
// spreadsheet, without running planner.
func setAssumption(t *testing.T, path, name string, v float64) {
	t.Helper()
	found := false
	for _, row := range readSheet(t, path, "Assumptions").rows {
		found = found || len(row) > 1 && row[0] == name
	}
	if !found {
		t.Fatalf("%s: Assumptions has no %s", path, name)
	}
	setInputs(t, path, map[string]float64{name: v})
}

// TestWhereUsersWork installs planner as the README says and follows the
// lines of the README and its guide for the first run, git, pre-commit and
// CI.
func TestWhereUsersWork(t *testing.T) {
	slow(t, "builds and installs planner, runs git and pre-commit")
	u := newUser(t)
	t.Run("front door", u.testFrontDoor)
	t.Run("git textconv", u.testTextconv)
	t.Run("pre-commit", u.testPreCommit)
	t.Run("CI job", u.testCIJob)
}

// The README's run of planner's main job works with the installed planner,
// and its test command is the one .ci/run runs.
func (u *user) testFrontDoor(t *testing.T) {
	u.t = t
	blocks := codeBlocks(docSection(t, u.root, "Set up, run, test"), "sh")
	dir := t.TempDir()
	run := commands(blocks[1])
	if len(run) != 1 {
		t.Fatalf("want one command that runs the main job, got %q", run)
	}
	out := u.sh(dir, run[0])
	if first, _, _ := strings.Cut(out, "\n"); first != "plan.xlsx · GPU H100 SXM" {
		t.Errorf("%s: the first line printed is %q, want the table's title", run[0], first)
	}
	code, _, errs := u.runIn(dir, nil, "planner", "eval", "--check", "plan.xlsx")
	if code != 0 || errs != "plan.xlsx: up to date: planner's sheets match a fresh evaluation\n" {
		t.Errorf("after %s, eval --check: exit status %d\n%s", run[0], code, errs)
	}

	// CI installs what the README's set-up installs, and runs its tests.
	ci, err := os.ReadFile(filepath.Join(u.root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	apt := regexp.MustCompile(`apt-get install -y (.+)$`).FindStringSubmatch(commands(blocks[0])[0])
	var ciPackages []string
	for _, m := range regexp.MustCompile(`missing\+=\(([^)]*)\)`).FindAllStringSubmatch(string(ci), -1) {
		ciPackages = append(ciPackages, strings.Fields(m[1])...)
	}
	if apt == nil || !slices.Equal(strings.Fields(apt[1]), ciPackages) {
		t.Errorf("the README's set-up installs %q, .ci/run %q", apt, ciPackages)
	}
	// Two test commands: the quick one skips the slow tests, and the full
	// one, which CI runs, gives the slow tests room beyond Go's default
	// ten-minute timeout.
	tests := commands(blocks[2])
	if len(tests) != 2 || tests[0] != "go test -short ./..." {
		t.Fatalf("the README's test commands are %q, want the quick go test -short ./... and the full suite", tests)
	}
	if !strings.Contains(tests[1], " -timeout ") || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(tests[1])+`$`).Match(ci) {
		t.Errorf("the README's full test command %q is not a line of .ci/run with an explicit -timeout", tests[1])
	}
}

// The README's apt-get line works as a user with sudo types it and as root
// where there is no sudo (a container): run with an apt-get that only
// notes what it was asked, it asks apt-get the same twice, through sudo
// only where there is one.
func TestSetUpWithOrWithoutSudo(t *testing.T) {
	blocks := codeBlocks(docSection(t, moduleRoot(t), "Set up, run, test"), "sh")
	if len(blocks) == 0 {
		t.Fatal("the set-up section has no shell block")
	}
	apt := commands(blocks[0])[0]
	for _, withSudo := range []bool{false, true} {
		bin := t.TempDir()
		log := filepath.Join(bin, "log")
		fake := map[string]string{"apt-get": "#!/bin/sh\necho apt-get \"$@\" >>\"$LOG\"\n"}
		if withSudo {
			fake["sudo"] = "#!/bin/sh\necho sudo >>\"$LOG\"\nexec \"$@\"\n"
		}
		for name, script := range fake {
			if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("sh", "-c", apt)
		cmd.Env = []string{"PATH=" + bin, "LOG=" + log}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sudo on PATH: %v; %s: %v\n%s", withSudo, apt, err, out)
			continue
		}
		asked, _ := os.ReadFile(log)
		packages := regexp.MustCompile(`apt-get install -y (.+)$`).FindStringSubmatch(apt)
		want := "apt-get update\napt-get install -y " + packages[1] + "\n"
		if withSudo {
			want = "sudo\napt-get update\nsudo\napt-get install -y " + packages[1] + "\n"
		}
		if string(asked) != want {
			t.Errorf("sudo on PATH: %v; %s asked\n%s\nwant\n%s", withSudo, apt, asked, want)
		}
	}
}
