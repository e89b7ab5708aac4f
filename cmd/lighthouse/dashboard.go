package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"

	"creditdash/internal/figures"
)

// startDashboard runs bin/web with the built-in stand-in on a free loopback
// port, its output in logPath and its workspace beside it, and waits for
// /readyz.
func startDashboard(ctx context.Context, bin, logPath string) (*figures.Child, error) {
	// A fresh secret per run: the cookies die with the process.
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	return figures.StartDashboard(ctx, figures.Dashboard{Name: "web", Bin: bin, LogPath: logPath, Ready: "/readyz",
		Env: []string{
			"UPSTREAM_URL=",
			"SESSION_SECRET=" + hex.EncodeToString(secret),
			"COOKIE_SECURE=false",
			"LOG_LEVEL=warn",
			"STATIC_DIR=",
			"METRICS_ADDR=",
			"REDIS_URL=",
		}})
}

// visitor is one signed-in user of the dashboard: a cookie jar, redirects
// left unfollowed so that a sign-in page is seen as such.
type visitor struct {
	base string
	jar  *cookiejar.Jar
	http *http.Client
}

// demoPassword is the stand-in's documented password of every demo user.
const demoPassword = "demo"

// signIn signs user in through the dashboard's form.
func signIn(ctx context.Context, base, user string) (*visitor, error) {
	jar, _ := cookiejar.New(nil)
	v := &visitor{base: base, jar: jar, http: &http.Client{
		Jar:           jar,
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	if err := figures.SignIn(ctx, v.http, base, user, demoPassword); err != nil {
		return nil, err
	}
	return v, nil
}

// cookieHeader is the Cookie header a browser would send the dashboard.
func (v *visitor) cookieHeader() string {
	u, _ := url.Parse(v.base + "/")
	var parts []string
	for _, c := range v.jar.Cookies(u) {
		parts = append(parts, c.Name+"="+c.Value)
	}
	return strings.Join(parts, "; ")
}

func (v *visitor) get(ctx context.Context, path string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := v.http.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("lighthouse: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("lighthouse: GET %s: %w", path, err)
	}
	return resp.StatusCode, body, nil
}

// post sends a form with the CSRF token and returns the status and where
// it redirects.
func (v *visitor) post(ctx context.Context, path string, form url.Values, token string) (int, string, error) {
	form.Set("_csrf", token)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, v.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := v.http.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("lighthouse: POST %s: %w", path, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

var (
	csrfField  = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)
	folderLink = regexp.MustCompile(`href="/portfolio/folders/(\d+)"`)
	copyLink   = regexp.MustCompile(`^/snapshots/(\d+)$`)
)

// csrfToken is the value of the first form's _csrf field in a page.
func csrfToken(page []byte) string {
	if m := csrfField.FindSubmatch(page); m != nil {
		return string(m[1])
	}
	return ""
}

// preparedIDs are the ids some pages' paths need.
type preparedIDs struct {
	folder   string // demo's first folder
	snapshot string // a dated copy of report 1001
}

// prepare finds demo's first folder and saves a dated copy of the report,
// so that the folder and snapshot pages have something to show.
func prepare(ctx context.Context, base string) (preparedIDs, error) {
	var ids preparedIDs
	v, err := signIn(ctx, base, "demo")
	if err != nil {
		return ids, err
	}
	status, body, err := v.get(ctx, "/portfolio")
	if err != nil {
		return ids, err
	}
	if status != http.StatusOK {
		return ids, fmt.Errorf("lighthouse: GET /portfolio: status = %d, want 200", status)
	}
	if m := folderLink.FindSubmatch(body); m != nil {
		ids.folder = string(m[1])
	}
	status, body, err = v.get(ctx, "/businesses/1001")
	if err != nil {
		return ids, err
	}
	if status != http.StatusOK {
		return ids, fmt.Errorf("lighthouse: GET /businesses/1001: status = %d, want 200", status)
	}
	status, loc, err := v.post(ctx, "/businesses/1001/snapshots", url.Values{}, csrfToken(body))
	if err != nil {
		return ids, err
	}
	if m := copyLink.FindStringSubmatch(loc); m != nil {
		ids.snapshot = m[1]
	} else {
		return ids, fmt.Errorf("lighthouse: POST /businesses/1001/snapshots: status = %d (to %q), want a redirect to the copy", status, loc)
	}
	return ids, nil
}
