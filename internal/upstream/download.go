package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DownloadQuery selects what Download exports; zero fields take the
// service's defaults (CSV, the whole portfolio, the standard layout).
type DownloadQuery struct {
	Format   string // FormatCSV, FormatXML or FormatJSON, any case
	FolderID int
	Layout   string // LayoutStandard, LayoutScores or another layout the account has
}

// Download is an export as it arrives. The caller must Close Body.
type Download struct {
	Body        io.ReadCloser
	ContentType string
	// FileName is the service's suggested name, or "" when it gave none.
	FileName string
	// Size is the body's length, or -1 when the service streams it.
	Size int64
}

// opDownload names the export in errors and the budget.
const opDownload = "Portfolio/Download"

// Download starts the portfolio export and returns it as a stream; nothing is
// held in memory. The call's timeout bounds the wait for the answer and every
// pause within the body, so a stalled service cannot hold a download open.
// An export is never kept: with a keeper, it is only paid for from the
// user's budget.
func (u *User) Download(ctx context.Context, dq DownloadQuery) (*Download, error) {
	if slices.Contains(u.absent, opDownload) {
		return nil, &Error{Op: opDownload, Status: 404, Kind: ErrNotFound, Message: "not offered (remembered)"}
	}
	if u.keep == nil {
		d, _, err := u.c.download(ctx, u.key, dq)
		return d, err
	}
	var d *Download
	err := u.keep.Spend(ctx, opDownload, func(ctx context.Context) (Answer, error) {
		var (
			a   Answer
			err error
		)
		d, a, err = u.c.download(ctx, u.key, dq)
		return a, err
	})
	return d, err
}

// download sends the export's call; the Answer holds its quota.
func (c *Client) download(ctx context.Context, key string, dq DownloadQuery) (_ *Download, a Answer, err error) {
	const op = opDownload
	if c.observe != nil {
		// Until the answer's headers: the body's time is the browser's.
		start := time.Now()
		defer func() { c.observe(op, err, time.Since(start)) }()
	}
	q, err := dq.values()
	if err != nil {
		return nil, a, &Error{Op: op, Kind: ErrBadRequest, Err: err}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	idle := time.AfterFunc(c.timeout, func() {
		cancel(fmt.Errorf("no data from the service for %s", c.timeout))
	})
	resp, err := c.send(ctx, call{op: op, path: "/v1/Portfolio/Download", key: key, query: q, stream: true})
	if err != nil {
		idle.Stop()
		cancel(nil)
		return nil, a, err
	}
	a.Quota, a.HasQuota = readRateLimit(resp.Header)
	if resp.StatusCode != http.StatusOK {
		defer func() { idle.Stop(); cancel(nil) }()
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, c.maxBody))
		var env envelope
		isEnv := unmarshalAnswer(body, &env) == nil
		return nil, a, statusError(op, resp.StatusCode, resp.Header, env, isEnv)
	}
	idle.Stop() // from here the timer runs only inside reads
	return &Download{
		Body: &idleReader{r: resp.Body, idle: idle, timeout: c.timeout, cancel: cancel,
			minBytes: int64(float64(c.minRate) * c.window.Seconds()), window: c.window, windowStart: time.Now()},
		ContentType: resp.Header.Get("Content-Type"),
		FileName:    attachmentName(resp.Header.Get("Content-Disposition")),
		Size:        resp.ContentLength,
	}, a, nil
}

func (dq DownloadQuery) values() (query, error) {
	var q query
	if dq.Format != "" {
		f := strings.ToUpper(dq.Format)
		if f != FormatCSV && f != FormatXML && f != FormatJSON {
			return nil, fmt.Errorf("format %q is not CSV, XML or JSON", dq.Format)
		}
		q.Set(paramFormat, f)
	}
	if dq.FolderID < 0 {
		return nil, fmt.Errorf("folder %d is not a folder id", dq.FolderID)
	}
	if dq.FolderID > 0 {
		q.Set(paramFolderID, strconv.Itoa(dq.FolderID))
	}
	if dq.Layout != "" {
		if !IsLayoutName(dq.Layout) {
			return nil, fmt.Errorf("layout %q is not a layout name", dq.Layout)
		}
		q.Set(paramLayout, dq.Layout)
	}
	return q, nil
}

// IsLayoutName accepts the names an export layout can have: up to 64
// letters, digits, - and _. The dashboard checks the export form with it.
func IsLayoutName(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, c := range s {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			return false
		}
	}
	return true
}

// attachmentName reads the file name of a Content-Disposition header.
func attachmentName(h string) string {
	_, params, err := mime.ParseMediaType(h)
	if err != nil {
		return ""
	}
	return params["filename"]
}

// idleReader runs the idle timer only while a read waits on the service, so
// a pause longer than the timeout cancels the request, but neither a long
// download nor a slow reader on our side does.
type idleReader struct {
	r       io.ReadCloser
	idle    *time.Timer
	timeout time.Duration
	cancel  context.CancelCauseFunc
	once    sync.Once
	// A body must bring minBytes in every window: a service that trickles
	// a byte at a time would otherwise never trip the idle timer.
	minBytes    int64
	window      time.Duration
	windowStart time.Time
	windowBytes int64
}

// ErrTooSlow: the service sent an export slower than the minimum rate.
var ErrTooSlow = errors.New("upstream: download slower than the minimum rate")

func (ir *idleReader) Read(p []byte) (int, error) {
	ir.idle.Reset(ir.timeout)
	n, err := ir.r.Read(p)
	ir.idle.Stop()
	ir.windowBytes += int64(n)
	if now := time.Now(); ir.window > 0 && now.Sub(ir.windowStart) >= ir.window {
		if ir.windowBytes < ir.minBytes && err == nil {
			ir.cancel(ErrTooSlow)
			return n, &Error{Op: "Portfolio/Download", Kind: ErrUnavailable, Err: ErrTooSlow}
		}
		ir.windowStart, ir.windowBytes = now, 0
	}
	return n, err
}

func (ir *idleReader) Close() error {
	err := ir.r.Close()
	ir.once.Do(func() {
		ir.idle.Stop()
		ir.cancel(nil)
	})
	return err
}
