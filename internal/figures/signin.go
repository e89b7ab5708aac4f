package figures

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// SignIn goes through the dashboard's real form, as a browser does: GET
// /login for the CSRF token, then POST it with the credentials. Success is
// a redirect away from the form. client must keep cookies and must not
// follow redirects.
func SignIn(ctx context.Context, client *http.Client, base, user, password string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/login", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("sign-in: GET /login: %w", err)
	}
	doc, err := goquery.NewDocumentFromReader(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return fmt.Errorf("sign-in: GET /login: status %d (%v), want 200", resp.StatusCode, err)
	}
	token, ok := doc.Find(`form input[name="_csrf"]`).Attr("value")
	if !ok || token == "" {
		return fmt.Errorf("sign-in: GET /login: no _csrf field in the form")
	}
	form := url.Values{"_csrf": {token}, "username": {user}, "password": {password}}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, base+"/login", strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = client.Do(req)
	if err != nil {
		return fmt.Errorf("sign-in: POST /login: %w", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther && resp.StatusCode != http.StatusFound || strings.HasPrefix(loc, "/login") {
		return fmt.Errorf("sign-in: POST /login as %s: status %d (to %q), want a redirect away from the form", user, resp.StatusCode, loc)
	}
	return nil
}
