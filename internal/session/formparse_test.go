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

// TestReadUpload: an upload's fields (the query's after the body's, as
// ParseForm orders them) and its file, read whole; a file past the limit
// is not kept, nor any file when none is asked for; past 1,000 parts only
// the token is read and the CSRF check answers 422; a body past its size
// limit is a 413.
func TestReadUpload(t *testing.T) {
	file := bytes.Repeat([]byte("C1,One,10\n"), 10000)
	read := func(field string, limit int64, parts int, maxBody int64) (*http.Request, *echo.Context, *UploadFile, error) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.WriteField(csrfField, "tok")
		_ = w.WriteField("as_of", "2026-08-31")
		fw, _ := w.CreateFormFile("other", "other.csv")
		_, _ = fw.Write([]byte("not this one"))
		fw, _ = w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write(file)
		for i := range parts {
			_ = w.WriteField("map_"+strconv.Itoa(i), "balance")
		}
		_ = w.Close()
		r := httptest.NewRequest(http.MethodPost, "/accounts/import?as_of=query", &b)
		r.Header.Set("Content-Type", w.FormDataContentType())
		if maxBody > 0 {
			r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, maxBody)
		}
		c := echo.New().NewContext(r, httptest.NewRecorder())
		f, err := ReadUpload(c, field, limit)
		return r, c, f, err
	}
	r, c, f, err := read("file", 1<<20, 0, 0)
	if err != nil || f == nil || f.Name != "aging.csv" || !bytes.Equal(f.Data, file) || f.TooLarge {
		t.Fatalf("the file: %v %+v", err, f)
	}
	if got := r.PostForm.Get(csrfField); got != "tok" {
		t.Errorf("token %q, want tok", got)
	}
	if got := r.Form["as_of"]; len(got) != 2 || got[0] != "2026-08-31" || got[1] != "query" {
		t.Errorf("as_of %q, want the body's then the query's", got)
	}
	if _, _, err := r.FormFile("file"); err == nil {
		t.Error("the standard parser's form holds the file too")
	}
	if tooMany, err := readPostForm(r); tooMany || err != nil || r.PostForm.Get(csrfField) != "tok" || stateOf(c).tooManyParts {
		t.Errorf("the CSRF check reads the body again: %v %v", tooMany, err)
	}
	if _, _, f, err := read("file", int64(len(file))-1, 0, 0); err != nil || f == nil || !f.TooLarge || f.Data != nil {
		t.Errorf("a file past the limit: %v %+v", err, f)
	}
	if r, _, f, err := read("", 1<<20, 0, 0); err != nil || f != nil || r.PostForm.Get("as_of") != "2026-08-31" {
		t.Errorf("no file asked for: %v %+v %v", err, f, r.PostForm)
	}
	if r, c, f, err := read("file", 1<<20, maxParts, 0); err != nil || f != nil || len(r.PostForm) != 1 || r.PostForm.Get(csrfField) != "tok" || !stateOf(c).tooManyParts {
		t.Errorf("past 1,000 parts: %v %+v %v", err, f, len(r.PostForm))
	}
	if _, _, _, err := read("file", 1<<20, 0, 1000); err == nil {
		t.Error("a body past its limit read")
	} else if he, ok := errors.AsType[*echo.HTTPError](err); !ok || he.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("a body past its limit: %v, want a 413", err)
	}
}
