package session

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
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
// the CSRF check and the handler read the same fields. A multipart body
// (a file's upload) goes to the standard parser, here rather than in the
// handler; past its limit of parts (1,000) tooMany is true and r.PostForm
// holds the token alone, read from the body's start. A body past its size
// limit is a 413.
func readPostForm(r *http.Request) (tooMany bool, err error) {
	if r.PostForm != nil || r.Body == nil {
		return false, nil
	}
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "multipart/form-data" {
		return readMultipart(r, params["boundary"])
	}
	if ct != "application/x-www-form-urlencoded" {
		return false, nil
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return false, bodyError(err)
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
	return false, nil
}

// bodyError is the answer to a body that could not be read.
func bodyError(err error) error {
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
	}
	return echo.NewHTTPError(http.StatusBadRequest, "the form could not be read")
}

// multipartMemory is what a multipart form may hold in memory before its
// files go to disk: the standard library's default, which echo's
// FormFile used before the form was read here.
const multipartMemory = 32 << 20

// tokenWithin is how much of a multipart body is kept to find the CSRF
// token in when the parser stops at its limit of parts: every form puts
// the token first.
const tokenWithin = 64 << 10

// readMultipart reads a multipart form with the standard parser, keeping
// the body's start. Past the parser's limit of parts (or of headers) the
// form is not read, and the token alone is taken from the start kept, so
// the CSRF check still tells a form with too many fields (answered 422)
// from a forged one (403).
func readMultipart(r *http.Request, boundary string) (tooMany bool, err error) {
	start := &headRecorder{r: r.Body, max: tokenWithin}
	r.Body = struct {
		io.Reader
		io.Closer
	}{start, r.Body}
	err = r.ParseMultipartForm(multipartMemory)
	switch {
	case err == nil:
		return false, nil
	case !errors.Is(err, multipart.ErrMessageTooLarge):
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return false, bodyError(err)
		}
		return false, nil // the handler answers a form it cannot read
	}
	token := ""
	mr := multipart.NewReader(bytes.NewReader(start.buf.Bytes()), boundary)
	for {
		p, err := mr.NextPart()
		if err != nil {
			break
		}
		if p.FormName() == csrfField {
			b, _ := io.ReadAll(io.LimitReader(p, 256))
			token = string(b)
			break
		}
	}
	r.PostForm = url.Values{csrfField: {token}}
	r.Form = r.PostForm
	return true, nil
}

// headRecorder reads through r, keeping the first max bytes read.
type headRecorder struct {
	r   io.Reader
	max int
	buf bytes.Buffer
}

func (h *headRecorder) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := h.max - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(n, room)])
	}
	return n, err
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

// Bounds of ReadUpload: how much of each field is kept (a token, a date,
// a column's choice), and how many parts a form may have, as the standard
// parser allows.
const (
	fieldWithin = 4 << 10
	maxParts    = 1000
)

// UploadFile is the file of a form ReadUpload read.
type UploadFile struct {
	// Name is the file's name as sent.
	Name string
	// Data is the file; nil when it is past the limit (TooLarge).
	Data     []byte
	TooLarge bool
}

// ReadUpload reads a multipart body in one pass, for an upload: its
// fields into r.PostForm and r.Form (the body's values, then the
// query's) and r.MultipartForm, which then holds no file; the first file
// sent as field, up to limit bytes, into one buffer sized by the
// request's length; and every other file read through and dropped (field
// "" keeps none: an upload that will not be read, its analyst's import
// already running). The standard parser grows its buffer to about twice a
// file's size on the way, and the handler copied the file once more: a
// 50,000-row ledger cost three times its size. The CSRF check then finds
// the fields read; past the standard parser's 1,000 parts it finds the
// token alone and answers 422, as for that parser. Any other body is left
// to the CSRF check's own reading. file is nil when none was sent; a body
// past its size limit is a 413.
func ReadUpload(c *echo.Context, field string, limit int64) (file *UploadFile, err error) {
	r := c.Request()
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" || r.Body == nil || r.PostForm != nil {
		return nil, nil
	}
	post := url.Values{}
	tooMany := false
	mr := multipart.NewReader(r.Body, params["boundary"])
	// A body that breaks off or is no form keeps the fields read before
	// (the handler answers it, as after the standard parser); past its
	// size limit it is a 413.
	stop := func(err error) error {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return bodyError(err)
		}
		return nil
	}
	for n := 1; ; n++ {
		p, err := mr.NextPart()
		if err != nil {
			if err := stop(err); err != nil {
				return nil, err
			}
			break
		}
		tooMany = tooMany || n > maxParts
		switch {
		case tooMany:
		case p.FileName() == "" && len(post) < maxFormNames:
			var b []byte
			if b, err = io.ReadAll(io.LimitReader(p, fieldWithin)); err == nil {
				post.Add(p.FormName(), string(b))
			}
		case p.FileName() != "" && field != "" && p.FormName() == field && file == nil:
			f := &UploadFile{Name: p.FileName()}
			if f.Data, f.TooLarge, err = readFile(p, r.ContentLength, limit); err == nil {
				file = f
			}
		}
		if err == nil {
			_, err = io.Copy(io.Discard, p)
		}
		if err != nil {
			if err := stop(err); err != nil {
				return nil, err
			}
			break
		}
	}
	// Read to the end, so the answer does not cut the upload short.
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		if err := stop(err); err != nil {
			return nil, err
		}
	}
	if tooMany {
		post, file = url.Values{csrfField: post[csrfField]}, nil
		stateOf(c).tooManyParts = true
	}
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
	r.MultipartForm = &multipart.Form{Value: post, File: map[string][]*multipart.FileHeader{}}
	return file, nil
}

// readFile reads a file of at most limit bytes into a buffer of the
// request's length (hint, -1 when unknown), growing it only when the
// length was not given; tooLarge reads the rest through and keeps nothing.
func readFile(p io.Reader, hint, limit int64) (data []byte, tooLarge bool, err error) {
	data = make([]byte, 0, min(max(hint, 0), limit)+512)
	lr := io.LimitReader(p, limit+1)
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, len(data)/2+4096)
		}
		n, err := lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	if int64(len(data)) > limit {
		_, err := io.Copy(io.Discard, p)
		return nil, true, err
	}
	return data, false, nil
}
