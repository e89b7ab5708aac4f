package upstream

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Ping checks that the service answers at all. It sends no session key, so
// a refusal (403) still proves the service is up; only a failure to answer
// or a 5xx counts as down. It does not count towards any quota.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint(pathFolders, nil), nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return transportError(ctx, "ping", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode >= 500 {
		return &Error{Op: "ping", Status: resp.StatusCode, Kind: ErrUnavailable, Err: fmt.Errorf("status %d", resp.StatusCode)}
	}
	return nil
}
