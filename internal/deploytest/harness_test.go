package deploytest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// FindNginx returns Debian's nginx (on PATH or in /usr/sbin, which a plain
// user's PATH lacks), or "".
func FindNginx() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// NginxVersion is the version nginx -v prints, as three numbers.
func NginxVersion(bin string) ([3]int, error) {
	var v [3]int
	out, err := exec.Command(bin, "-v").CombinedOutput()
	if err != nil {
		return v, fmt.Errorf("deploytest: nginx -v: %w: %s", err, out)
	}
	m := regexp.MustCompile(`nginx/(\d+)\.(\d+)\.(\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		return v, fmt.Errorf("deploytest: no version in %q", out)
	}
	for i := range v {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return v, nil
}

var (
	upstreamServer = regexp.MustCompile(`(?m)^(\s*)server\s+[A-Za-z0-9.-]+:\d+(\s[^;]*)?;\n`)
	listenLine     = regexp.MustCompile(`(?m)^(\s*)listen\s+\d+;`)
)

// Harness is what the shipped deploy/nginx.conf becomes for a test: the
// same file but for the upstream servers' addresses (the test's replicas,
// each with the parameters of the shipped first server), the listening
// address, the logs and temporary files (in dir), and, for an nginx older
// than 1.27.3, no "resolve" parameter (unknown there; the addresses are
// literal anyway).
type Harness struct {
	Replicas []string // host:port of each replica
	Listen   string   // host:port nginx listens on
	Dir      string   // logs, temporary files and the pid file
	Version  [3]int
}

// Rewrite returns the harnessed configuration, or an error when the
// shipped file no longer has the shape the harness relies on.
func (h Harness) Rewrite(shipped string) (string, error) {
	servers := upstreamServer.FindAllStringSubmatch(shipped, -1)
	if len(servers) == 0 {
		return "", fmt.Errorf("deploytest: no upstream server lines in the shipped file")
	}
	indent, params := servers[0][1], servers[0][2]
	for _, s := range servers[1:] {
		if s[2] != params {
			return "", fmt.Errorf("deploytest: upstream servers differ in parameters (%q, %q)", params, s[2])
		}
	}
	if older(h.Version, [3]int{1, 27, 3}) {
		params = strings.Replace(params, " resolve", "", 1)
	}
	var lines strings.Builder
	for _, r := range h.Replicas {
		fmt.Fprintf(&lines, "%sserver %s%s;\n", indent, r, params)
	}
	first := true
	conf := upstreamServer.ReplaceAllStringFunc(shipped, func(string) string {
		if first {
			first = false
			return lines.String()
		}
		return ""
	})
	if n := len(listenLine.FindAllString(conf, -1)); n != 1 {
		return "", fmt.Errorf("deploytest: %d listen lines in the shipped file, want 1", n)
	}
	conf = listenLine.ReplaceAllString(conf, "${1}listen "+h.Listen+";")
	for old, new := range map[string]string{
		"access_log /dev/stdout main;": "access_log " + filepath.Join(h.Dir, "access.log") + " main;",
		"error_log /dev/stderr warn;":  "error_log " + filepath.Join(h.Dir, "error.log") + " info;",
	} {
		if !strings.Contains(conf, old) {
			return "", fmt.Errorf("deploytest: the shipped file lacks %q", old)
		}
		conf = strings.Replace(conf, old, new, 1)
	}
	var temp strings.Builder
	for _, kind := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(&temp, "\n  %s_temp_path %s;", kind, filepath.Join(h.Dir, kind))
	}
	if !strings.Contains(conf, "\nhttp {") {
		return "", fmt.Errorf("deploytest: no http block in the shipped file")
	}
	return strings.Replace(conf, "\nhttp {", "\nhttp {"+temp.String(), 1), nil
}

// Args are nginx's arguments to run the harnessed file conf (in the
// foreground, its pid file and start-up log in Dir); test adds -t.
func (h Harness) Args(conf string, test bool) []string {
	args := []string{"-p", h.Dir, "-e", filepath.Join(h.Dir, "error.log"), "-c", conf,
		"-g", "daemon off; pid " + filepath.Join(h.Dir, "nginx.pid") + ";"}
	if test {
		args = append(args, "-t")
	}
	return args
}

// MakeDir creates Dir's subfolders, writable by nginx's workers (user
// nobody when the test runs as root).
func (h Harness) MakeDir() error {
	if err := os.Chmod(h.Dir, 0o755); err != nil {
		return err
	}
	for _, kind := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		p := filepath.Join(h.Dir, kind)
		if err := os.MkdirAll(p, 0o777); err != nil {
			return err
		}
		if err := os.Chmod(p, 0o777); err != nil {
			return err
		}
	}
	return nil
}

// older tells whether version a comes before b.
func older(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
