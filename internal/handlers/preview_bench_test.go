package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"creditdash/internal/apptest"
)

// BenchmarkAccountsPreview50k is the import page's preview of a
// 50,000-row CSV, served inside the process so that -benchmem counts the
// server's allocations alone: on an empty team, on a team that already
// holds the same 50,000 accounts, and there as make loadtest's figure 7
// floods it (wave6: the flooder imports the ledger, then sends it six at
// a time, again as soon as all six are answered; one is previewed, the
// others told to wait). Nothing is asserted but the answers' statuses.
func BenchmarkAccountsPreview50k(b *testing.B) {
	for _, tc := range []struct {
		name   string
		seeded bool
		atOnce int
	}{{"empty", false, 1}, {"team50k", true, 1}, {"team50k-wave6", true, 6}} {
		b.Run(tc.name, func(b *testing.B) {
			app := apptest.Start(b, apptest.Options{})
			u := app.SignIn(b, "demo")
			data := ledgerOf(benchAccounts, 1)
			fields := url.Values{"_csrf": {u.Token("/accounts/import")}, "as_of": {"2026-09-30"}}
			if tc.seeded {
				p := u.PostMultipart("/accounts/import", fields, "file", "aging.csv", data)
				if p.Status != http.StatusOK {
					b.Fatalf("preview: %d %.300s", p.Status, p.Text("main"))
				}
				if r := u.Submit(p, "form.import-confirm"); r.Status != http.StatusSeeOther {
					b.Fatalf("import: %d %.300s", r.Status, r.Text("main"))
				}
			}
			var body bytes.Buffer
			w := multipart.NewWriter(&body)
			for k, vs := range fields {
				_ = w.WriteField(k, vs[0])
			}
			fw, _ := w.CreateFormFile("file", "aging.csv")
			_, _ = fw.Write(data)
			_ = w.Close()
			cookies := u.Cookies()
			send := func() int {
				req := httptest.NewRequest(http.MethodPost, "/accounts/import", bytes.NewReader(body.Bytes()))
				req.Header.Set("Content-Type", w.FormDataContentType())
				for _, c := range cookies {
					req.AddCookie(c)
				}
				d := &discard{header: http.Header{}}
				app.Handler.ServeHTTP(d, req)
				return d.status
			}
			b.ReportAllocs()
			for b.Loop() {
				statuses := make([]int, tc.atOnce)
				var wg sync.WaitGroup
				for i := range statuses {
					wg.Go(func() { statuses[i] = send() })
				}
				wg.Wait()
				previewed := 0
				for _, s := range statuses {
					switch s {
					case http.StatusOK:
						previewed++
					case http.StatusTooManyRequests:
					default:
						b.Fatalf("preview: status %d", s)
					}
				}
				if previewed == 0 {
					b.Fatal("no upload of the wave was previewed")
				}
			}
		})
	}
}
