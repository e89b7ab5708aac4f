package handlers

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
)

// exportBuffer is the copy buffer of a download: small, so memory stays
// flat however big the export, and each chunk is flushed as it arrives.
const exportBuffer = 32 << 10

var exportBufs = sync.Pool{New: func() any { b := make([]byte, exportBuffer); return &b }}

// exportPortfolio streams the service's Download to the browser as it
// arrives. Until the first byte is in hand, failures are ordinary error
// pages; after the headers are sent, a failure aborts the connection so
// the browser marks the download failed instead of keeping a cut file.
func (h *Handler) exportPortfolio(c *echo.Context) error {
	format, folderID, layout, err := parseExportQuery(c)
	if err != nil {
		return err
	}
	s := session.Must(c)
	// A fair share: at most exportsPerUser exports of one user at once.
	release, ok := h.exports.TryAcquire(s.User)
	if !ok {
		return redirect(c, exportOrigin(folderID)+"?export=busy")
	}
	defer release()
	h.exportsRunning.Add(1)
	defer h.exportsRunning.Add(-1)
	who := cache.Who{User: s.User, Key: s.Key}
	ctx := c.Request().Context()
	folderName := ""
	if folderID > 0 {
		// The folder's name goes into the file name; an unknown folder is a
		// 404 page before anything is downloaded.
		folders, err := h.cache.Reader(who).Folders(ctx)
		if errors.Is(err, upstream.ErrRateLimited) {
			return redirect(c, exportOrigin(folderID)+"?export=limited")
		}
		if err != nil {
			return err
		}
		name, ok := views.FolderName(folders, folderID)
		if !ok {
			return folderNotFound(folderID)
		}
		folderName = name
	}
	w := c.Response()
	hd := w.Header()
	// Set only once the file is sure: an error page must not be saved as
	// the export.
	fileHeaders := func() {
		ascii, unicodeName := views.ExportFileName(folderName, folderID, h.now().UTC(), format.Ext)
		hd.Set(echo.HeaderContentType, mime.FormatMediaType(exportContentTypes[format.Param], map[string]string{"charset": "utf-8"}))
		hd.Set(echo.HeaderContentDisposition, attachment(ascii, unicodeName))
	}
	if c.Request().Method == http.MethodHead {
		fileHeaders()
		// A link checker's or download manager's look: what the file
		// would be, without a download that costs a request of the hour.
		return c.NoContent(http.StatusOK)
	}

	dl, err := h.cache.Reader(who).Download(ctx, upstream.DownloadQuery{Format: format.Wire, FolderID: folderID, Layout: layout})
	if errors.Is(err, upstream.ErrRateLimited) {
		if h.hourSpent(s.User) {
			// No file to give: back to the page the export was asked
			// from, which says when the limit renews.
			return redirect(c, exportOrigin(folderID)+"?export=limited")
		}
		// Refused with the hour not known to be spent: the service's own
		// words, not a claim about the hour.
		return exportRefused(err, folderID, h.now())
	}
	if err != nil {
		return err
	}
	defer dl.Body.Close()

	bufp := exportBufs.Get().(*[]byte)
	defer exportBufs.Put(bufp)
	buf := *bufp
	// Read the first chunk before committing to a 200, so a service that
	// fails at once still gets a proper error page.
	n, rerr := io.ReadAtLeast(dl.Body, buf, 1)
	if rerr != nil && !errors.Is(rerr, io.EOF) {
		return &upstream.Error{Op: "Portfolio/Download", Kind: upstream.ErrUnavailable, Err: rerr}
	}
	if err := checkExportStart(buf[:n], format.Param); err != nil {
		// An empty file, or one that is not what was asked for (an error
		// page or envelope sent as 200): never handed over as the user's
		// export.
		return err
	}
	var body io.Reader = dl.Body
	if format.Param == "csv" {
		// The first chunk goes through the defuser too, so it reads the
		// file from its start; the size changes with it.
		body = newDefusedCSV(io.MultiReader(bytes.NewReader(bytes.Clone(buf[:n])), dl.Body))
		if n, rerr = io.ReadAtLeast(body, buf, 1); rerr != nil && !errors.Is(rerr, io.EOF) {
			return &upstream.Error{Op: "Portfolio/Download", Kind: upstream.ErrMalformed, Err: rerr}
		}
	} else if dl.Size >= 0 {
		hd.Set(echo.HeaderContentLength, strconv.FormatInt(dl.Size, 10))
	}
	fileHeaders()
	rc := http.NewResponseController(w)
	// A big export outlasts the page write deadline: the deadline moves on
	// with every chunk instead (see streamExport), so a browser that stops
	// reading is cut after the stall limit and frees its service connection.
	_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
	w.WriteHeader(http.StatusOK)

	written, err := streamExport(w, rc, body, buf, n, h.exportStall)
	if err != nil {
		h.log.Warn("export aborted mid-stream", "request_id", middleware.RequestID(c), "path", c.Request().URL.Path,
			"bytes", written, "err", err)
		// The status is sent: only a broken connection tells the browser
		// that the file is incomplete.
		panic(http.ErrAbortHandler)
	}
	return nil
}

// streamExport writes the first n bytes of buf, then copies the rest of
// body through buf, flushing after every chunk; each write may wait at most
// stall for the browser.
func streamExport(w io.Writer, rc *http.ResponseController, body io.Reader, buf []byte, n int, stall time.Duration) (int64, error) {
	var written int64
	for {
		if n > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(stall))
			m, err := w.Write(buf[:n])
			written += int64(m)
			if err != nil {
				return written, errors.New("handlers: export: writing to the browser: " + err.Error())
			}
			if err := rc.Flush(); err != nil {
				return written, errors.New("handlers: export: flushing: " + err.Error())
			}
		}
		var err error
		n, err = body.Read(buf)
		if errors.Is(err, io.EOF) {
			if n > 0 {
				continue // write the last chunk; the next Read says EOF again
			}
			return written, nil
		}
		if err != nil && n == 0 {
			return written, errors.New("handlers: export: reading from the service: " + err.Error())
		}
	}
}

// parseExportQuery checks the export's format, folder and layout.
func parseExportQuery(c *echo.Context) (views.ExportFormat, int, string, error) {
	raw := c.QueryParam("format")
	if raw == "" {
		raw = "csv"
	}
	format, ok := views.LookupExportFormat(raw)
	if !ok {
		return format, 0, "", badInput("The export format can be csv, xml or json, not %q.", views.Clip(raw, 20))
	}
	folderID := 0
	if raw := c.QueryParam("folder"); raw != "" {
		id, err := parseFolderID(raw)
		if err != nil {
			return format, 0, "", err
		}
		folderID = id
	}
	layout := canonicalLayout(c.QueryParam("layout"))
	if !upstream.IsLayoutName(layout) {
		return format, 0, "", badInput("A layout name is up to 64 letters, digits, - or _, such as Standard or Scores; %q is not.",
			views.Clip(c.QueryParam("layout"), 40))
	}
	return format, folderID, layout, nil
}

// canonicalLayout spells the known layouts as the service does; other
// names go to the service as typed, for it to accept or refuse. "" leaves
// the service's default.
func canonicalLayout(raw string) string {
	for _, l := range views.ExportLayouts {
		if strings.EqualFold(raw, l.Value) {
			return l.Value
		}
	}
	return raw
}

// checkExportStart refuses an export whose first bytes cannot begin a file
// of its format: nothing at all, the service's error envelope or a web
// page sent with a 200, or markup where data was asked for. The error is
// an *upstream.Error, with the service's words when it sent some.
func checkExportStart(first []byte, format string) error {
	malformed := func(err error) error {
		return &upstream.Error{Op: "Portfolio/Download", Kind: upstream.ErrMalformed, Err: err}
	}
	b := bytes.TrimLeft(first, " \t\r\n\ufeff")
	if len(b) == 0 {
		return malformed(errors.New("handlers: export: the service sent an empty file"))
	}
	if msg, ok := failureEnvelope(b); ok {
		p := views.Problem{Status: http.StatusBadGateway, Title: "The export could not be made", Retry: true,
			Message: "The credit-risk service answered with an error instead of the file. Try again in a moment."}
		if msg != "" {
			p.Message = "The credit-risk service answered with an error instead of the file: “" + msg + "” Try again in a moment."
		}
		return &shownProblem{problem: p, err: malformed(errors.New("handlers: export: the service sent its failure as the file"))}
	}
	head := bytes.ToLower(b[:min(len(b), 64)])
	ok := true
	switch format {
	case "json":
		ok = b[0] == '[' || b[0] == '{'
	case "xml":
		ok = b[0] == '<' && !bytes.HasPrefix(head, []byte("<!doctype html")) && !bytes.HasPrefix(head, []byte("<html"))
	default: // csv: text, and neither markup nor JSON
		ok = b[0] != '<' && b[0] != '{' && b[0] != '[' && utf8.Valid(wholeRunes(b[:min(len(b), 1024)]))
	}
	if !ok {
		return malformed(fmt.Errorf("handlers: export: the service's %s file starts with %q", format, b[:min(len(b), 16)]))
	}
	return nil
}

// failureEnvelope finds the service's failure envelope, JSON or XML, at
// the start of an export, and the sentence it carries.
func failureEnvelope(b []byte) (msg string, ok bool) {
	if len(b) > 0 && b[0] == '{' {
		var env struct {
			Success *bool
			Data    any
		}
		if json.Unmarshal(b, &env) == nil && env.Success != nil && !*env.Success {
			text, _ := env.Data.(string)
			return views.Clip(text, 300), true
		}
		return "", false
	}
	var env struct {
		XMLName xml.Name `xml:"Response"`
		Success string   `xml:"Success"`
		Data    string   `xml:"Data"`
	}
	if len(b) > 0 && b[0] == '<' && xml.Unmarshal(b, &env) == nil && strings.EqualFold(strings.TrimSpace(env.Success), "false") {
		return views.Clip(strings.TrimSpace(env.Data), 300), true
	}
	return "", false
}

// wholeRunes drops a rune cut at the end of b.
func wholeRunes(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// exportOrigin is the page an export of folderID is offered on.
func exportOrigin(folderID int) string {
	if folderID > 0 {
		return "/portfolio/folders/" + strconv.Itoa(folderID)
	}
	return "/portfolio"
}

// exportFlash is what a portfolio page says after ?export=limited (the
// export met a spent hour) or ?export=busy (the user's exports were all
// running). Each is said only while it holds: a link kept from then, or
// typed, must not claim it later.
func (h *Handler) exportFlash(c *echo.Context) string {
	user := session.Must(c).User
	switch c.QueryParam("export") {
	case "busy":
		if h.exports.Full(user) {
			return views.ExportBusy(exportsPerUser)
		}
	case "limited":
		if h.hourSpent(user) {
			q, _ := h.cache.Quota(user)
			return views.ExportLimited(q.RenewsAt(), h.now())
		}
	}
	return ""
}

// hourSpent reports whether user is known to have no request left this
// hour, until a renewal still to come.
func (h *Handler) hourSpent(user string) bool {
	q, ok := h.cache.Quota(user)
	return ok && q.Remaining <= 0 && q.RenewsAt().After(h.now())
}

// exportRefused is the page of an export the service refused with a 429
// while the user's hour is not known to be spent.
func exportRefused(err error, folderID int, now time.Time) error {
	p := views.Problem{Status: http.StatusTooManyRequests, Title: "The export was refused for now",
		Message: "The credit-risk service refused the export just now. Try again in a few minutes.",
		Retry:   true, ActionURL: exportOrigin(folderID), ActionText: "Back to the portfolio"}
	var ue *upstream.Error
	if errors.As(err, &ue) {
		if ue.Message != "" {
			p.Message = "The credit-risk service refused the export: “" + ue.Message + "”"
		}
		if ue.RetryAfter > 0 {
			p.RenewsAt = now.Add(ue.RetryAfter)
		}
	}
	return &shownProblem{problem: p, err: err}
}

// exportContentTypes are the media types of the export's formats.
var exportContentTypes = map[string]string{"csv": "text/csv", "xml": "application/xml", "json": "application/json"}

// attachment is the Content-Disposition of a download: the ASCII name for
// every browser and, when the folder's name has letters beyond ASCII, the
// Unicode name too, in the RFC 2231 form the standard library writes.
func attachment(ascii, unicodeName string) string {
	v := mime.FormatMediaType("attachment", map[string]string{"filename": ascii})
	if unicodeName == "" || unicodeName == ascii {
		return v
	}
	// FormatMediaType writes a non-ASCII value as filename*=utf-8''...; its
	// parameter part is appended to the plain one.
	if u := mime.FormatMediaType("attachment", map[string]string{"filename": unicodeName}); u != "" {
		v += strings.TrimPrefix(u, "attachment")
	}
	return v
}
