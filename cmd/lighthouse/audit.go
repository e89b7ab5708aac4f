package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"creditdash/internal/figures"
)

// measure is what one Lighthouse run found on one page.
type measure struct {
	score float64 // performance, 0–100
	tbt   float64 // Total Blocking Time, ms
	lcp   float64 // Largest Contentful Paint, ms
	cls   float64 // Cumulative Layout Shift
	fcp   float64 // First Contentful Paint, ms
}

// environment is what the runs say about where they ran.
type environment struct {
	version   string    // Lighthouse's
	userAgent string    // Chromium's, as Lighthouse saw it
	benchmark []float64 // Lighthouse's benchmark index of this machine, per run
}

func (e environment) add(o environment) environment {
	e.version, e.userAgent = o.version, o.userAgent
	e.benchmark = append(e.benchmark, o.benchmark...)
	return e
}

// audit runs Lighthouse once on one page: a fresh sign-in as the page's
// user (so a long run never meets an expired service session), the page
// requested once so the dashboard has its data, then Lighthouse with the
// session cookie in a header file. Nothing but 127.0.0.1 is contacted.
func audit(ctx context.Context, o options, base string, p page, path, reportPath, tmp string) (measure, environment, error) {
	var env environment
	headers := ""
	if p.user != "" {
		v, err := signIn(ctx, base, p.user)
		if err != nil {
			return measure{}, env, err
		}
		status, _, err := v.get(ctx, path)
		if err != nil {
			return measure{}, env, err
		}
		if status != http.StatusOK {
			return measure{}, env, fmt.Errorf("GET %s as %s: status = %d, want 200", path, p.user, status)
		}
		headers = filepath.Join(tmp, "headers.json")
		b, _ := json.Marshal(map[string]string{"Cookie": v.cookieHeader()})
		if err := os.WriteFile(headers, b, 0o600); err != nil {
			return measure{}, env, err
		}
		defer os.Remove(headers)
	}

	ctx, cancel := context.WithTimeout(ctx, o.runTimeout)
	defer cancel()
	args := []string{base + path,
		"--only-categories=performance",
		"--output=json", "--output-path=" + reportPath,
		"--quiet",
		"--disable-full-page-screenshot",
		"--chrome-flags=--headless=new --no-sandbox",
	}
	if headers != "" {
		args = append(args, "--extra-headers="+headers)
	}
	cmd := exec.CommandContext(ctx, o.lighthouse, args...)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+o.chrome)
	tail := &tailBuffer{max: 4 << 10}
	cmd.Stdout, cmd.Stderr = tail, tail
	// Its own process group, so Ctrl+C reaches this command alone; on a
	// timeout Lighthouse gets SIGINT, on which it closes its Chromium.
	cmd.SysProcAttr = figures.ChildAttr(syscall.SIGINT)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 15 * time.Second
	if err := os.Remove(reportPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return measure{}, env, err
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return measure{}, env, fmt.Errorf("lighthouse %s: stopped after %v", path, o.runTimeout)
		}
		return measure{}, env, fmt.Errorf("lighthouse %s: %v: %s", path, err, tail)
	}
	raw, err := os.ReadFile(reportPath)
	if err != nil {
		return measure{}, env, err
	}
	return parseReport(raw, path)
}

// report is the part of Lighthouse's JSON report read here.
type report struct {
	LighthouseVersion string `json:"lighthouseVersion"`
	FinalDisplayedURL string `json:"finalDisplayedUrl"`
	RuntimeError      *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"runtimeError"`
	Environment struct {
		HostUserAgent  string  `json:"hostUserAgent"`
		BenchmarkIndex float64 `json:"benchmarkIndex"`
	} `json:"environment"`
	ConfigSettings struct {
		FormFactor       string `json:"formFactor"`
		ThrottlingMethod string `json:"throttlingMethod"`
	} `json:"configSettings"`
	Categories struct {
		Performance struct {
			Score *float64 `json:"score"`
		} `json:"performance"`
	} `json:"categories"`
	Audits map[string]struct {
		NumericValue *float64 `json:"numericValue"`
	} `json:"audits"`
}

// parseReport reads a Lighthouse JSON report of the page at path.
func parseReport(raw []byte, path string) (measure, environment, error) {
	var r report
	if err := json.Unmarshal(raw, &r); err != nil {
		return measure{}, environment{}, fmt.Errorf("lighthouse %s: report: %w", path, err)
	}
	env := environment{version: r.LighthouseVersion, userAgent: r.Environment.HostUserAgent}
	if r.Environment.BenchmarkIndex > 0 {
		env.benchmark = []float64{r.Environment.BenchmarkIndex}
	}
	if r.RuntimeError != nil && r.RuntimeError.Code != "" {
		return measure{}, env, fmt.Errorf("lighthouse %s: %s: %s", path, r.RuntimeError.Code, r.RuntimeError.Message)
	}
	if r.ConfigSettings.FormFactor != "mobile" || r.ConfigSettings.ThrottlingMethod != "simulate" {
		return measure{}, env, fmt.Errorf("lighthouse %s: ran as %s with %s throttling, want the mobile preset", path, r.ConfigSettings.FormFactor, r.ConfigSettings.ThrottlingMethod)
	}
	if u, err := url.Parse(r.FinalDisplayedURL); err != nil || u.RequestURI() != path {
		return measure{}, env, fmt.Errorf("lighthouse %s: ended on %s (signed out?)", path, r.FinalDisplayedURL)
	}
	score := r.Categories.Performance.Score
	if score == nil {
		return measure{}, env, fmt.Errorf("lighthouse %s: no performance score", path)
	}
	m := measure{score: *score * 100}
	for id, into := range map[string]*float64{
		"total-blocking-time":      &m.tbt,
		"largest-contentful-paint": &m.lcp,
		"cumulative-layout-shift":  &m.cls,
		"first-contentful-paint":   &m.fcp,
	} {
		a, ok := r.Audits[id]
		if !ok || a.NumericValue == nil {
			return measure{}, env, fmt.Errorf("lighthouse %s: no %s", path, id)
		}
		*into = *a.NumericValue
	}
	return m, env, nil
}
