package handlers_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// exportDay is the dashboard's clock in the export tests, for file names.
var exportDay = time.Date(2026, time.November, 21, 10, 0, 0, 0, time.UTC)

// rawGet requests path as u without reading the body.
func rawGet(t testing.TB, app *apptest.App, u *apptest.User, path string, header http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, app.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := u.Client().Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp
}

// serviceBytes is the stand-in's own Download for the same request.
func serviceBytes(t *testing.T, app *apptest.App, key string, dq upstream.DownloadQuery) []byte {
	t.Helper()
	dl, err := app.Client.As(key).Download(context.Background(), dq)
	if err != nil {
		t.Fatalf("direct Download %+v: %v", dq, err)
	}
	defer dl.Body.Close()
	b, err := io.ReadAll(dl.Body)
	if err != nil {
		t.Fatalf("direct Download %+v: %v", dq, err)
	}
	return b
}

func TestExportEqualsTheServiceDownload(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: func() time.Time { return exportDay }})
	u := app.SignIn(t, "demo")
	key := u.SessionKey()
	folder := demoUser(t, "demo").Folders[0] // "Retail watchlist"
	types := map[string]string{"csv": "text/csv; charset=utf-8", "xml": "application/xml; charset=utf-8", "json": "application/json; charset=utf-8"}
	for _, format := range []string{"csv", "xml", "json"} {
		for _, folderID := range []int{0, folder.FolderID} {
			for _, layout := range []string{"", "Standard", "Scores", "scores"} {
				q := url.Values{"format": {format}}
				if folderID > 0 {
					q.Set("folder", strconv.Itoa(folderID))
				}
				if layout != "" {
					q.Set("layout", layout)
				}
				path := "/portfolio/export?" + q.Encode()
				resp := rawGet(t, app, u, path, http.Header{"Accept-Encoding": {"gzip"}})
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					t.Errorf("GET %s: status %d, err %v", path, resp.StatusCode, err)
					continue
				}
				want := serviceBytes(t, app, key, upstream.DownloadQuery{Format: format, FolderID: folderID, Layout: layout})
				if len(want) < 100 || !bytes.Equal(got, want) {
					t.Errorf("GET %s: %d bytes differ from the service's %d", path, len(got), len(want))
				}
				if ct := resp.Header.Get("Content-Type"); ct != types[format] {
					t.Errorf("GET %s: Content-Type %q, want %q", path, ct, types[format])
				}
				if ce := resp.Header.Get("Content-Encoding"); ce != "" {
					t.Errorf("GET %s: Content-Encoding %q: the download must not be compressed", path, ce)
				}
				disp, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition"))
				name := "portfolio-all-2026-11-21." + format
				if folderID > 0 {
					name = "portfolio-retail-watchlist-2026-11-21." + format
				}
				if err != nil || disp != "attachment" || params["filename"] != name {
					t.Errorf("GET %s: Content-Disposition %q, want attachment; filename=%q", path, resp.Header.Get("Content-Disposition"), name)
				}
			}
		}
	}
}

func TestExportFileNameOfAnOddFolderName(t *testing.T) {
	base := apptest.DemoData()
	data := *base
	data.Users = append([]simulator.User(nil), base.Users...)
	var folderID int
	for i := range data.Users {
		if data.Users[i].Username == "demo" {
			data.Users[i].Folders = append([]simulator.Folder(nil), base.Users[i].Folders...)
			data.Users[i].Folders[0].FolderName = "Café Zürich \"/../\r\n<b>x</b>"
			folderID = data.Users[i].Folders[0].FolderID
		}
	}
	app := apptest.Start(t, apptest.Options{Data: &data, Now: func() time.Time { return exportDay }})
	u := app.SignIn(t, "demo")
	p := u.Get("/portfolio/export?format=xml&folder=" + strconv.Itoa(folderID))
	mustStatus(t, "export", p, http.StatusOK)
	disp := p.Header.Get("Content-Disposition")
	want := `attachment; filename=portfolio-caf-z-rich-b-x-b-2026-11-21.xml; filename*=utf-8''portfolio-caf%C3%A9-z%C3%BCrich-b-x-b-2026-11-21.xml`
	if disp != want {
		t.Errorf("Content-Disposition\n got %s\nwant %s", disp, want)
	}
	// Read back as a browser would, the Unicode name wins.
	if _, params, err := mime.ParseMediaType(disp); err != nil || params["filename"] != "portfolio-café-zürich-b-x-b-2026-11-21.xml" {
		t.Errorf("Content-Disposition reads back as %v, %v", params, err)
	}
	fp := u.Get("/portfolio/folders/" + strconv.Itoa(folderID))
	if h1 := fp.Text("h1"); !strings.Contains(h1, "<b>x</b>") || fp.Doc.Find("h1 b").Length() != 0 {
		t.Errorf("the folder name is not shown as text: %q", h1)
	}
}

func TestExportRefusesBadInput(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		query  string
		status int
		says   string
	}{
		{"format=xlsx", http.StatusBadRequest, "csv, xml or json"},
		{"format=csv&folder=abc", http.StatusBadRequest, "folder id"},
		{"format=csv&folder=0", http.StatusBadRequest, "folder id"},
		{"format=csv&folder=-5", http.StatusBadRequest, "folder id"},
		{"format=csv&layout=a+b", http.StatusBadRequest, "layout name"},
		{"format=csv&layout=" + strings.Repeat("x", 65), http.StatusBadRequest, "layout name"},
		{"format=csv&layout=Nope", http.StatusBadRequest, "Standard or Scores"}, // the service's own message
		{"format=csv&folder=999", http.StatusNotFound, "no such business or folder"},
	}
	for _, c := range cases {
		p := u.Get("/portfolio/export?" + c.query)
		if p.Status != c.status || !strings.Contains(p.Text("main"), c.says) {
			t.Errorf("GET /portfolio/export?%s: status %d saying %q; want %d saying %q", c.query, p.Status, p.Text("main"), c.status, c.says)
		}
		if ct := p.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") || p.Header.Get("Content-Disposition") != "" {
			t.Errorf("GET /portfolio/export?%s: an error must be a page, got %q %q", c.query, ct, p.Header.Get("Content-Disposition"))
		}
	}
	// No format means CSV, as the service's default.
	if p := u.Get("/portfolio/export"); p.Status != http.StatusOK || !strings.HasPrefix(p.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("GET /portfolio/export: status %d type %q, want CSV", p.Status, p.Header.Get("Content-Type"))
	}
}

func TestExportServiceErrorBeforeTheFirstByteIsAPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/Download"}})
	p := u.Get("/portfolio/export?format=csv")
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text("h1"), "not answering") {
		t.Errorf("status %d title %q, want the 502 page", p.Status, p.Text("h1"))
	}
	if href, _ := p.Doc.Find(`a.button`).Attr("href"); href != "/portfolio/export?format=csv" {
		t.Errorf("retry link %q", href)
	}
}

func TestExportFailingMidStreamAbortsTheResponse(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{Bulk: 5000}})
	u := app.SignIn(t, "bulk")
	app.Sim.SetFaults(simulator.Faults{DownloadFailAfter: 100_000})
	resp := rawGet(t, app, u, "/portfolio/export?format=csv", nil)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: the failure comes after the first byte", resp.StatusCode)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil {
		t.Fatalf("the body ended cleanly after %d bytes; a cut download must end with an error", n)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) && !strings.Contains(err.Error(), "connection reset") {
		t.Logf("body error: %v", err) // any error will do; these two are the usual ones
	}
	// How much of the 100000 bytes the service sent gets through before
	// the cut depends on socket buffers; none beyond it may.
	if n == 0 || n > 100_000 {
		t.Errorf("got %d bytes before the cut, want some of the 100000 the service sent and no more", n)
	}
	deadline := time.Now().Add(2 * time.Second)
	for !app.Logs.Contains("export aborted mid-stream") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !app.Logs.Contains("export aborted mid-stream") {
		t.Error("the aborted export was not logged")
	}
	// The session and the dashboard are fine afterwards.
	app.Sim.SetFaults(simulator.Faults{})
	if p := u.Get("/portfolio"); p.Status != http.StatusOK {
		t.Errorf("after an aborted export /portfolio answers %d", p.Status)
	}
}

// heapPeak samples the live heap while f runs and returns the largest
// growth over the heap before it. A low GC percentage keeps garbage from
// hiding what is really held.
func heapPeak(f func()) (peak uint64) {
	old := debug.SetGCPercent(10)
	defer debug.SetGCPercent(old)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var max atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		var s runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&s)
				if s.HeapAlloc > base && s.HeapAlloc-base > max.Load() {
					max.Store(s.HeapAlloc - base)
				}
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return max.Load()
}

func TestExportOfABulkPortfolioStreamsInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200,000 rows twice")
	}
	const rows = 200_000
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{Bulk: rows}, Timeout: 30 * time.Second})
	u := app.SignIn(t, "bulk")
	var got [sha256.Size]byte
	var n int64
	peak := heapPeak(func() {
		resp := rawGet(t, app, u, "/portfolio/export?format=csv", nil)
		defer resp.Body.Close()
		h := sha256.New()
		var err error
		if n, err = io.Copy(h, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("bulk export: status %d after %d bytes: %v", resp.StatusCode, n, err)
		}
		copy(got[:], h.Sum(nil))
	})
	dl, err := app.Client.As(u.SessionKey()).Download(context.Background(), upstream.DownloadQuery{Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Body.Close()
	h := sha256.New()
	wantN, err := io.Copy(h, dl.Body)
	if err != nil {
		t.Fatal(err)
	}
	if n != wantN || !bytes.Equal(got[:], h.Sum(nil)) {
		t.Errorf("bulk export: %d bytes, service %d; contents differ", n, wantN)
	}
	t.Logf("bulk export of %d rows: %.1f MB, peak heap growth %.1f MB", rows, float64(n)/1e6, float64(peak)/1e6)
	// Held whole, the file alone would add its size to the heap; streamed,
	// the growth is buffers plus the garbage the GC has not yet collected.
	if limit := uint64(n) / 2; peak > limit {
		t.Errorf("peak heap growth %.1f MB for a %.1f MB export: the download is being held in memory",
			float64(peak)/1e6, float64(n)/1e6)
	}
}

// BenchmarkExportBulk streams a million-row export through the dashboard
// and reports the peak heap growth while it runs: flat memory means a few
// megabytes whatever the size of the file.
//
//	go test ./internal/handlers/ -run '^$' -bench ExportBulk -benchtime 1x
func BenchmarkExportBulk(b *testing.B) {
	const rows = 1_000_000
	app := apptest.Start(b, apptest.Options{Sim: simulator.Options{Bulk: rows}, Timeout: time.Minute})
	u := app.SignIn(b, "bulk")
	var peak uint64
	var n int64
	for b.Loop() {
		p := heapPeak(func() {
			resp := rawGet(b, app, u, "/portfolio/export?format=csv", nil)
			defer resp.Body.Close()
			var err error
			if n, err = io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("bulk export: status %d after %d bytes: %v", resp.StatusCode, n, err)
			}
		})
		peak = max(peak, p)
	}
	b.SetBytes(n)
	b.ReportMetric(float64(n)/1e6, "file-MB")
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}
