package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"
)

// standIn is bin/simulator as a child process, with a client for its test
// hooks and its API.
type standIn struct {
	*proc
	http *http.Client
}

// startStandIn runs the stand-in with analysts users load1..loadN, the bulk
// user's portfolio of bulk businesses and a fixed latency on every answer.
func startStandIn(ctx context.Context, o options, dir string) (*standIn, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"-addr", addr, "-analysts", fmt.Sprint(o.analysts + int(numKinds)),
		"-bulk", fmt.Sprint(o.bulk), "-latency", o.latency.String()}
	p, err := start("simulator", o.simulator, filepath.Join(dir, "simulator.log"), args, nil)
	if err != nil {
		return nil, err
	}
	p.url = "http://" + addr
	s := &standIn{proc: p, http: &http.Client{Timeout: 30 * time.Second}}
	if err := p.waitHTTP(ctx, "/_sim/faults", 60*time.Second); err != nil {
		p.stop()
		return nil, err
	}
	return s, nil
}

// reset zeroes the request counters and the rate-limit windows, so that
// the Ordinary user starts with its whole hourly quota.
func (s *standIn) reset(ctx context.Context) error {
	return s.hook(ctx, http.MethodPost, "/_sim/reset", nil)
}

// requests returns the counters: user -> /v1 path -> calls, refused ones
// included (the stand-in counts a call before it checks the quota).
func (s *standIn) requests(ctx context.Context) (map[string]map[string]int, error) {
	var all map[string]map[string]int
	return all, s.hook(ctx, http.MethodGet, "/_sim/requests", &all)
}

func (s *standIn) hook(ctx context.Context, method, path string, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, nil)
	if err != nil {
		return err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("loadtest: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("loadtest: %s %s: status %d: %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if into != nil {
		return json.Unmarshal(data, into)
	}
	return nil
}

// login signs in to the service itself and returns the session key.
func (s *standIn) login(ctx context.Context, user string) (string, error) {
	form := url.Values{"Username": {user}, "Password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/v1/Users/Login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("loadtest: service sign-in: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Success bool
		Data    struct{ SessionKey string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || !env.Success || env.Data.SessionKey == "" {
		return "", fmt.Errorf("loadtest: service sign-in as %s: status %d (%v)", user, resp.StatusCode, err)
	}
	return env.Data.SessionKey, nil
}

// callsOf sums the counters of the users for which keep is true.
func callsOf(counts map[string]map[string]int, keep func(user string) bool) (total int, byPath map[string]int) {
	byPath = map[string]int{}
	for user, paths := range counts {
		if !keep(user) {
			continue
		}
		for p, n := range paths {
			total += n
			byPath[p] += n
		}
	}
	return total, byPath
}
