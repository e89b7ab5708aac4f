package session

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
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
