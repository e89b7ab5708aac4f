package handlers_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestUploadWhileAnImportRunsIsNotRead (issue 47.2): an upload takes the
// analyst's import place when it arrives, so a second file sent while the
// first is still being received is answered 429, with the date typed
// kept, without its file ever being held in memory; its CSRF token is
// still checked; and the first, once received, is previewed as usual.
func TestUploadWhileAnImportRunsIsNotRead(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	tok := u.Token("/accounts/import")
	send := func(body io.Reader, contentType string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/accounts/import", body)
		req.Header.Set("Content-Type", contentType)
		for _, c := range u.Cookies() {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		return rec
	}
	upload := func(csrf, asOf string, data []byte) (*bytes.Buffer, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.WriteField("_csrf", csrf)
		_ = w.WriteField("as_of", asOf)
		fw, _ := w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write(data)
		_ = w.Close()
		return &b, w.FormDataContentType()
	}

	// The first upload's body arrives slowly: once its first field is
	// read, the server is receiving it.
	pr, pw := io.Pipe()
	first := multipart.NewWriter(pw)
	var firstRec *httptest.ResponseRecorder
	done := make(chan struct{})
	go func() {
		defer close(done)
		firstRec = send(pr, first.FormDataContentType())
	}()
	if err := first.WriteField("_csrf", tok); err != nil {
		t.Fatal(err)
	}

	big := ledgerOf(benchAccounts, 3)
	body, ct := upload(tok, "2026-08-31", big)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec := send(body, ct)
	runtime.ReadMemStats(&after)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("a second upload while the first is received: status %d, Retry-After %q, want 429 with one", rec.Code, rec.Header().Get("Retry-After"))
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if msg := doc.Find("main").Text(); !strings.Contains(msg, "Another file of yours is being read") {
		t.Errorf("the 429 does not say why: %.300s", msg)
	}
	if v, _ := doc.Find(`input[name="as_of"]`).Attr("value"); v != "2026-08-31" {
		t.Errorf("the date typed is lost: %q", v)
	}
	// Parsed as the standard parser does, the file would cost two to three
	// times its size; read through and dropped, a small buffer.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(len(big))/2 {
		t.Errorf("answering the waiting upload allocated %d bytes for a %d-byte file: the file was read into memory", grew, len(big))
	}
	body, ct = upload("forged", "2026-08-31", []byte("Customer No.,Name,Balance\nC1,One,10\n"))
	if rec := send(body, ct); rec.Code != http.StatusForbidden {
		t.Errorf("a waiting upload without its token: status %d, want 403", rec.Code)
	}

	// The first upload arrives whole and is previewed.
	_ = first.WriteField("as_of", "2026-09-30")
	fw, _ := first.CreateFormFile("file", "aging.csv")
	_, _ = fw.Write(ledgerOf(20, 1))
	_ = first.Close()
	_ = pw.Close()
	<-done
	if firstRec.Code != http.StatusOK || !strings.Contains(firstRec.Body.String(), "import-confirm") {
		t.Fatalf("the first upload: status %d, want its preview: %.300s", firstRec.Code, firstRec.Body.String())
	}
}

// TestImportUploadsReadInOnePass: the import page reads its upload itself
// (takeImportTurn): a file is previewed from it, a form without a file is
// asked for one, and one past the standard parser's 1,000 parts is still
// answered 422 after its token is checked (403 without).
func TestImportUploadsReadInOnePass(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	tok := u.Token("/accounts/import")
	post := func(csrf string, data []byte, fields int) *apptest.Page {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.WriteField("_csrf", csrf)
		_ = w.WriteField("as_of", "2026-09-30")
		if data != nil {
			fw, _ := w.CreateFormFile("file", "aging.csv")
			_, _ = fw.Write(data)
		}
		for i := range fields {
			_ = w.WriteField("map_"+strconv.Itoa(i), "balance")
		}
		_ = w.Close()
		req, _ := http.NewRequest(http.MethodPost, app.URL+"/accounts/import", &b)
		req.Header.Set("Content-Type", w.FormDataContentType())
		return u.Do(req)
	}
	if p := post(tok, ledgerOf(30, 2), 0); p.Status != http.StatusOK || p.Doc.Find("form.import-confirm").Length() != 1 {
		t.Errorf("a file: status %d, want its preview: %.300s", p.Status, p.Text("main"))
	}
	if p := post(tok, nil, 0); p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("main"), "Choose a CSV or XLSX file") {
		t.Errorf("no file: status %d %.300s", p.Status, p.Text("main"))
	}
	if p := post(tok, ledgerOf(30, 2), 1500); p.Status != http.StatusUnprocessableEntity {
		t.Errorf("1,500 fields: status %d %.300s, want 422", p.Status, p.Text("main"))
	}
	if p := post("forged", ledgerOf(30, 2), 1500); p.Status != http.StatusForbidden {
		t.Errorf("1,500 fields without the token: status %d, want 403", p.Status)
	}
}
