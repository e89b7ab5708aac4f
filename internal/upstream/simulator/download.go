package simulator

import (
	"bufio"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Download layouts (ours). Every format carries the same columns in the same
// order: CSV as a header line and one line per row, XML as
// <Portfolio><Business><Column>value</Column>...</Business>...</Portfolio>,
// JSON as an array of objects keyed by column. A missing value is an empty
// CSV field, an XML element with xsi:nil="true" and a JSON null. There is a
// row per folder membership, folder by folder.
//
// Standard: BusinessId, BusinessName, FolderId, FolderName, City, State,
// Country, NAICSCode, NAICSTitle (the primary code), Public (true/false),
// RiskScore, PayScore, DBTScore, ZScore: each score's latest value within
// the last three months of the business's data (Z-Score is quarterly), so
// an older value is never passed off as current.
//
// Scores: BusinessId, BusinessName, FolderId, then PayScore_YYYY-MM for each
// of the dataset's last 12 months, oldest first, then ZScore_YYYY-MM for the
// same months.
const (
	layoutStandard = "Standard"
	layoutScores   = "Scores"
	// latestLookback is how many months back a "latest" score may be.
	latestLookback = 3
	// scoreMonths is how many months the Scores layout spans.
	scoreMonths = 12
	// flushEvery is how many rows go out between flushes to the client.
	flushEvery = 1000
	// downloadBuffer is the size of the buffer in front of the connection.
	downloadBuffer = 64 << 10
)

// cellKind says how a value is written in JSON (and whether it is missing).
type cellKind uint8

const (
	cellNull cellKind = iota
	cellString
	cellNumber
	cellBool
)

// cell is one value of a download row, already formatted as text.
type cell struct {
	kind cellKind
	text string
}

// downloadRoutes are the portfolio download's operation, which writes its
// own body.
func (s *Server) downloadRoutes() routeTable {
	return routeTable{"/v1/Portfolio/Download": {http.MethodGet: {raw: s.download}}}
}

func str(s string) cell { return cell{cellString, s} }
func num(n int64) cell  { return cell{cellNumber, strconv.FormatInt(n, 10)} }

func intCell(p *int) cell {
	if p == nil {
		return cell{}
	}
	return num(int64(*p))
}

func floatCell(p *float64) cell {
	if p == nil {
		return cell{}
	}
	return cell{cellNumber, formatFloat(*p)}
}

// download answers Portfolio/Download: the file itself, not an envelope,
// written row by row so that a portfolio of any size streams in flat memory.
func (s *Server) download(w http.ResponseWriter, c *call) *apiError {
	format := strings.ToUpper(c.q.Get("format"))
	if format == "" {
		format = "CSV"
	}
	if format != "CSV" && format != "XML" && format != "JSON" {
		return errf(http.StatusBadRequest, CodeInvalidFormat, "format must be CSV, XML or JSON, not %q.", c.q.Get("format"))
	}
	layout := c.q.Get("Layout")
	switch {
	case layout == "" || strings.EqualFold(layout, layoutStandard):
		layout = layoutStandard
	case strings.EqualFold(layout, layoutScores):
		layout = layoutScores
	default:
		return errf(http.StatusBadRequest, CodeInvalidLayout, "Layout must be Standard or Scores, not %q.", layout)
	}
	var folder *Folder
	if raw := c.q.Get(paramFolderID); raw != "" {
		f, e := findFolder(c.acct, raw)
		if e != nil {
			return e
		}
		folder = f
	}
	columns, fillRow := s.layout(layout)

	name := "portfolio-" + safeName(c.acct.Username)
	if folder != nil {
		name += fmt.Sprintf("-folder-%d", folder.FolderID)
	}
	name += "-" + strings.ToLower(layout) + "." + strings.ToLower(format)
	h := w.Header()
	h.Set("Content-Type", map[string]string{
		"CSV": "text/csv", "XML": "application/xml", "JSON": "application/json",
	}[format]+"; charset=utf-8")
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)

	var out io.Writer = w
	if n := s.downloadFailAfter(); n > 0 {
		out = &abortWriter{w: w, left: n}
	}
	bw := bufio.NewWriterSize(out, downloadBuffer)
	rw := newRowWriter(format, bw, columns)
	flusher, _ := w.(http.Flusher)
	err := rw.begin()
	vals := make([]cell, len(columns))
	rows := 0
	s.eachMember(c.acct, folder, func(f *Folder, b *Business) bool {
		if err != nil {
			return false
		}
		fillRow(vals, f, b)
		if err = rw.row(vals); err != nil {
			return false
		}
		if rows++; rows%flushEvery == 0 {
			err = flushAll(rw, bw, flusher)
		}
		return err == nil
	})
	if err == nil {
		err = rw.end()
	}
	if err == nil {
		err = flushAll(rw, bw, flusher)
	}
	if err != nil {
		// The status is sent, so the client can only see a cut body; most
		// often it has gone away.
		s.log.Info("download cut short", "user", c.acct.Username, "rows", rows, "err", err)
	}
	return nil
}

func flushAll(rw rowWriter, bw *bufio.Writer, f http.Flusher) error {
	if err := rw.flush(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f != nil {
		f.Flush()
	}
	return nil
}

// safeName keeps letters, digits, '-' and '_' of a name for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return -1
	}, s)
}
