package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Figure 6 is the core's shape as issue 25 states it: how many files a
// newcomer touches to add a report tab (target <= 6) or a service
// operation (target <= 3), counted from the recipes' own lists in
// docs/architecture.md, so the figure is the one the docs promise.
const (
	tabFilesTarget = 6
	opStepsTarget  = 3
)

// numbered is a list item of the recipes: "1. ...".
var numbered = regexp.MustCompile(`^\d+\. `)

// recipeLists counts the steps of the recipes in the file at path for
// adding a report tab (the numbered list of its section "How to add a
// report tab") and a service operation (the list after the line "How to
// add a service operation").
func recipeLists(path string) (tab, op int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	tab = listAfter(lines, func(l string) bool { return l == "## How to add a report tab" })
	op = listAfter(lines, func(l string) bool { return strings.HasPrefix(l, "How to add a service operation") })
	if tab == 0 || op == 0 {
		return tab, op, fmt.Errorf("bench: %s lacks a numbered list for adding a report tab or a service operation", path)
	}
	return tab, op, nil
}

// listAfter counts the items of the first numbered list after the line
// start matches; the list ends at a heading or at text that is neither an
// item, nor indented under one, nor blank.
func listAfter(lines []string, start func(string) bool) int {
	i := 0
	for i < len(lines) && !start(lines[i]) {
		i++
	}
	n := 0
	for i++; i < len(lines); i++ {
		l := lines[i]
		switch {
		case numbered.MatchString(l):
			n++
		case strings.HasPrefix(l, "#"):
			return n
		case l == "" || strings.HasPrefix(l, " "):
		case n > 0:
			return n
		}
	}
	return n
}

// structure prints figure 6 from the recipes.
func (l *lab) structure() {
	tab, op, err := recipeLists(l.opts.recipes)
	if err != nil {
		l.rep.Broken(6, "the recipes' how-to lists", err)
		return
	}
	l.rep.Check(6, "files to touch to add a report tab (recipes)", fmt.Sprint(tab), fmt.Sprintf("<= %d", tabFilesTarget), tab <= tabFilesTarget)
	l.rep.Check(6, "places to touch to add a service operation (recipes)", fmt.Sprint(op), fmt.Sprintf("<= %d", opStepsTarget), op <= opStepsTarget)
	l.rep.Note(6, "counted from the numbered lists of %s's \"How to add a report tab\" and \"How to add a service operation\"", l.opts.recipes)
}
