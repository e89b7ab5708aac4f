package upstream

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// call describes one request to the service.
type call struct {
	op    string     // operation name for errors, e.g. "Business/Summary"
	path  string     // path under the base URL
	key   string     // session key; "" only for sign-in
	kind  Kind       // how long a kept answer stays fresh
	query query      // query parameters (type is added)
	form  url.Values // non-nil makes the call a form POST
	// stream sends the call through the downloads' own pool, so pages
	// never queue behind exports.
	stream bool
}

// query is a call's parameters in the order they were set. A slice, not
// url.Values: a read that a kept copy answers still names its request,
// and a map per call was most of what such a read allocated.
type query []param

type param struct{ name, value string }

// Set sets name to value, replacing an earlier value.
func (q *query) Set(name, value string) {
	for i := range *q {
		if (*q)[i].name == name {
			(*q)[i].value = value
			return
		}
	}
	*q = append(*q, param{name, value})
}

// values is q for the wire.
func (q query) values() url.Values {
	v := make(url.Values, len(q)+1)
	for _, p := range q {
		v.Set(p.name, p.value)
	}
	return v
}

// key names the request of path and q: each operation sets its
// parameters in one order, so equal requests have equal keys.
func (q query) key(path string) string {
	if len(q) == 0 {
		return path
	}
	var b strings.Builder
	n := len(path)
	for _, p := range q {
		n += len(p.name) + len(p.value) + 2
	}
	b.Grow(n)
	b.WriteString(path)
	for i, p := range q {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.name))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.value))
	}
	return b.String()
}

// envelope is the service's wrapper around every JSON answer.
type envelope struct {
	Success   bool         `json:"Success"`
	Data      borrowedJSON `json:"Data"`
	ErrorCode string       `json:"ErrorCode"`
}

// borrowedJSON is a JSON value kept as a slice of the answer it came in,
// not a copy like json.RawMessage: the envelope is read and its Data
// decoded before the answer's buffer goes back to the pool, and copying
// Data was a twentieth of the bytes a page allocates.
type borrowedJSON []byte

// UnmarshalJSON keeps data itself: Unmarshal hands over a slice of its
// input, which the caller owns and keeps until it is done (a test checks
// that it is a slice of the input, not of a buffer of the decoder's).
func (b *borrowedJSON) UnmarshalJSON(data []byte) error {
	*b = data
	return nil
}

// wire sends the call, reads the quota headers, and decodes the
// envelope's Data into out (which may be nil); with data it returns a copy
// of Data too. It owns the wire: every JSON call goes through it, an
// operation's through User.do first.
func (c *Client) wire(ctx context.Context, cl call, out any, data bool) (a Answer, err error) {
	if c.observe != nil {
		start := time.Now()
		defer func() { c.observe(cl.op, err, time.Since(start)) }()
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.send(ctx, cl)
	if err != nil {
		return a, err
	}
	defer resp.Body.Close()
	a.Quota, a.HasQuota = readRateLimit(resp.Header)

	buf := bodyBuffers.Get().(*bytes.Buffer)
	defer putBodyBuffer(buf)
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, c.maxBody+1)); err != nil {
		return a, transportError(ctx, cl.op, err)
	}
	if int64(buf.Len()) > c.maxBody {
		return a, &Error{Op: cl.op, Status: resp.StatusCode, Kind: ErrMalformed,
			Err: fmt.Errorf("answer larger than %d bytes", c.maxBody)}
	}
	a.Size = buf.Len()
	raw, err := decodeAnswer(cl.op, resp.StatusCode, resp.Header, buf.Bytes(), out, data)
	if err == nil && data {
		a.Data = bytes.Clone(raw)
	}
	return a, err
}

// Answers are read into reused buffers: reading each into a new slice was
// the largest share of the bytes a page allocates. Decoding copies what it
// keeps, so nothing refers to a buffer once do returns.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// keptBodyBuffer is the largest buffer put back: a rare huge answer's is
// left to the collector instead of being held by the pool.
const keptBodyBuffer = 256 << 10

func putBodyBuffer(b *bytes.Buffer) {
	if b.Cap() > keptBodyBuffer {
		return
	}
	b.Reset()
	bodyBuffers.Put(b)
}

// decodeAnswer turns a read answer into out or a typed error; with raw it
// also returns the envelope's Data, a slice of body. It is pure, so the
// fuzz test can feed it any bytes.
func decodeAnswer(op string, status int, h http.Header, body []byte, out any, raw bool) ([]byte, error) {
	if status == http.StatusOK && out != nil && !raw {
		env := dataEnvelope{Data: dataInto{out: out}}
		if err := unmarshalAnswer(body, &env); err == nil && env.Success && env.Data.seen {
			return nil, nil
		}
		// A refusal, an answer without Data or a malformed one is read
		// again below, to be told apart: rare, and never a page's
		// common path.
	}
	var env envelope
	decodeErr := unmarshalAnswer(body, &env)
	if status != http.StatusOK {
		return nil, statusError(op, status, h, env, decodeErr == nil)
	}
	if decodeErr != nil {
		return nil, &Error{Op: op, Status: status, Kind: ErrMalformed, Err: decodeErr}
	}
	if !env.Success {
		return nil, statusError(op, status, h, env, true)
	}
	if out == nil {
		return env.Data, nil
	}
	if err := unmarshalData(env.Data, out); err != nil {
		return nil, &Error{Op: op, Status: status, Kind: ErrMalformed, Err: err}
	}
	return env.Data, nil
}

// dataEnvelope is the envelope of a success read in one pass, its Data
// decoded where it stands. Read first as a whole value and then decoded,
// Data was tokenized twice: 3 % of the dashboard's CPU under the 200
// analysts.
type dataEnvelope struct {
	Success   bool     `json:"Success"`
	Data      dataInto `json:"Data"`
	ErrorCode string   `json:"ErrorCode"`
}

// dataInto decodes Data into out (a pointer).
type dataInto struct {
	out  any
	seen bool
}

// UnmarshalJSONFrom decodes Data; a repeated Data replaces the first, as
// it does in the envelope read whole. An array of rows is decoded to its
// exact length (decodeExact).
func (d *dataInto) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if d.seen {
		reflect.ValueOf(d.out).Elem().SetZero()
	}
	d.seen = true
	if v := reflect.ValueOf(d.out).Elem(); v.Kind() == reflect.Slice && dec.PeekKind() == '[' {
		return decodeExact(dec, v)
	}
	return jsonv2.UnmarshalDecode(dec, d.out)
}

// answerOptions read the service's JSON as encoding/json does (member
// names in any case, the last of repeated names, invalid UTF-8 replaced).
var answerOptions = jsonv2.JoinOptions(
	jsonv2.MatchCaseInsensitiveNames(true),
	jsontext.AllowDuplicateNames(true),
	jsontext.AllowInvalidUTF8(true),
)

// unmarshalData decodes an answer's Data into out (a pointer) as the
// one-pass reading does, arrays to their exact length.
func unmarshalData(data []byte, out any) error {
	return unmarshalAnswer(data, &dataInto{out: out})
}

// unmarshalAnswer decodes the service's JSON with the JSON v2 prototype,
// which decodes its answers about three times as fast as encoding/json with
// fewer allocations (BenchmarkDecodeAnswer): decoding answers was the
// largest share of the dashboard's CPU under a team's load.
func unmarshalAnswer(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, answerOptions)
}

// send builds and sends the request.
func (c *Client) send(ctx context.Context, cl call) (*http.Response, error) {
	method, target := http.MethodGet, c.endpoint(cl.path, cl.query)
	var body io.Reader
	if cl.form != nil {
		method, body = http.MethodPost, strings.NewReader(cl.form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, &Error{Op: cl.op, Kind: ErrBadRequest, Err: err}
	}
	if cl.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept", "application/json")
	if cl.key != "" {
		if strings.ContainsAny(cl.key, "\r\n") {
			return nil, &Error{Op: cl.op, Kind: ErrSessionExpired, Err: fmt.Errorf("session key holds a line break")}
		}
		req.Header.Set("Authorization", "Bearer "+cl.key)
	}
	hc := c.http
	if cl.stream {
		hc = c.downloads
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, transportError(ctx, cl.op, err)
	}
	return resp, nil
}

// statusError turns an answer that is not a success into an *Error, keeping
// the service's code and text when the body was an envelope.
func statusError(op string, status int, h http.Header, env envelope, isEnvelope bool) *Error {
	e := &Error{Op: op, Status: status, Kind: kindForStatus(status)}
	if isEnvelope {
		e.Code = env.ErrorCode
		e.Message = dataText(env.Data)
		if status == http.StatusOK {
			// Success false on a 200: classify by code; a refusal we
			// cannot classify is a malformed answer.
			if e.Kind = kindForCode(env.ErrorCode); e.Kind == nil {
				e.Kind = ErrMalformed
			}
		}
	}
	// Some codes say more than their status (a 403 is not always an
	// expired session).
	switch e.Code {
	case CodeInvalidCredentials, CodeTwoFactorRequired, CodeInvalidTwoFactorKey, CodeTwoFactorLocked:
		e.Kind = kindForCode(e.Code)
	}
	if e.Kind == ErrRateLimited {
		e.RetryAfter = retryAfter(h)
	}
	return e
}

// kindForCode maps the error codes we know to their kinds; nil for others.
func kindForCode(code string) error {
	switch code {
	case CodeInvalidCredentials:
		return ErrInvalidCredentials
	case CodeSessionExpired, CodeInvalidSessionKey:
		return ErrSessionExpired
	case CodeBusinessNotFound, CodeFolderNotFound:
		return ErrNotFound
	case CodeRateLimitExceeded:
		return ErrRateLimited
	case CodeTwoFactorRequired:
		return ErrTwoFactorRequired
	case CodeInvalidTwoFactorKey:
		return ErrTwoFactorCode
	case CodeTwoFactorLocked:
		return ErrTwoFactorLocked
	case CodeMissingIdentifier, CodeInvalidParameter, CodeTradeProviderNotSelected,
		CodeInvalidTradeProvider, CodeInvalidLayout:
		return ErrBadRequest
	}
	return nil
}

// dataText returns Data when it is a JSON string (the service's description
// of a failure), trimmed to a length fit for a page.
func dataText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if unmarshalAnswer(raw, &s) != nil {
		return ""
	}
	const maxLen = 500
	if len(s) > maxLen {
		s = strings.ToValidUTF8(s[:maxLen], "") + "…"
	}
	return s
}
