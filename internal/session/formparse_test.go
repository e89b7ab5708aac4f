package session

import (
	"bytes"
	"errors"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v5"
)

// TestMultipartPastThePartsLimit (issue 47.5): Go's multipart parser stops
// at 1,000 parts and reads nothing; an upload form with more is still read
// for its token, then answered 422 naming the bound, not "invalid or
// missing CSRF token". Without its session's token it is refused (403),
// and a form within the bound reaches its handler.
func TestMultipartPastThePartsLimit(t *testing.T) {
	e, st := csrfServer(t)
	mine := seal(t, st, Session{Key: "k1", User: "demo", SignedInAt: time.Now(), CSRF: "secret-of-this-sign-in"})
	send := func(token string, fields int) (int, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.WriteField(csrfField, token)
		fw, _ := w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write([]byte("account,balance\nA-1,10\n"))
		for i := range fields {
			_ = w.WriteField("map_"+strconv.Itoa(i), "balance")
		}
		_ = w.Close()
		r := httptest.NewRequest(http.MethodPost, "/notes", &b)
		r.Header.Set("Content-Type", w.FormDataContentType())
		for _, c := range mine {
			r.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, r)
		return rec.Code, rec.Body.String()
	}
	token := tokenOf("secret-of-this-sign-in")
	if code, body := send(token, 20); code != http.StatusOK || body != token {
		t.Errorf("20 fields: %d %q, want 200 at the handler", code, body)
	}
	if code, body := send(token, 1500); code != http.StatusUnprocessableEntity || !strings.Contains(body, "more than 1,000 fields") {
		t.Errorf("1,500 fields: %d %q, want 422 naming the bound", code, body)
	}
	if code, _ := send(tokenOf("secret-of-another"), 1500); code != http.StatusForbidden {
		t.Errorf("1,500 fields with another's token: %d, want 403", code)
	}
}

// TestReadFieldsOnly: an upload that will not be read gives its fields
// (the query's after the body's, as ParseForm orders them) and no file;
// a body past its size limit is a 413.
func TestReadFieldsOnly(t *testing.T) {
	body := func() (*bytes.Buffer, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.WriteField(csrfField, "tok")
		_ = w.WriteField("as_of", "2026-08-31")
		fw, _ := w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write(bytes.Repeat([]byte("C1,One,10\n"), 10000))
		_ = w.Close()
		return &b, w.FormDataContentType()
	}
	b, ct := body()
	r := httptest.NewRequest(http.MethodPost, "/accounts/import?as_of=query", b)
	r.Header.Set("Content-Type", ct)
	if err := ReadFieldsOnly(r); err != nil {
		t.Fatal(err)
	}
	if got := r.PostForm.Get(csrfField); got != "tok" {
		t.Errorf("token %q, want tok", got)
	}
	if got := r.Form["as_of"]; len(got) != 2 || got[0] != "2026-08-31" || got[1] != "query" {
		t.Errorf("as_of %q, want the body's then the query's", got)
	}
	if _, _, err := r.FormFile("file"); err == nil {
		t.Error("the file was kept")
	}
	if tooMany, err := readPostForm(r); tooMany || err != nil || r.PostForm.Get(csrfField) != "tok" {
		t.Errorf("the CSRF check reads the body again: %v %v", tooMany, err)
	}
	b, ct = body()
	r = httptest.NewRequest(http.MethodPost, "/accounts/import", b)
	r.Header.Set("Content-Type", ct)
	r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 1000)
	if he, ok := errors.AsType[*echo.HTTPError](ReadFieldsOnly(r)); !ok || he.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past its limit: %v, want a 413", he)
	}
}
