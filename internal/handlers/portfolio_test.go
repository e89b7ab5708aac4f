package handlers_test

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
)

// portfolioUsers are the demo users every portfolio page is tried with.
var portfolioUsers = []string{"demo", "ordinary", "developer", "trade"}

// demoUser returns the dataset's account of name.
func demoUser(t *testing.T, name string) simulator.User {
	t.Helper()
	for _, u := range apptest.DemoData().Users {
		if u.Username == name {
			return u
		}
	}
	t.Fatalf("no user %s in the demo data", name)
	return simulator.User{}
}

// distinctBusinesses counts the businesses of a user's portfolio once each.
func distinctBusinesses(u simulator.User) int {
	seen := map[int32]bool{}
	for _, f := range u.Folders {
		for _, id := range f.BusinessIDs {
			seen[id] = true
		}
	}
	return len(seen)
}

// folderOf returns the first folder of u holding business id.
func folderOf(t *testing.T, u simulator.User, id int32) simulator.Folder {
	t.Helper()
	for _, f := range u.Folders {
		if slices.Contains(f.BusinessIDs, id) {
			return f
		}
	}
	t.Fatalf("no folder of %s holds %d", u.Username, id)
	return simulator.Folder{}
}

// mustStatus fails unless the page has the status.
func mustStatus(t *testing.T, what string, p *apptest.Page, want int) {
	t.Helper()
	if p.Status != want {
		t.Fatalf("GET %s: status = %d, want %d; page says %q", what, p.Status, want, p.Text("main"))
	}
}

// noProblems fails if any section of the page shows a problem.
func noProblems(t *testing.T, what string, p *apptest.Page) {
	t.Helper()
	if box := p.Doc.Find(".problem"); box.Length() > 0 {
		t.Errorf("GET %s: problem shown: %q", what, strings.Join(strings.Fields(box.Text()), " "))
	}
}

func TestPortfolioPagesForEveryUser(t *testing.T) {
	for _, name := range portfolioUsers {
		t.Run(name, func(t *testing.T) {
			acct := demoUser(t, name)
			// ordinary may make 10 calls an hour: a fresh stand-in per page.
			var shared *apptest.User
			user := func() *apptest.User {
				if name == "ordinary" || shared == nil {
					u := apptest.Start(t, apptest.Options{}).SignIn(t, name)
					if name != "ordinary" {
						shared = u
					}
					return u
				}
				return shared
			}
			first := acct.Folders[0]

			home := user().Get("/")
			mustStatus(t, "/", home, http.StatusOK)
			if name == "ordinary" {
				// A short budget: the home page spends two requests and
				// offers the rest (issue 31).
				if n := home.Doc.Find(".problem:not(.deferred)").Length(); n != 0 {
					t.Errorf("GET / as ordinary: %d problems besides sections offered", n)
				}
			} else {
				noProblems(t, "/", home)
			}
			if n := home.Doc.Find(`#home-folders-title ~ .table-wrap tbody tr`).Length(); n != len(acct.Folders) {
				t.Errorf("home lists %d folders, want %d", n, len(acct.Folders))
			}
			if n := home.Doc.Find(".news li").Length(); n == 0 || n > views.HomeHeadlines {
				t.Errorf("home shows %d headlines, want 1 to %d", n, views.HomeHeadlines)
			}
			if home.Doc.Find("#lookup-value").Length() != 1 {
				t.Error("home lost the business lookup")
			}

			pf := user().Get("/portfolio")
			mustStatus(t, "/portfolio", pf, http.StatusOK)
			noProblems(t, "/portfolio", pf)
			checkFolderTable(t, pf, acct)
			if n := pf.Doc.Find(`form[action="/portfolio/export"] button[name="format"]`).Length(); n != 3 {
				t.Errorf("/portfolio has %d export buttons, want 3", n)
			}

			path := "/portfolio/folders/" + strconv.Itoa(first.FolderID)
			fp := user().Get(path)
			mustStatus(t, path, fp, http.StatusOK)
			noProblems(t, path, fp)
			if got := fp.Text("h1"); got != first.FolderName {
				t.Errorf("%s: title %q, want %q", path, got, first.FolderName)
			}
			checkFolderBusinesses(t, fp, first)
			checkNewsNewestFirst(t, path, fp)
			if v, _ := fp.Doc.Find(`form[action="/portfolio/export"] input[name="folder"]`).Attr("value"); v != strconv.Itoa(first.FolderID) {
				t.Errorf("%s: export form is for folder %q", path, v)
			}

			for _, score := range []string{"pay", "z"} {
				sp := user().Get("/portfolio/scores?score=" + score)
				mustStatus(t, "scores "+score, sp, http.StatusOK)
				noProblems(t, "scores "+score, sp)
				total := distinctBusinesses(acct)
				if rows := sp.Doc.Find("table.heat tbody tr").Length(); rows != min(total, 25) {
					t.Errorf("%s scores: %d rows, want %d", score, rows, min(total, 25))
				}
				if want := "rows 1–" + strconv.Itoa(min(total, 25)) + " of " + strconv.Itoa(total); !strings.Contains(sp.Text(".pager"), want) {
					t.Errorf("%s scores: pager says %q, want %q", score, sp.Text(".pager"), want)
				}
				if sp.Doc.Find(`[data-chart]`).Length() != 1 {
					t.Errorf("%s scores: no heat map chart", score)
				}
			}

			ex := user().Get("/portfolio/export?format=csv")
			mustStatus(t, "/portfolio/export", ex, http.StatusOK)
			if !strings.HasPrefix(ex.Header.Get("Content-Type"), "text/csv") || !strings.HasPrefix(ex.Body, "BusinessId,") ||
				!strings.Contains(ex.Header.Get("Content-Disposition"), `filename=portfolio-all-`) {
				t.Errorf("export: type %q disposition %q body %.40q", ex.Header.Get("Content-Type"), ex.Header.Get("Content-Disposition"), ex.Body)
			}

			np := user().Get("/news/industry")
			mustStatus(t, "/news/industry", np, http.StatusOK)
			noProblems(t, "/news/industry", np)
			if n := np.Doc.Find(".news li").Length(); n == 0 || n > 20 {
				t.Errorf("/news/industry shows %d stories, want 1 to 20", n)
			}
			checkNewsNewestFirst(t, "/news/industry", np)

			tp := user().Get("/settings/trade-provider")
			mustStatus(t, "/settings/trade-provider", tp, http.StatusOK)
			radios := tp.Doc.Find(`input[type="radio"][name="provider"]`).Length()
			if radios != len(acct.TradeProviders) {
				t.Errorf("trade page offers %d providers, want %d", radios, len(acct.TradeProviders))
			}
			if len(acct.TradeProviders) == 0 && !strings.Contains(tp.Text(".no-providers"), "no trade providers") {
				t.Errorf("an account without providers is told %q", tp.Text("main"))
			}
		})
	}
}

// checkFolderTable compares /portfolio's table with the account's folders.
func checkFolderTable(t *testing.T, p *apptest.Page, acct simulator.User) {
	t.Helper()
	rows := p.Doc.Find("table.folders tbody tr")
	if rows.Length() != len(acct.Folders) {
		t.Fatalf("/portfolio lists %d folders, want %d", rows.Length(), len(acct.Folders))
	}
	rows.Each(func(i int, tr *goquery.Selection) {
		f := acct.Folders[i]
		a := tr.Find("th a")
		if href, _ := a.Attr("href"); href != "/portfolio/folders/"+strconv.Itoa(f.FolderID) || a.Text() != f.FolderName {
			t.Errorf("folder %d links %q as %q", f.FolderID, href, a.Text())
		}
		if got, want := strings.TrimSpace(tr.Find("td.num").Text()), strconv.Itoa(len(f.BusinessIDs)); got != want {
			t.Errorf("folder %d counts %q businesses, want %s", f.FolderID, got, want)
		}
		created, _ := tr.Find("td time").First().Attr("datetime")
		if !strings.HasPrefix(f.DateCreated, created) || created == "" {
			t.Errorf("folder %d created %q, want the date of %s", f.FolderID, created, f.DateCreated)
		}
	})
}

// checkFolderBusinesses compares a folder page's list with the folder.
func checkFolderBusinesses(t *testing.T, p *apptest.Page, f simulator.Folder) {
	t.Helper()
	var got []string
	p.Doc.Find("table.triage tbody th a").Each(func(_ int, a *goquery.Selection) {
		href, _ := a.Attr("href")
		got = append(got, href)
	})
	var want []string
	for _, id := range f.BusinessIDs {
		want = append(want, "/businesses/"+strconv.Itoa(int(id)))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, slices.Compact(want)) {
		t.Errorf("folder %d lists %v, want %v", f.FolderID, got, want)
	}
}

// checkNewsNewestFirst checks the datetime of every story and their order.
func checkNewsNewestFirst(t *testing.T, what string, p *apptest.Page) {
	t.Helper()
	var prev time.Time
	p.Doc.Find(".news li").Each(func(i int, li *goquery.Selection) {
		dt, ok := li.Find(".when time").Attr("datetime")
		at, err := time.Parse(time.RFC3339, dt)
		if !ok || err != nil {
			t.Errorf("%s: story %d has datetime %q", what, i, dt)
			return
		}
		if i > 0 && at.After(prev) {
			t.Errorf("%s: story %d (%s) is newer than the one before (%s)", what, i, at, prev)
		}
		if !strings.Contains(li.Find(".when").Text(), "ago") && !strings.Contains(li.Find(".when").Text(), "yesterday") {
			t.Errorf("%s: story %d gives no relative date: %q", what, i, li.Find(".when").Text())
		}
		prev = at
		a := li.Find(".title a")
		if a.Length() == 1 {
			target, _ := a.Attr("target")
			rel, _ := a.Attr("rel")
			if target != "_blank" || rel != "noopener noreferrer" {
				t.Errorf("%s: story %d opens with target %q rel %q", what, i, target, rel)
			}
		}
	})
}

func TestFolderPageRefusesBadAndUnknownFolders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/portfolio/folders/abc", http.StatusBadRequest},
		{"/portfolio/folders/-1", http.StatusBadRequest},
		{"/portfolio/folders/0", http.StatusBadRequest},
		{"/portfolio/folders/99999999999", http.StatusBadRequest},
		{"/portfolio/folders/1%2F2", http.StatusBadRequest},
		{"/portfolio/folders/999", http.StatusNotFound},
		{"/portfolio/folders/201", http.StatusNotFound}, // ordinary's folder, not demo's
	} {
		p := u.Get(c.path)
		if p.Status != c.status {
			t.Errorf("GET %s: status %d, want %d", c.path, p.Status, c.status)
		}
		if c.status == http.StatusNotFound && !strings.Contains(p.Text("h1"), "Not found") {
			t.Errorf("GET %s: title %q, want the 404 page", c.path, p.Text("h1"))
		}
		if p.Text("header .user") != "demo" {
			t.Errorf("GET %s: the error page lost the signed-in header", c.path)
		}
	}
}

func TestPortfolioSectionsFailOnTheirOwn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "demo")
	acct := demoUser(t, "demo")

	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/Businesses"}})
	p := u.Get("/portfolio")
	mustStatus(t, "/portfolio with member listing failing", p, http.StatusOK)
	if p.Doc.Find("table.folders tbody tr").Length() != len(acct.Folders) || p.Doc.Find("table.folders td.num").Length() != 0 {
		t.Errorf("folders must show without counts when the listing fails")
	}
	if !strings.Contains(p.Text(".problem"), "not answering") {
		t.Errorf("the counts' failure is not told: %q", p.Text(".problem"))
	}
	fp := u.Get("/portfolio/folders/" + strconv.Itoa(acct.Folders[0].FolderID))
	mustStatus(t, "folder with member listing failing", fp, http.StatusOK)
	if fp.Doc.Find(".news li").Length() == 0 || fp.Doc.Find("#folder-businesses-title ~ .problem").Length() != 1 {
		t.Errorf("the folder's news must show and its businesses section tell of the failure")
	}

	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Industries/News", "/v1/Portfolio/ZScoreHistory"}})
	home := u.Get("/")
	mustStatus(t, "home with news and Z failing", home, http.StatusOK)
	if home.Doc.Find("#headlines-title ~ .problem").Length() != 1 || home.Doc.Find("#moves-title ~ .problem").Length() != 1 {
		t.Errorf("headlines and moves must each show their problem")
	}
	if home.Doc.Find("table.moves tbody tr").Length() == 0 {
		t.Errorf("Pay moves must still show when only the Z-Scores fail")
	}
	if home.Doc.Find("#home-folders-title ~ .table-wrap tbody tr").Length() != len(acct.Folders) {
		t.Errorf("folders must still show")
	}

	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/Folders"}})
	if p := u.Get("/portfolio"); p.Status != http.StatusOK || !strings.Contains(p.Text(".problem"), "not answering") {
		t.Errorf("/portfolio with folders failing: status %d, problem %q", p.Status, p.Text(".problem"))
	}
}

// TestPortfolioBusinessesNotOffered: a service without Portfolio/Businesses
// (404) hides the counts and the folder's business list, without an error.
func TestPortfolioBusinessesNotOffered(t *testing.T) {
	var asked atomic.Int32
	app := apptest.Start(t, apptest.Options{StandIn: withoutMembers(&asked)})
	u := app.SignIn(t, "demo")
	p := u.Get("/portfolio")
	mustStatus(t, "/portfolio", p, http.StatusOK)
	noProblems(t, "/portfolio", p)
	if p.Doc.Find("table.folders th.num").Length() != 0 {
		t.Error("counts shown although the service does not list members")
	}
	fp := u.Get("/portfolio/folders/" + strconv.Itoa(demoUser(t, "demo").Folders[0].FolderID))
	mustStatus(t, "folder", fp, http.StatusOK)
	noProblems(t, "folder", fp)
	if fp.Doc.Find("#folder-businesses-title").Length() != 0 {
		t.Error("the businesses section shows although the service does not list members")
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("Portfolio/Businesses asked %d times for one user, want 1 (then remembered)", n)
	}
}

// withoutMembers is the client of a service that lacks Portfolio/Businesses.
func withoutMembers(asked *atomic.Int32) func(http.Handler) http.Handler {
	return intercept("/v1/Portfolio/Businesses", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		asked.Add(1)
		serviceAnswer(w, http.StatusNotFound, "NotFound", "no such operation")
	})
}

func TestPortfolioPagesCarrySecurityHeaders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	folder := "/portfolio/folders/" + strconv.Itoa(demoUser(t, "demo").Folders[0].FolderID)
	for _, path := range []string{"/", "/portfolio", folder, "/portfolio/scores", "/portfolio/scores?page=99", "/portfolio/scores?size=7",
		"/news/industry", "/settings/trade-provider", "/portfolio/folders/abc", "/portfolio/export?format=nope"} {
		checkSecurityHeaders(t, path, u.Get(path), true)
	}
	// The download is no page, but carries the same headers.
	checkSecurityHeaders(t, "export", u.Get("/portfolio/export?format=json"), false)
	if p := u.Get("/portfolio/export?format=json"); p.Header.Get("Cache-Control") != "no-store" || p.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("export: Cache-Control %q, nosniff %q", p.Header.Get("Cache-Control"), p.Header.Get("X-Content-Type-Options"))
	}
	// Signed out, every page sends to sign-in and back.
	anon := app.NewUser(t)
	for _, path := range []string{"/portfolio", folder, "/portfolio/scores?score=z", "/portfolio/export?format=csv", "/news/industry", "/settings/trade-provider"} {
		p := anon.Get(path)
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login?next=") {
			t.Errorf("GET %s signed out: status %d to %q, want 303 to sign-in", path, p.Status, p.Location())
		}
	}
}

func TestPortfolioPagesSendAnExpiredSessionToSignIn(t *testing.T) {
	clock := newClock(time.Now())
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{SessionTTL: time.Hour, Now: clock.Now}})
	folder := "/portfolio/folders/" + strconv.Itoa(demoUser(t, "demo").Folders[0].FolderID)
	for _, path := range []string{"/", "/portfolio", folder, "/portfolio/scores", "/portfolio/export?format=csv", "/news/industry", "/settings/trade-provider"} {
		u := app.SignIn(t, "demo")
		clock.Advance(61 * time.Minute) // the service's clock: the key has expired
		p := u.Get(path)
		if p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login?") || !strings.Contains(p.Location(), "reason=") {
			t.Errorf("GET %s with the service session expired: status %d to %q, want 303 to sign-in", path, p.Status, p.Location())
		}
	}
}

// TestUnreadableMemberListingIsToldPlainly: a listing the client cannot
// read (the bulk portfolio's is larger than the client's size limit) hides
// the counts and says why, instead of blaming the service.
func TestUnreadableMemberListingIsToldPlainly(t *testing.T) {
	app := apptest.Start(t, apptest.Options{StandIn: unreadableMembers})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/portfolio", "/portfolio/folders/" + strconv.Itoa(demoUser(t, "demo").Folders[0].FolderID)} {
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		if !strings.Contains(p.Text(".problem"), "could not be listed") || strings.Contains(p.Text(".problem"), "not answering") {
			t.Errorf("%s: problem reads %q", path, p.Text(".problem"))
		}
		if p.Doc.Find("table.folders td.num, ul.businesses li").Length() != 0 {
			t.Errorf("%s: counts or businesses shown from an unreadable listing", path)
		}
	}
}

// unreadableMembers is a client whose member listing is too large to read.
var unreadableMembers = intercept("/v1/Portfolio/Businesses", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	serviceAnswer(w, http.StatusOK, "", "not a listing")
})
