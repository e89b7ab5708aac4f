package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sync"
	"time"
)

// The floor of a page view's CPU: what the dashboard spends serving a
// static file, gzip asked for as browsers do, to the same analysts over
// the same connections. A page view cannot cost less than its bytes sent
// over HTTP; a cold one adds its service calls (decoding what the stand-in
// encoded) and building the page. The target issue 25 states (CPU per page
// view <= 2 x the stand-in's CPU per call) leaves the HTTP floor out:
// figure 1 prints it beside the page view's parts, and the sound figure,
// the page view against its floor plus its service calls.

// floorRun is how long the static file is asked for.
const floorRun = 8 * time.Second

// soundTarget bounds a page view's CPU as a multiple of its floor: what a
// static file costs plus what decoding its service calls' answers costs,
// each such answer taken to cost what the stand-in spent encoding it.
const soundTarget = 2

// staticHref finds the style sheet's address on the signed-in home page.
var staticHref = regexp.MustCompile(`href="(/static/[^"]+\.css)"`)

// cpuFloor measures the static file's CPU per request and prints it with
// the page view's against it.
func (l *lab) cpuFloor(ctx context.Context, web *dashboard, browsers []*browser, perPage, standInPerCall time.Duration, callsPerPage float64, parts []cpuPart) {
	const fig = 1
	path, err := findStatic(ctx, browsers[0])
	if err != nil {
		l.rep.Broken(fig, "analysts: static file CPU per request", err)
		return
	}
	before, err := web.spent(ctx)
	if err != nil {
		l.rep.Broken(fig, "analysts: static file CPU per request", err)
		return
	}
	n := hammerStatic(ctx, browsers, path, floorRun)
	after, err := web.spent(ctx)
	if err != nil {
		l.rep.Broken(fig, "analysts: static file CPU per request", err)
		return
	}
	perFile := after.minus(before).cpu / time.Duration(max(n, 1))
	l.rep.Info(fig, "analysts: static file CPU per request (the floor)", fmt.Sprintf("%.3f ms (%s, %d requests in %v)", ms64(perFile), path, n, floorRun))
	l.rep.Info(fig, "analysts: dashboard CPU per page view / static file CPU per request", fmt.Sprintf("%.1f", float64(perPage)/float64(max(perFile, 1))))
	gz := 0.0
	for _, p := range parts {
		if p.name == "gzip" {
			gz = p.share
		}
	}
	l.rep.Info(fig, "analysts: gzip CPU per page view", fmt.Sprintf("%.3f ms", ms64(perPage)*gz))
	floor := perFile + time.Duration(callsPerPage*float64(standInPerCall))
	ratio := float64(perPage) / float64(max(floor, 1))
	l.rep.Info(fig, "analysts: dashboard CPU per page view / (static file + calls x stand-in per call)",
		fmt.Sprintf("%.1f (%.2f ms / (%.3f ms + %.2f x %.3f ms)), proposed target <= %d",
			ratio, ms64(perPage), ms64(perFile), callsPerPage, ms64(standInPerCall), soundTarget))
}

// findStatic is the address of the style sheet the pages link.
func findStatic(ctx context.Context, b *browser) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/", nil)
	if err != nil {
		return "", err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", err
	}
	m := staticHref.FindSubmatch(body)
	if m == nil {
		return "", fmt.Errorf("loadtest: no style sheet on the home page (status %d)", resp.StatusCode)
	}
	return string(m[1]), nil
}

// hammerStatic asks every browser for path in a closed loop for d and
// returns how many answers came.
func hammerStatic(ctx context.Context, browsers []*browser, path string, d time.Duration) int {
	var (
		mu sync.Mutex
		n  int
		wg sync.WaitGroup
	)
	deadline := time.Now().Add(d)
	for _, b := range browsers {
		wg.Go(func() {
			for i := 0; i < perWorker && time.Now().Before(deadline) && ctx.Err() == nil; i++ {
				if o := b.get(ctx, path); o.err == nil && o.status == http.StatusOK {
					mu.Lock()
					n++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return n
}
