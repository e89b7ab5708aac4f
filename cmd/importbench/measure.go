package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/figures"
)

// The stand-in's analyst who posts every file, and the settings the
// dashboard runs with (its defaults otherwise, CACHE_MB included).
const (
	user     = "demo"
	password = "demo"
	secret   = "importbench-secret-not-for-production-0123456789"
)

// result is what one file cost.
type result struct {
	shape   shape
	size    int
	status  int
	message string
	wall    time.Duration
	before  int64 // VmRSS just before the post
	peak    int64 // VmHWM after it, reset just before
	growth  int64 // peak - before
	maxRSS  int64 // the process's peak over its life (rusage)
}

// measure starts a dashboard, signs in, posts data as s's file to the
// import preview and reads what it cost.
func measure(ctx context.Context, bin, serviceURL, logPath string, s shape, data []byte) (result, error) {
	r := result{shape: s, size: len(data)}
	web, err := figures.StartDashboard(ctx, figures.Dashboard{Name: "web", Bin: bin, LogPath: logPath, Ready: "/readyz",
		Env: []string{"UPSTREAM_URL=" + serviceURL, "SESSION_SECRET=" + secret, "COOKIE_SECURE=false", "LOG_LEVEL=warn"}})
	if err != nil {
		return r, err
	}
	defer web.Stop()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if err := figures.SignIn(ctx, client, web.URL, user, password); err != nil {
		return r, err
	}
	token, err := csrfOf(ctx, client, web.URL+"/accounts/import")
	if err != nil {
		return r, err
	}
	body, contentType, err := upload(token, s.file, data)
	if err != nil {
		return r, err
	}
	if r.before, err = figures.ProcStatus(web.PID(), "VmRSS"); err != nil {
		return r, err
	}
	if err := figures.ResetPeak(web.PID()); err != nil {
		return r, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, web.URL+"/accounts/import", bytes.NewReader(body))
	if err != nil {
		return r, err
	}
	req.Header.Set("Content-Type", contentType)
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return r, fmt.Errorf("POST /accounts/import: %w", err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	r.wall = time.Since(t0)
	if err != nil {
		return r, fmt.Errorf("POST /accounts/import: %w", err)
	}
	if r.peak, err = figures.ProcStatus(web.PID(), "VmHWM"); err != nil {
		return r, err
	}
	r.growth = r.peak - min(r.peak, r.before)
	r.status, r.message = resp.StatusCode, messageOf(page)
	if err := web.Failed(); err != nil {
		return r, err
	}
	web.Stop()
	r.maxRSS = web.MaxRSS()
	return r, nil
}

// csrfOf reads the CSRF token of the page's upload form.
func csrfOf(ctx context.Context, client *http.Client, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("GET %s: status %d (%v), want 200", url, resp.StatusCode, err)
	}
	token, ok := doc.Find(`form[enctype="multipart/form-data"] input[name="_csrf"]`).Attr("value")
	if !ok || token == "" {
		return "", fmt.Errorf("GET %s: no upload form with a _csrf field", url)
	}
	return token, nil
}

// upload is the import form as a browser sends it with the file chosen.
func upload(token, name string, data []byte) ([]byte, string, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("_csrf", token)
	_ = w.WriteField("as_of", time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02"))
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		return nil, "", err
	}
	if _, err := fw.Write(data); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return body.Bytes(), w.FormDataContentType(), nil
}

// messageOf is what the answer tells the analyst: the file's refusal, or
// the preview's count of accounts to import and rows to skip.
func messageOf(page []byte) string {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		return "(not HTML)"
	}
	if msg := strings.TrimSpace(doc.Find("#file-error").Text()); msg != "" {
		return msg
	}
	var parts []string
	if b := strings.TrimSpace(doc.Find("form.import-confirm button[type=submit]").Text()); b != "" {
		parts = append(parts, "preview: "+b)
	}
	if bad := doc.Find("table.import-bad tbody tr"); bad.Length() > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped rows listed, the first: %s", bad.Length(), bad.First().Find("td").Text()))
	}
	if more := strings.TrimSpace(doc.Find("table.import-bad").Parent().NextFiltered("p.muted").Text()); more != "" {
		parts = append(parts, more)
	}
	if len(parts) == 0 {
		if alert := strings.TrimSpace(doc.Find("[role=alert]").First().Text()); alert != "" {
			return alert
		}
		return "(no message on the page)"
	}
	return strings.Join(strings.Fields(strings.Join(parts, "; ")), " ")
}
