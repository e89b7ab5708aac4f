package deploytest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMachine is a folder standing for a machine's root: the programs named
// get an executable in its bin, the files named are created under it.
func fakeMachine(t *testing.T, programs []string, files []string) (bin, root string) {
	t.Helper()
	root = t.TempDir()
	bin = filepath.Join(root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range programs {
		if err := os.WriteFile(filepath.Join(bin, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return bin, root
}

// runEnsureTools runs the script against a fake machine as the user id given.
func runEnsureTools(t *testing.T, bin, root, uid string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", filepath.Join(repoRoot(t), "scripts", "ensure-tools.sh"))
	cmd.Env = append(os.Environ(), "ENSURE_TOOLS_PATH="+bin, "ENSURE_TOOLS_ROOT="+root,
		"ENSURE_TOOLS_UID="+uid, "ENSURE_TOOLS_DRY_RUN=1", "CHROMIUM_PATH=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

var everyFile = []string{
	"usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
	"usr/lib/postgresql/17/bin/initdb",
	"usr/include/stdio.h",
}

func TestEnsureToolsNothingMissing(t *testing.T) {
	bin, root := fakeMachine(t, []string{"chromium", "valkey-server", "gcc", "nginx", "npm"}, everyFile)
	out, code := runEnsureTools(t, bin, root, "1000")
	if code != 0 || out != "" {
		t.Fatalf("exit %d, output %q; want 0 and silence", code, out)
	}
}

func TestEnsureToolsNamesTheOneCommand(t *testing.T) {
	// Debian without PostgreSQL, Redis and nginx, not root.
	bin, root := fakeMachine(t, []string{"apt-get", "chromium", "gcc", "npm"},
		[]string{everyFile[0], everyFile[2]})
	out, code := runEnsureTools(t, bin, root, "1000")
	if code != 1 {
		t.Fatalf("exit %d; want 1:\n%s", code, out)
	}
	want := "sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends postgresql redis-server nginx'"
	if !strings.Contains(out, want) {
		t.Fatalf("output lacks %q:\n%s", want, out)
	}
}

func TestEnsureToolsInstallsAsRoot(t *testing.T) {
	bin, root := fakeMachine(t, []string{"apt-get", "redis-server", "nginx", "npm"}, everyFile[1:2])
	out, code := runEnsureTools(t, bin, root, "0")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	want := "apt-get update && apt-get install -y --no-install-recommends chromium fonts-liberation gcc libc6-dev\n"
	if !strings.HasSuffix(out, want) {
		t.Fatalf("output does not end in %q:\n%s", want, out)
	}
}

func TestEnsureToolsNotDebian(t *testing.T) {
	bin, root := fakeMachine(t, nil, nil)
	out, code := runEnsureTools(t, bin, root, "0")
	if code != 1 || !strings.Contains(out, "not a Debian machine") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

// repoRoot is the repository's top folder (tests run in their package's).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
