package browsertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
)

func TestScoreHeatMapIsDrawn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/scores")
	checkChartsDrawn(t, b, 1)
	if n := Eval[int](b, `document.querySelectorAll('table.heat tbody tr').length`); n != 25 {
		t.Errorf("the heat map table has %d rows, want 25", n)
	}
	// The visual map's zones colour the cells: the canvas holds the zone
	// colours of app.css, not only greys.
	// (A heat map with many cells may draw them on a layer canvas of its own.)
	zones := Eval[int](b, `(() => {
		const want = [[0xb3,0x26,0x1e],[0xe0,0x66,0x2b],[0xd9,0xa3,0x1c],[0x6f,0x9d,0x3a],[0x2e,0x7d,0x4f]];
		const seen = new Set();
		document.querySelectorAll('#score-heatmap canvas').forEach((c) => {
			const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
			for (let i = 0; i < d.length; i += 4) {
				if (d[i+3] < 250) continue;
				want.forEach((w, k) => { if (Math.abs(d[i]-w[0]) < 6 && Math.abs(d[i+1]-w[1]) < 6 && Math.abs(d[i+2]-w[2]) < 6) seen.add(k); });
			}
		});
		return seen.size;
	})()`)
	if zones < 3 {
		t.Errorf("the heat map shows %d of the 5 zone colours; want at least 3", zones)
	}

	if status := b.ClickNavigate(`nav.pager a[href*="page=2"]`); status != http.StatusOK {
		t.Fatalf("next page: status %d", status)
	}
	checkChartsDrawn(t, b, 1)
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// directDownload is the stand-in's own Download as demo.
func directDownload(t *testing.T, app *apptest.App, dq upstream.DownloadQuery) []byte {
	t.Helper()
	key := app.SignIn(t, "demo").SessionKey()
	dl, err := app.Client.As(key).Download(context.Background(), dq)
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Body.Close()
	data, err := io.ReadAll(dl.Body)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestExportButtonDownloadsTheServiceFile(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio")
	day := time.Now().UTC().Format("2006-01-02")

	f := b.Download(func() { b.Click(`button[data-export="csv"]`) })
	want := directDownload(t, app, upstream.DownloadQuery{Format: "csv"})
	if !bytes.Equal(f.Data, want) {
		t.Errorf("downloaded %s; the service's file is %d bytes and differs", f, len(want))
	}
	if f.Name != "portfolio-all-"+day+".csv" {
		t.Errorf("file name %q, want portfolio-all-%s.csv", f.Name, day)
	}

	// A folder's export in the Scores layout as JSON.
	folder := 0
	for _, u := range apptest.DemoData().Users {
		if u.Username == "demo" {
			folder = u.Folders[0].FolderID
		}
	}
	if status := b.Navigate(app.URL + "/portfolio/folders/" + strconv.Itoa(folder)); status != http.StatusOK {
		t.Fatalf("folder page: status %d", status)
	}
	Eval[bool](b, `(() => { document.querySelector('select[name="layout"]').value = 'Scores'; return true; })()`)
	f = b.Download(func() { b.Click(`button[data-export="json"]`) })
	want = directDownload(t, app, upstream.DownloadQuery{Format: "json", FolderID: folder, Layout: "Scores"})
	if !bytes.Equal(f.Data, want) {
		t.Errorf("downloaded %s; the service's file is %d bytes and differs", f, len(want))
	}
	if !strings.HasPrefix(f.Name, "portfolio-retail-watchlist-") || !strings.HasSuffix(f.Name, ".json") {
		t.Errorf("file name %q", f.Name)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

func TestTradeProviderChoiceOpensCustomerPages(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login")
	if status := signIn(t, b, "trade"); status != http.StatusOK {
		t.Fatalf("sign in as trade: status %d", status)
	}

	status := b.Navigate(app.URL + "/customers/C1-1001")
	if status != http.StatusConflict || !strings.Contains(b.Text("h1"), "trade provider") {
		t.Fatalf("/customers/C1-1001 before choosing: status %d, title %q; want the 409 explanation", status, b.Text("h1"))
	}
	if status := b.ClickNavigate(`main a[href^="/settings/trade-provider"]`); status != http.StatusOK {
		t.Fatalf("following the 409 page's link: status %d", status)
	}
	b.Click(`input[name="provider"][value="TP-1"]`)
	// Choosing goes back to the customer page that asked (issue 31).
	if status := b.ClickNavigate(`form.trade-form button[type="submit"]`); status != http.StatusOK {
		t.Fatalf("choosing TP-1: landing status %d", status)
	}
	if got := b.URL(); got != app.URL+"/customers/C1-1001" {
		t.Errorf("after choosing: URL %q, want the customer page", got)
	}
	if status := b.Navigate(app.URL + "/customers/C1-1001"); status != http.StatusOK {
		t.Fatalf("/customers/C1-1001 after choosing TP-1: status %d (%s)", status, b.Text("h1"))
	}
	if name := apptest.DemoData().Businesses[0].Name; !strings.Contains(b.Text("h1"), name) {
		t.Errorf("/customers/C1-1001 shows %q, want %q", b.Text("h1"), name)
	}
	// The browser logs the 409 document itself as a failed resource; any
	// other error counts.
	for _, m := range b.Console() {
		if isError(m) && !(m.Source == "network" && strings.HasSuffix(m.URL, "/customers/C1-1001") && strings.Contains(m.Text, "409")) {
			t.Errorf("browser console: %s", describe(m))
		}
	}
	b.NoCSPViolations(t)
}
