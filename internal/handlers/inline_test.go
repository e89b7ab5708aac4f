package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// The CSP is static (script-src 'self', no inline styles): it holds only
// while no page carries an inline script, a style element or attribute, or
// an event-handler attribute. This test keeps it so, on every page.
func TestNoPageHasInlineScriptStyleOrHandler(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	anon := app.NewUser(t)
	u := app.SignIn(t, "demo")
	trade := app.SignIn(t, "trade")
	pages := []struct {
		user *apptest.User
		path string
	}{
		{anon, "/login"},
		{u, "/"}, {u, "/?q=North"}, {u, "/open?by=id&value=x"},
		{u, "/businesses/1001"}, {u, "/businesses/1001/payments"},
		{u, "/businesses/1001/financials"}, {u, "/businesses/1001/officers"},
		{u, "/businesses/1001?from=2025-01&to=2025-12"}, {u, "/businesses/99999999"},
		{u, "/portfolio"}, {u, "/portfolio/folders/1"}, {u, "/portfolio/scores"},
		{u, "/portfolio/scores?score=z"}, {u, "/news/industry"}, {u, "/no/such/page"},
		{trade, "/settings/trade-provider"}, {trade, "/customers/C1-1001"},
		{u, "/compare?ids=1001,1002,1005"}, {u, "/compare?ids=x"},
		{u, "/portfolio/quadrant"}, {u, "/portfolio/quadrant?folder=x"},
		{u, "/portfolio/stress"},
		{u, "/watchlist"}, {u, "/alerts"}, {u, "/snapshots"}, {u, "/settings/workspace"},
		{u, "/alerts/backtest"}, {u, "/alerts/backtest?scope=portfolio&score=pay&condition=below&threshold=6&months=24"},
		{u, "/settings/workspace?confirm=1"},
	}
	for _, pg := range pages {
		p := pg.user.Get(pg.path)
		if p.Status >= 500 {
			t.Errorf("GET %s: status %d", pg.path, p.Status)
		}
		checkNoInline(t, pg.path, p)
	}
}

func checkNoInline(t *testing.T, path string, p *apptest.Page) {
	t.Helper()
	p.Doc.Find("script").Each(func(_ int, s *goquery.Selection) {
		src, hasSrc := s.Attr("src")
		typ, _ := s.Attr("type")
		switch {
		case hasSrc && strings.HasPrefix(src, "/static/"):
		case !hasSrc && typ == "application/json":
			// Data, never run.
		default:
			t.Errorf("GET %s: script src=%q type=%q would need an inline or foreign source", path, src, typ)
		}
	})
	if n := p.Doc.Find("style, [style]").Length(); n != 0 {
		t.Errorf("GET %s: %d inline styles", path, n)
	}
	p.Doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("GET %s: <%s %s=...> is an inline event handler", path, goquery.NodeName(s), a.Key)
			}
		}
		for _, name := range []string{"href", "action", "formaction", "src"} {
			if v, ok := s.Attr(name); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(v)), "javascript:") {
				t.Errorf("GET %s: %s=%q", path, name, v)
			}
		}
	})
}

// HSTS is sent when cookies are Secure: the dashboard is served over TLS.
func TestHSTSWhenCookiesAreSecure(t *testing.T) {
	app := apptest.Start(t, apptest.Options{CookieSecure: true})
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/healthz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Strict-Transport-Security"); !strings.Contains(got, "max-age=") {
		t.Errorf("Strict-Transport-Security = %q, want a max-age", got)
	}
}
