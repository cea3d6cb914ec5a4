package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"planner/workbooks"
)

// readSide reads a workbook from a file or, for REV:PATH when no such file
// exists, from git: diff HEAD~1:plan.xlsx plan.xlsx.
func readSide(arg string) (*workbooks.Book, error) {
	if _, err := os.Stat(arg); !errors.Is(err, fs.ErrNotExist) {
		return workbooks.ReadAsIs(arg)
	}
	rev, path, ok := strings.Cut(arg, ":")
	if !ok || rev == "" || path == "" {
		return workbooks.ReadAsIs(arg) // says the file does not exist
	}
	if strings.HasPrefix(rev, "-") {
		// git would take it for one of its options (--output=FILE writes
		// a file): refused before git runs.
		return nil, fmt.Errorf("%s: there is no such file, and %s is not a git revision, which never begins with -: write REV:PATH with a commit, branch or tag, such as HEAD~1:plan.xlsx or main:plan.xlsx", arg, rev)
	}
	data, err := gitShow(arg)
	if err != nil && !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "/") {
		// git reads REV:PATH from the repository's top; REV:./PATH from here.
		if again, err2 := gitShow(rev + ":./" + path); err2 == nil {
			data, err = again, nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", arg, err)
	}
	return workbooks.ReadBytesAsIs(arg, data)
}

// gitShow returns the bytes of REV:PATH.
func gitShow(spec string) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("there is no such file, and git is not installed to read it as a revision")
	}
	var out, errs bytes.Buffer
	// --end-of-options: whatever spec holds, git reads it as a revision.
	cmd := exec.Command("git", "show", "--end-of-options", spec)
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errs.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("there is no such file, and git cannot read it as REV:PATH (%s)", firstLine(msg))
	}
	return out.Bytes(), nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimPrefix(line, "fatal: ")
}

// gitHas reports whether git has REV:PATH, reading PATH from here as
// readSide does; an error when git cannot say (no git, no such revision).
func gitHas(spec string) (bool, error) {
	rev, path, _ := strings.Cut(spec, ":")
	if _, err := exec.LookPath("git"); err != nil {
		return false, errors.New("git is not installed")
	}
	var errs bytes.Buffer
	verify := exec.Command("git", "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	verify.Stderr = &errs
	if err := verify.Run(); err != nil {
		return false, fmt.Errorf("git knows no commit %s", rev)
	}
	for _, p := range []string{path, "./" + path} {
		if exec.Command("git", "cat-file", "-e", rev+":"+p).Run() == nil {
			return true, nil
		}
	}
	return false, nil
}
