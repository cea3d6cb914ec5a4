package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docPages are the README and the guide's pages, as paths from the module's
// root: the pages whose sections and links the tests read.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(root, "README.md")}, pages...)
	for i, p := range pages {
		pages[i], _ = filepath.Rel(root, p)
	}
	return pages
}

// docSection is the text of the section under the heading "# heading" or
// "## heading" of the README or of a page of docs/, up to the next heading
// of its level or above: the one page that holds it.
func docSection(t *testing.T, root, heading string) string {
	t.Helper()
	var found []string
	var text string
	for _, page := range docPages(t, root) {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		if s, ok := sectionOf(string(data), heading); ok {
			found, text = append(found, page), s
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one page with a section %q in README.md or docs/*.md, found %q", heading, found)
	}
	return text
}

// sectionOf is the text of a page's section under heading, with its heading
// line.
func sectionOf(page, heading string) (string, bool) {
	lines := strings.SplitAfter(page, "\n")
	start, level := -1, 0
	for _, h := range headings(lines) {
		switch {
		case start < 0 && h.text == heading && h.level <= 2:
			start, level = h.line, h.level
		case start >= 0 && h.level <= level:
			return strings.Join(lines[start:h.line], ""), true
		}
	}
	if start < 0 {
		return "", false
	}
	return strings.Join(lines[start:], ""), true
}

// heading is a Markdown heading of a page: its level, its text and its line.
type heading struct {
	level int
	text  string
	line  int
}

// headings are the ATX headings of a page's lines, outside fenced code.
func headings(lines []string) []heading {
	var out []heading
	fenced := false
	for i, line := range lines {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if m := regexp.MustCompile(`^(#{1,6}) (.+?)\s*$`).FindStringSubmatch(line); m != nil && !fenced {
			out = append(out, heading{level: len(m[1]), text: m[2], line: i})
		}
	}
	return out
}

// anchor is the fragment a heading is linked by, as GitHub makes it: lower
// case, spaces as hyphens, punctuation other than hyphens and underscores
// left out.
func anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-', r == '_', unicode.IsLetter(r), unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the fragments of a page's headings; a repeated heading's
// fragment takes -1, -2 and so on, as GitHub numbers them.
func anchors(page string) []string {
	var out []string
	seen := map[string]int{}
	for _, h := range headings(strings.SplitAfter(page, "\n")) {
		a := anchor(h.text)
		if n := seen[a]; n > 0 {
			seen[a] = n + 1
			a += "-" + strconv.Itoa(n)
		} else {
			seen[a] = 1
		}
		out = append(out, a)
	}
	return out
}

// links are the targets of a page's inline links and images, outside
// fenced code and code spans.
func links(page string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		line = regexp.MustCompile("`[^`]*`").ReplaceAllString(line, "")
		for _, m := range regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// Every relative link of the README and of the guide's pages leads to a
// file of the repository, and every #fragment to a heading of the page it
// names: a section moved to another page takes its links with it.
func TestDocsLinksResolve(t *testing.T) {
	root := moduleRoot(t)
	pages := append(docPages(t, root), "BENCHMARKS.md", filepath.Join("bench", "README.md"))
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range links(string(data)) {
			if regexp.MustCompile(`^[a-z]+:`).MatchString(target) {
				continue // a page on the web
			}
			checked++
			path, fragment, _ := strings.Cut(target, "#")
			file := filepath.Join(filepath.Dir(filepath.Join(root, page)), filepath.FromSlash(path))
			if path == "" {
				file = filepath.Join(root, page)
			}
			linked, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: the link (%s) leads to no file: %v", page, target, err)
				continue
			}
			if fragment != "" && !slices.Contains(anchors(string(linked)), fragment) {
				t.Errorf("%s: the link (%s) names no heading of %s; its headings are %q", page, target, path, anchors(string(linked)))
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked %d links; the README alone links to every page of docs/", checked)
	}
}
