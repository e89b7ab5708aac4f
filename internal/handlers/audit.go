package handlers

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"iter"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// auditVerifyLimit bounds one verification of the log: a 100,000-entry
// log takes about half a second.
const auditVerifyLimit = time.Minute

// auditPageSize is how many entries a page of /audit shows.
const auditPageSize = 50

// Bounds of the filter's text fields, as the store bounds the entries.
const maxAuditFilterLen = 256

// errAuditDown: the log's database did not answer.
var errAuditDown = errors.New("handlers: audit trail unavailable")

// auditError is a failure of the log's database as a page.
func auditError(err error) error {
	return &shownProblem{err: fmt.Errorf("%w: %v", errAuditDown, err), problem: views.Problem{
		Status: http.StatusServiceUnavailable, Title: "The audit trail cannot be reached",
		Message: "The team's audit trail is kept in a database that is not answering just now. Try again in a moment.", Retry: true}}
}

// readAuditFilter reads the filter of /audit and /audit.csv: the form as
// typed, and the store's filter. A fault is said in words for the form,
// with the field it concerns.
func readAuditFilter(c *echo.Context) (form views.AuditForm, f store.AuditFilter, field, fault string) {
	form = views.AuditForm{
		Account: strings.TrimSpace(c.QueryParam("account")),
		Actor:   strings.TrimSpace(c.QueryParam("actor")),
		Action:  strings.TrimSpace(c.QueryParam("action")),
		From:    strings.TrimSpace(c.QueryParam("from")),
		To:      strings.TrimSpace(c.QueryParam("to")),
	}
	// A date is ten characters; a longer value is shown back cut short.
	form.From, form.To = keepTyped(form.From), keepTyped(form.To)
	f = store.AuditFilter{Account: form.Account, Actor: form.Actor, Action: form.Action}
	for _, t := range []struct{ field, value string }{{"account", form.Account}, {"actor", form.Actor}, {"action", form.Action}} {
		if len(t.value) > maxAuditFilterLen || !utf8.ValidString(t.value) || strings.ContainsRune(t.value, 0) {
			form.Account, form.Actor, form.Action = keepTyped(form.Account), keepTyped(form.Actor), keepTyped(form.Action)
			return form, f, t.field, fmt.Sprintf("The %s filter must be text of at most %d characters.", t.field, maxAuditFilterLen)
		}
	}
	if form.Action != "" && !store.ValidAuditAction(form.Action) {
		return form, f, "action", "An action is one lowercase word, such as role or limit."
	}
	var err error
	if f.From, err = auditDate(form.From); err != nil {
		return form, f, "from", fmt.Sprintf("From must be a date such as 2026-01-31, not %q.", views.Clip(form.From, 40))
	}
	to, err := auditDate(form.To)
	if err != nil {
		return form, f, "to", fmt.Sprintf("To must be a date such as 2026-01-31, not %q.", views.Clip(form.To, 40))
	}
	if !to.IsZero() {
		f.To = to.AddDate(0, 0, 1) // the whole day of To
	}
	if !f.From.IsZero() && !to.IsZero() && to.Before(f.From) {
		return form, f, "to", "To must not be before From."
	}
	return form, f, "", ""
}

// keepTyped is a refused filter value as the form shows it again: valid
// text, at most the field's maxlength.
func keepTyped(s string) string {
	r := []rune(strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), ""))
	return string(r[:min(len(r), maxAuditFilterLen)])
}

// auditDate reads a YYYY-MM-DD date as midnight UTC; "" is no date.
func auditDate(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if len(s) > len("2006-01-02") {
		return time.Time{}, errors.New("handlers: not a date")
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil || t.Year() < 2000 || t.Year() > 9999 {
		return time.Time{}, errors.New("handlers: not a date")
	}
	return t, nil
}

// showAudit is GET /audit: the team's log, newest first, filtered, a page
// at a time (before=N shows the entries numbered below N).
func (h *Handler) showAudit(c *echo.Context) error {
	form, f, field, fault := readAuditFilter(c)
	page := views.AuditPage{Form: form, Error: fault, Field: field}
	page.Base = h.base(c, nil, "Audit trail", views.NavAudit)
	if fault != "" {
		return h.render(c, http.StatusUnprocessableEntity, templates.AuditTrail(page))
	}
	var before int64
	if b := c.QueryParam("before"); b != "" {
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 1 {
			return badInput("before must be an entry number, such as 120.")
		}
		before = n
	}
	entries, more, err := h.store.AuditEntries(c.Request().Context(), h.service, f, store.AuditPage{Before: before, Size: auditPageSize})
	if err != nil {
		return auditError(err)
	}
	q := form.Query()
	page.Rows = views.AuditRows(entries)
	page.CSVURL = views.AuditURL("/audit.csv", q, 0)
	if before > 0 {
		page.NewestURL = views.AuditURL("/audit", q, 0)
	}
	if more {
		page.OlderURL = views.AuditURL("/audit", q, entries[len(entries)-1].Seq)
	}
	return h.render(c, http.StatusOK, templates.AuditTrail(page))
}

// auditCSVFlush is how many rows go out between flushes of the download.
const auditCSVFlush = 500

// exportAudit is GET /audit.csv: the team's log, oldest first, with the
// page's filter, streamed as the store reads it in batches, so memory stays
// flat however long the log. Cells a spreadsheet would run as formulas are
// marked as text (see store.AuditEntry.CSVRecord).
func (h *Handler) exportAudit(c *echo.Context) error {
	_, f, _, fault := readAuditFilter(c)
	if fault != "" {
		return badInput("%s", fault)
	}
	ctx := c.Request().Context()
	next, stop := iter.Pull2(h.store.AuditLog(ctx, h.service, f))
	defer stop()
	// The first entry (or the end) is read before the 200, so a database
	// that fails at once still gets a proper error page.
	first, err, ok := next()
	if ok && err != nil {
		return auditError(err)
	}
	w := c.Response()
	hd := w.Header()
	file := "creditdash-audit-" + h.now().UTC().Format("2006-01-02") + ".csv"
	hd.Set(echo.HeaderContentType, mime.FormatMediaType("text/csv", map[string]string{"charset": "utf-8"}))
	hd.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	if c.Request().Method == http.MethodHead {
		return c.NoContent(http.StatusOK)
	}
	rc := http.NewResponseController(w)
	// A long log outlasts the page write deadline: it moves on with every
	// flush instead, so a browser that stops reading is cut after the
	// stall limit.
	_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write(store.AuditCSVHeader)
	rows := 0
	for e := first; ok; e, err, ok = next() {
		if err != nil {
			h.abortAuditCSV(c, rows, err)
		}
		_ = cw.Write(e.CSVRecord())
		if rows++; rows%auditCSVFlush == 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
			if cw.Flush(); cw.Error() != nil {
				h.abortAuditCSV(c, rows, cw.Error())
			}
		}
	}
	if cw.Flush(); cw.Error() != nil {
		h.abortAuditCSV(c, rows, cw.Error())
	}
	return nil
}

// abortAuditCSV ends a download that failed after its status was sent: only
// a broken connection tells the browser the file is incomplete.
func (h *Handler) abortAuditCSV(c *echo.Context, rows int, err error) {
	h.log.Warn("audit download aborted mid-stream", "request_id", middleware.RequestID(c),
		"path", c.Request().URL.Path, "rows", rows, "err", err)
	panic(http.ErrAbortHandler)
}

// showAuditVerify is GET /audit/verify: every hash recomputed from the
// first entry, and the first entry that does not match named.
func (h *Handler) showAuditVerify(c *echo.Context) error {
	// One verification at a time for the team: it reads the whole log,
	// so a second request while one runs waits for that one's verdict
	// instead of reading it all again. The walk outlives a requester who
	// leaves, bounded by auditVerifyLimit, since others may wait on it.
	// A log whose head has not moved since its last verification answers
	// with that verdict: nothing was appended, so walking it again would
	// only read the same entries (see keptVerdict for how long it holds).
	seq, hash, err := h.store.AuditHead(c.Request().Context(), h.service)
	if err != nil {
		return auditError(err)
	}
	v, at, kept := h.verdict.get(seq, hash, h.now())
	if kept && c.QueryParam("again") != "" && h.now().Sub(at) >= auditRecheckAfter {
		kept = false // asked to read it again, and not within the minute
	}
	if !kept {
		res, err, _ := h.verifying.Do(h.service, func() (any, error) {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request().Context()), auditVerifyLimit)
			defer cancel()
			// The head is read again inside: a verdict is kept for the
			// head it was begun at, which it covers.
			seq, hash, err := h.store.AuditHead(ctx, h.service)
			if err != nil {
				return nil, err
			}
			v, err := h.store.VerifyAudit(ctx, h.service)
			if err != nil {
				return nil, err
			}
			h.verdict.put(seq, hash, v, h.now())
			return v, nil
		})
		if err != nil {
			return auditError(err)
		}
		v, at = res.(store.AuditVerdict), h.now()
	}
	page := views.AuditVerifyPage{Verdict: v, CheckedAt: views.DateTime(at), Kept: kept, Head: seq}
	page.Base = h.base(c, nil, "Verify the audit trail", views.NavAudit)
	if !v.Intact {
		page.BrokenURL = views.AuditURL("/audit", nil, v.Broken+1)
		page.Problem = sentence(v.Problem)
	}
	return h.render(c, http.StatusOK, templates.AuditVerify(page))
}

// auditVerdictKept is how long a verdict answers for an unchanged log.
// Appending moves the head, so every change is verified at the next
// request; the bound is for what no append shows (a database edited behind
// the dashboard's back), found within this long of the last walk.
const auditVerdictKept = 10 * time.Minute

// auditRecheckAfter is how soon a kept verdict may be set aside on request
// ("Check again"): one read of the whole log a minute, however many ask.
const auditRecheckAfter = time.Minute

// keptVerdict is the team's last verification of its log, for the head it
// was begun at (issue 47.2): a flood of verifications of an unchanged log
// walks it once. walks counts the walks, for operators (Stats).
type keptVerdict struct {
	mu    sync.Mutex
	seq   int64
	hash  string
	v     store.AuditVerdict
	at    time.Time
	walks atomic.Uint64
}

// get is the verdict kept for the head (seq, hash) and when it was
// reached; ok is false when none is kept for it, or it is past
// auditVerdictKept.
func (k *keptVerdict) get(seq int64, hash string, now time.Time) (store.AuditVerdict, time.Time, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.at.IsZero() || k.seq != seq || k.hash != hash || now.Sub(k.at) > auditVerdictKept {
		return store.AuditVerdict{}, time.Time{}, false
	}
	return k.v, k.at, true
}

// put keeps v, reached at now, for the head (seq, hash).
func (k *keptVerdict) put(seq int64, hash string, v store.AuditVerdict, now time.Time) {
	k.walks.Add(1)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.seq, k.hash, k.v, k.at = seq, hash, v, now
}
