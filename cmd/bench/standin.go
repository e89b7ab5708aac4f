package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// standIn drives the stand-in service's test hooks and, for the export
// figure, its API directly.
type standIn struct {
	*proc
	http *http.Client
}

// startStandIn runs bin/simulator on a free port with bulk businesses for
// the bulk user (0: none) and waits until it answers.
func startStandIn(ctx context.Context, bin string, bulk int) (*standIn, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args := []string{"-addr", addr}
	if bulk > 0 {
		args = append(args, "-bulk", fmt.Sprint(bulk))
	}
	// Its log has a line per request: kept for a failure report only.
	p, err := start("simulator", bin, args, nil, nil)
	if err != nil {
		return nil, err
	}
	p.url = "http://" + addr
	s := &standIn{proc: p, http: &http.Client{Transport: &http.Transport{
		MaxIdleConnsPerHost: 4,
		// The download is measured in the bytes the service sends.
		DisableCompression: true,
	}}}
	if err := p.waitHTTP(ctx, "/_sim/faults", 30*time.Second); err != nil {
		p.stop()
		return nil, err
	}
	return s, nil
}

// setLatency makes every /v1 answer wait exactly d (no jitter).
func (s *standIn) setLatency(ctx context.Context, d time.Duration) error {
	body := fmt.Sprintf(`{"latency":%q,"jitter":"0s"}`, d.String())
	return s.hook(ctx, http.MethodPost, "/_sim/faults", body, nil)
}

// reset zeroes the request counters (and rate-limit windows).
func (s *standIn) reset(ctx context.Context) error {
	return s.hook(ctx, http.MethodPost, "/_sim/reset", "", nil)
}

// requests returns the counters of one user: /v1 path -> calls.
func (s *standIn) requests(ctx context.Context, user string) (map[string]int, error) {
	var all map[string]map[string]int
	if err := s.hook(ctx, http.MethodGet, "/_sim/requests", "", &all); err != nil {
		return nil, err
	}
	if all[user] == nil {
		return map[string]int{}, nil
	}
	return all[user], nil
}

func (s *standIn) hook(ctx context.Context, method, path, body string, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("bench: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("bench: %s %s: status %d: %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if into != nil {
		return json.Unmarshal(data, into)
	}
	return nil
}

// login signs in to the service itself and returns the session key.
func (s *standIn) login(ctx context.Context, user, password string) (string, error) {
	form := url.Values{"Username": {user}, "Password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url+"/v1/Users/Login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("bench: service sign-in: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Success bool
		Data    json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || !env.Success {
		return "", fmt.Errorf("bench: service sign-in as %s: status %d (%v)", user, resp.StatusCode, err)
	}
	// Data is an object with SessionKey or, from some services, the bare key.
	var obj struct{ SessionKey string }
	if json.Unmarshal(env.Data, &obj) == nil && obj.SessionKey != "" {
		return obj.SessionKey, nil
	}
	var bare string
	if err := json.Unmarshal(env.Data, &bare); err != nil || bare == "" {
		return "", fmt.Errorf("bench: service sign-in as %s: no session key in %s", user, env.Data)
	}
	return bare, nil
}
