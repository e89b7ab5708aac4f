package figures

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPrefixWriterMarksEachLine(t *testing.T) {
	var out bytes.Buffer
	n, err := PrefixWriter{Prefix: "web: ", W: &out}.Write([]byte("one\ntwo\n"))
	if err != nil || n != len("one\ntwo\n") {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if out.String() != "web: one\nweb: two\n" {
		t.Errorf("prefixed = %q", out.String())
	}
}

// A child that writes and exits: its log holds what it wrote, Tail keeps
// the end of a long log, and Failed reports the exit with that end.
func TestChildLogTailAndExit(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh here")
	}
	logPath := filepath.Join(t.TempDir(), "child.log")
	var echo bytes.Buffer
	script := `i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done; echo last >&2; exit 3`
	c, err := Start("child", sh, logPath, []string{"-c", script}, nil, &echo)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	select {
	case <-c.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the child did not exit")
	}
	n, err := c.LogBytes()
	if err != nil || n < int64(2000*len("line 0\n")) {
		t.Errorf("LogBytes = %d, %v: want every line", n, err)
	}
	tail := c.Tail()
	if !strings.HasSuffix(tail, "line 1999\nlast") || strings.Contains(tail, "line 0\n") || len(tail) > 8<<10 {
		t.Errorf("Tail is not the end of the log (%d bytes): ...%q", len(tail), tail[max(len(tail)-40, 0):])
	}
	if err := c.Failed(); err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "last") {
		t.Errorf("Failed = %v, want the exit and the log's end", err)
	}
	if !strings.Contains(echo.String(), "child: line 1999\n") {
		t.Errorf("the echo lacks the marked lines: ...%q", echo.String()[max(echo.Len()-40, 0):])
	}
}
