package views

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"creditdash/internal/upstream"
)

// ExportFormat is one file format of the portfolio export.
type ExportFormat struct {
	// Param is how the export URL spells it: csv, xml or json.
	Param string
	Label string
	// Wire is the service's name for it.
	Wire string
	Ext  string
}

// exportFormats are the formats in the order the buttons show them.
var exportFormats = []ExportFormat{
	{"csv", "CSV", upstream.FormatCSV, "csv"},
	{"xml", "XML", upstream.FormatXML, "xml"},
	{"json", "JSON", upstream.FormatJSON, "json"},
}

// LookupExportFormat finds a format by its parameter, in any case.
func LookupExportFormat(param string) (ExportFormat, bool) {
	for _, f := range exportFormats {
		if strings.EqualFold(f.Param, param) {
			return f, true
		}
	}
	return ExportFormat{}, false
}

// ExportLayouts are the layouts the export offers: the service's two (ours,
// see CONTRACT-CHOICES). Other names are passed on for the service to judge.
var ExportLayouts = []ExportOption{
	{Value: upstream.LayoutStandard, Label: "Standard (latest scores and details)"},
	{Value: upstream.LayoutScores, Label: "Scores (12 months of Pay and Z″)"},
}

// ExportOption is one choice of the export form.
type ExportOption struct{ Value, Label string }

// ExportForm is the export buttons of a page: a layout choice and one
// button per format, for one folder or the whole portfolio.
type ExportForm struct {
	// FolderID is "" for the whole portfolio.
	FolderID string
	Layouts  []ExportOption
	Formats  []ExportOption
}

// NewExportForm builds the form for a folder (0: the whole portfolio).
func NewExportForm(folderID int) ExportForm {
	f := ExportForm{Layouts: ExportLayouts}
	if folderID > 0 {
		f.FolderID = strconv.Itoa(folderID)
	}
	for _, ef := range exportFormats {
		f.Formats = append(f.Formats, ExportOption{Value: ef.Param, Label: ef.Label})
	}
	return f
}

// maxSlug bounds the folder part of a file name, in runes.
const maxSlug = 60

// ExportFileName names an export "portfolio-<folder or all>-<YYYY-MM-DD>.<ext>".
// ascii is safe in any header and on any file system; unicode keeps the
// letters of a folder name in other scripts, and equals ascii when it has
// none. A folder whose name leaves no letters is called folder-<id>.
func ExportFileName(folderName string, folderID int, day time.Time, ext string) (ascii, unicode string) {
	part, uniPart := "all", "all"
	if folderID > 0 {
		part, uniPart = slug(folderName, false), slug(folderName, true)
		if part == "" {
			part = "folder-" + strconv.Itoa(folderID)
		}
		if uniPart == "" {
			uniPart = part
		}
	}
	tail := "-" + day.Format("2006-01-02") + "." + ext
	return "portfolio-" + part + tail, "portfolio-" + uniPart + tail
}

// slug lowers a name to letters and digits joined by single hyphens; with
// keepUnicode false only ASCII letters and digits survive.
func slug(s string, keepUnicode bool) string {
	var b strings.Builder
	n := 0
	pendingDash := false
	for _, r := range strings.ToLower(s) {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
		if keepUnicode && r >= utf8.RuneSelf {
			ok = unicode.IsLetter(r) || unicode.IsDigit(r)
		}
		if !ok {
			pendingDash = b.Len() > 0
			continue
		}
		if n >= maxSlug {
			break
		}
		if pendingDash {
			b.WriteByte('-')
			n++
			pendingDash = false
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimRight(b.String(), "-")
}

// ExportLimited says an export could not run for want of requests this
// hour, and when it can (renews zero: not known).
func ExportLimited(renews, now time.Time) string {
	msg := "The export was not started: your account has no requests left this hour."
	if !renews.IsZero() {
		msg += " The limit renews at " + Clock(renews) + ", in " + Until(renews, now) + "."
	}
	return msg
}

// ExportBusy says an export was not started because the user already has
// n running.
func ExportBusy(n int) string {
	return "The export was not started: you already have " + Int(int64(n)) +
		" exports downloading. Start it again once one of them has finished."
}
