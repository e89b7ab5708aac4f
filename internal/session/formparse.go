package session

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v5"
)

// Go's form parser refuses a whole body past 10,000 fields (url.ParseQuery's
// limit), so a form with 10,001 checked boxes would read as a form with
// no fields at all, CSRF token included, and be answered "invalid or
// missing CSRF token". The body is bounded by limitRequests (256 KB), so
// its fields are too: readPostForm reads them all itself, and the form's
// handler answers with the form's own limit ("at most 200 accounts").

// maxFormNames bounds the distinct field names kept: no form has more than
// a few dozen, and a body of random names must not grow a map without end.
const maxFormNames = 1000

// readPostForm parses an url-encoded body into r.PostForm and r.Form (the
// body's values first, then the query's, as ParseForm orders them), so
// the CSRF check and the handler read the same fields. Other bodies are
// left to the standard parser. A body past its size limit is a 413.
func readPostForm(r *http.Request) error {
	if r.PostForm != nil || r.Body == nil {
		return nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "application/x-www-form-urlencoded" {
		return nil
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		return echo.NewHTTPError(http.StatusBadRequest, "the form could not be read")
	}
	post := parseFormBody(string(raw))
	form := make(url.Values, len(post))
	for k, vs := range post {
		form[k] = vs
	}
	if q, err := url.ParseQuery(r.URL.RawQuery); err == nil {
		for k, vs := range q {
			form[k] = append(form[k], vs...)
		}
	}
	r.PostForm, r.Form = post, form
	return nil
}

// parseFormBody reads every field of an url-encoded body; fields that do
// not decode, and names past maxFormNames, are skipped.
func parseFormBody(body string) url.Values {
	out := url.Values{}
	for body != "" {
		var field string
		field, body, _ = strings.Cut(body, "&")
		if field == "" || strings.Contains(field, ";") {
			continue
		}
		k, v, _ := strings.Cut(field, "=")
		k, err1 := url.QueryUnescape(k)
		v, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil {
			continue
		}
		if _, seen := out[k]; !seen && len(out) >= maxFormNames {
			continue
		}
		out[k] = append(out[k], v)
	}
	return out
}
