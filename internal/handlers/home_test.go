package handlers_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

func TestLookupOpensTheBusinessPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		query, want string
	}{
		{"by=id&value=1001", "/businesses/1001"},
		{"by=id&value=+1001+", "/businesses/1001"},
		{"by=supplier&value=S-1001", "/suppliers/S-1001"},
		{"by=customer&value=C1-1001", "/customers/C1-1001"},
		{"by=customer&value=C%2F1", "/customers/C%2F1"},
	}
	for _, c := range cases {
		p := u.Get("/open?" + c.query)
		if p.Status != http.StatusSeeOther || p.Location() != c.want {
			t.Errorf("GET /open?%s: status %d location %q, want 303 to %s", c.query, p.Status, p.Location(), c.want)
		}
	}
}

func TestLookupRefusesBadInputWithAMessage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, q := range []string{"by=id&value=abc", "by=id&value=-4", "by=id&value=99999999999", "by=id&value=", "by=nope&value=1", "by=supplier&value=a+b"} {
		p := u.Get("/open?" + q)
		if p.Status != http.StatusBadRequest {
			t.Errorf("GET /open?%s: status %d, want 400", q, p.Status)
			continue
		}
		if p.Text(".form-error") == "" {
			t.Errorf("GET /open?%s: no message", q)
		}
	}
	if u.Get("/").Status != http.StatusOK {
		t.Error("bad input lost the session")
	}
}

// A refused lookup is the home page with a message, not a page that says
// the portfolio has no folders and the industry no news.
func TestRefusedLookupKeepsTheHomePage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	home := u.Get("/")
	refused := u.Get("/open?by=id&value=abc")
	if refused.Status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", refused.Status)
	}
	for _, sel := range []string{"#moves-title", "#home-folders-title", "#headlines-title"} {
		sec := "section[aria-labelledby=" + sel[1:] + "]"
		want, got := home.Text(sec), refused.Text(sec)
		if want == "" || got != want {
			t.Errorf("%s: got %q, want the home page's %q", sec, got, want)
		}
	}
	if v, _ := refused.Doc.Find("#lookup-value").Attr("value"); v != "abc" {
		t.Errorf("lookup value = %q, want what was typed", v)
	}
}

func TestSearchListsBusinessesLinkingToReports(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	name := apptest.DemoData().Businesses[0].Name
	word := strings.Fields(name)[0]
	p := u.Get("/?q=" + word)
	if p.Status != http.StatusOK {
		t.Fatalf("search: status %d", p.Status)
	}
	links := p.Doc.Find(".results a")
	if links.Length() == 0 {
		t.Fatalf("search for %q found nothing", word)
	}
	href, _ := links.First().Attr("href")
	if !strings.HasPrefix(href, "/businesses/") {
		t.Errorf("result links to %q, want /businesses/{id}", href)
	}
	none := u.Get("/?q=zzzzqqqq")
	if !strings.Contains(none.Text(".empty"), "No business matches") {
		t.Errorf("a search without results says %q", none.Text(".card"))
	}
}

func TestSearchFailureShowsInItsSectionWithRetry(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: http.StatusInternalServerError})
	p := u.Get("/?q=North")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d, want 200 with the failure inside the search section", p.Status)
	}
	box := p.Doc.Find(".problem")
	if !strings.Contains(box.Text(), "not answering") {
		t.Errorf("problem box says %q", box.Text())
	}
	if href, _ := box.Find("a").Attr("href"); href != "/?q=North" {
		t.Errorf("retry link = %q, want /?q=North", href)
	}
	if p.Doc.Find("#lookup-value").Length() != 1 {
		t.Errorf("the rest of the page (lookup form) is missing")
	}
}

func TestRateLimitSaysWhenTheQuotaRenews(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	// Each search is new, so none comes from the cache; a typed search is
	// always sent, even with no budget left, and its answer tells.
	var box string
	for i := 0; i < 12 && !strings.Contains(box, "Hourly request limit reached"); i++ {
		p := u.Get(fmt.Sprintf("/?q=North%d", i))
		if p.Status != http.StatusOK {
			t.Fatalf("search %d: status %d, want 200 with the limit told in the search section", i, p.Status)
		}
		box = p.Text("#search-title + form ~ .problem")
	}
	if !strings.Contains(box, "Hourly request limit reached") || !strings.Contains(box, "renews at") {
		t.Fatalf("after 12 searches as ordinary, the search section says %q", box)
	}
	if u.Get("/").Status != http.StatusOK {
		t.Error("a rate limit must not sign the user out")
	}
}

func TestUnknownPageIs404Page(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/no/such/page")
	if p.Status != http.StatusNotFound || p.Text("h1") != "Page not found" {
		t.Errorf("GET /no/such/page: status %d title %q, want 404 Page not found", p.Status, p.Text("h1"))
	}
	if p.Text("header .user") != "demo" {
		t.Errorf("the 404 page lost the signed-in header")
	}
}

func TestStaticAssetsAreHashedAndImmutable(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	login := u.Get("/login")
	href, _ := login.Doc.Find(`link[rel="stylesheet"]`).Attr("href")
	if !regexp.MustCompile(`^/static/css/app\.[0-9a-f]{10}\.css$`).MatchString(href) {
		t.Fatalf("stylesheet URL %q is not content-hashed", href)
	}
	css := u.Get(href)
	if css.Status != http.StatusOK || css.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("GET %s: status %d cache %q", href, css.Status, css.Header.Get("Cache-Control"))
	}
	if !strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") {
		t.Errorf("GET %s: content type %q", href, css.Header.Get("Content-Type"))
	}
	if p := u.Get("/static/css/nope.css"); p.Status != http.StatusNotFound {
		t.Errorf("unknown static file: %d", p.Status)
	}
}

func TestPanicBecomesA500PageAndIsLogged(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Routes: func(e *echo.Echo) {
		e.GET("/boom", func(*echo.Context) error { panic("kaboom") })
	}})
	u := app.NewUser(t)
	p := u.Get("/boom")
	if p.Status != http.StatusInternalServerError || !strings.Contains(p.Text("h1"), "went wrong") {
		t.Errorf("GET /boom: status %d title %q, want the 500 page", p.Status, p.Text("h1"))
	}
	id := p.Header.Get("X-Request-ID")
	if !app.Logs.Contains("kaboom") || id == "" || !app.Logs.Contains("request_id="+id) {
		t.Errorf("the panic was not logged with its request id %q:\n%s", id, app.Logs.String())
	}
}

// A search with more matches than listed says so.
func TestSearchSaysWhenThereAreMore(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/?q=a")
	if n := p.Doc.Find(".results li").Length(); n != 20 || !strings.Contains(p.Text("main"), "More businesses match") {
		t.Errorf("a search matching many: %d listed, note %v; want 20 and a note", n, strings.Contains(p.Text("main"), "More businesses match"))
	}
	if p := u.Get("/?q=Westbridge"); strings.Contains(p.Text("main"), "More businesses match") {
		t.Error("a search matching one says more match")
	}
}
