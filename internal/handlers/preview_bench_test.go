package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"creditdash/internal/apptest"
)

// BenchmarkAccountsPreview50k is the import page's preview of a
// 50,000-row CSV, served inside the process so that -benchmem counts the
// server's allocations alone: on an empty team, and on a team that already
// holds the same 50,000 accounts (as make loadtest's figure 7 floods it:
// the flooder imports the ledger, then previews it again and again).
// Nothing is asserted but the preview's status.
func BenchmarkAccountsPreview50k(b *testing.B) {
	for _, seeded := range []bool{false, true} {
		name := "empty"
		if seeded {
			name = "team50k"
		}
		b.Run(name, func(b *testing.B) {
			app := apptest.Start(b, apptest.Options{})
			u := app.SignIn(b, "demo")
			data := ledgerOf(benchAccounts, 1)
			fields := url.Values{"_csrf": {u.Token("/accounts/import")}, "as_of": {"2026-09-30"}}
			if seeded {
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
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/accounts/import", bytes.NewReader(body.Bytes()))
				req.Header.Set("Content-Type", w.FormDataContentType())
				for _, c := range cookies {
					req.AddCookie(c)
				}
				d := &discard{header: http.Header{}}
				app.Handler.ServeHTTP(d, req)
				if d.status != http.StatusOK {
					b.Fatalf("preview: status %d", d.status)
				}
			}
		})
	}
}
