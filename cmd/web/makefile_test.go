package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMakeGenerateQuiet: make run builds through make generate, whose
// output lands among the dashboard's own lines; templ's progress lines
// ("needsRestart=true") read like an error there, so it prints nothing
// when all is well.
func TestMakeGenerateQuiet(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", "--no-print-directory", "-C", "../..", "generate")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make generate: %v\n%s", err, out)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("make generate printed %q, want nothing", s)
	}
}
