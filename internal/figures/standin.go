package figures

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

// StandIn is bin/simulator as a child process, with a client for its test
// hooks and its sign-in.
type StandIn struct {
	*Child
	http *http.Client
}

// StartStandIn runs the stand-in at a free loopback address with extra
// args, its output in logPath, and waits up to ready for it to answer.
func StartStandIn(ctx context.Context, bin, logPath string, args []string, ready time.Duration) (*StandIn, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	c, err := Start("simulator", bin, logPath, append([]string{"-addr", addr}, args...), nil, nil)
	if err != nil {
		return nil, err
	}
	c.URL = "http://" + addr
	s := &StandIn{Child: c, http: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: 4,
		// Downloads are measured in the bytes the service sends.
		DisableCompression: true,
	}}}
	if err := c.WaitHTTP(ctx, "/_sim/faults", ready); err != nil {
		c.Stop()
		return nil, err
	}
	return s, nil
}

// HTTP is the client the stand-in's hooks use, for calls to its API.
func (s *StandIn) HTTP() *http.Client { return s.http }

// SetLatency makes every /v1 answer wait exactly d (no jitter).
func (s *StandIn) SetLatency(ctx context.Context, d time.Duration) error {
	body := fmt.Sprintf(`{"latency":%q,"jitter":"0s"}`, d.String())
	return s.hook(ctx, http.MethodPost, "/_sim/faults", body, nil)
}

// Reset zeroes the request counters and the rate-limit windows, so that
// every user starts with its whole hourly quota.
func (s *StandIn) Reset(ctx context.Context) error {
	return s.hook(ctx, http.MethodPost, "/_sim/reset", "", nil)
}

// Requests returns the counters: user -> /v1 path -> calls, refused ones
// included (the stand-in counts a call before it checks the quota).
func (s *StandIn) Requests(ctx context.Context) (map[string]map[string]int, error) {
	var all map[string]map[string]int
	return all, s.hook(ctx, http.MethodGet, "/_sim/requests", "", &all)
}

func (s *StandIn) hook(ctx context.Context, method, path, body string, into any) error {
	req, err := http.NewRequestWithContext(ctx, method, s.URL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.http.Do(req)
	if err != nil {
		return fmt.Errorf("figures: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("figures: %s %s: status %d: %s", method, path, resp.StatusCode, bytes.TrimSpace(data))
	}
	if into != nil {
		return json.Unmarshal(data, into)
	}
	return nil
}

// Login signs in to the service itself and returns the session key.
func (s *StandIn) Login(ctx context.Context, user, password string) (string, error) {
	form := url.Values{"Username": {user}, "Password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1/Users/Login", strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("figures: service sign-in: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Success bool
		Data    struct{ SessionKey string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || !env.Success || env.Data.SessionKey == "" {
		return "", fmt.Errorf("figures: service sign-in as %s: status %d (%v)", user, resp.StatusCode, err)
	}
	return env.Data.SessionKey, nil
}
