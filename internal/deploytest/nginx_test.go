package deploytest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needNginx returns Debian's nginx, or skips the test when it is missing
// and NGINX_TESTS is not "require" (make test sets it).
func needNginx(t *testing.T) (string, [3]int) {
	t.Helper()
	bin := FindNginx()
	if bin == "" {
		if os.Getenv("NGINX_TESTS") == "require" {
			t.Fatal("NGINX_TESTS=require but nginx is not installed (Debian's nginx package; scripts/ensure-tools.sh installs it)")
		}
		t.Skip("nginx is not installed: deploy/nginx.conf is not checked (install Debian's nginx, or set NGINX_TESTS=require to fail instead)")
	}
	v, err := NginxVersion(bin)
	if err != nil {
		t.Fatal(err)
	}
	return bin, v
}

// shipped is deploy/nginx.conf as it ships.
func shipped(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "nginx.conf"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeHarnessed writes the harnessed file into h.Dir and returns its path.
func writeHarnessed(t *testing.T, h Harness) string {
	t.Helper()
	if err := h.MakeDir(); err != nil {
		t.Fatal(err)
	}
	conf, err := h.Rewrite(shipped(t))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(h.Dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// nginxDir is a folder for nginx's files that its workers (nobody, when
// the test runs as root) can reach: t.TempDir's parents are private.
func nginxDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "creditdash-nginx-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// freeAddr is a loopback address nothing listens on at the moment.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func TestShippedNginxConfigPassesNginxT(t *testing.T) {
	bin, v := needNginx(t)
	h := Harness{Replicas: []string{"127.0.0.1:18081", "127.0.0.1:18082"}, Listen: "127.0.0.1:18080", Dir: nginxDir(t), Version: v}
	conf := writeHarnessed(t, h)
	out, err := exec.Command(bin, h.Args(conf, true)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "test is successful") {
		t.Fatalf("nginx -t on the harnessed deploy/nginx.conf: %v\n%s", err, out)
	}
}

// The shipped file's rules a balancer must keep, read from the file itself
// (nginx -t cannot tell a retry on 503 from a wanted one).
func TestShippedNginxConfigRules(t *testing.T) {
	conf := shipped(t)
	for _, m := range regexp.MustCompile(`proxy_next_upstream\s+([^;]*);`).FindAllStringSubmatch(conf, -1) {
		if strings.Contains(m[1], "http_") || strings.Contains(m[1], "non_idempotent") {
			t.Errorf("proxy_next_upstream %s: retries on the dashboard's own answers or on POSTs", m[1])
		}
	}
	for _, want := range []string{
		"proxy_set_header Host $http_host;", "proxy_set_header X-Request-ID $request_id;",
		"client_max_body_size 12m;", "proxy_next_upstream_tries 2;", "proxy_buffering off;", "resolver ",
	} {
		if !strings.Contains(conf, want) {
			t.Errorf("deploy/nginx.conf lacks %q", want)
		}
	}
}

// runNginx starts nginx on the harnessed file and stops it when the test
// ends; it returns once nginx accepts connections.
func runNginx(t *testing.T, bin string, h Harness) {
	t.Helper()
	conf := writeHarnessed(t, h)
	cmd := exec.Command(bin, h.Args(conf, false)...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		select {
		case err := <-done:
			log, _ := os.ReadFile(filepath.Join(h.Dir, "error.log"))
			t.Fatalf("nginx exited: %v\n%s\n%s", err, out.String(), log)
		default:
		}
		if c, err := net.Dial("tcp", h.Listen); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("nginx did not start listening within 10 s")
}
