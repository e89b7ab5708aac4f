package views

import (
	"net/url"
	"strconv"
	"strings"

	"creditdash/internal/erp"
	"creditdash/internal/store"
)

// ERPExportPath is the worksheet of limits and holds back to the ERP; its
// file is ERPExportPath + ".csv?system=…".
const ERPExportPath = "/limits/export"

// MaxERPLinesShown bounds the worksheet's lines a page lists; the file
// holds them all.
const MaxERPLinesShown = 500

// ERPExportPage is the review-first worksheet: what changed since the last
// export, the file shapes, the exports so far and the threshold.
type ERPExportPage struct {
	Base
	// Lines are the worksheet's first lines; More how many the page leaves
	// to the file.
	Lines []ERPLineRow
	More  int
	// Limits, Holds and Releases count the whole worksheet.
	Limits, Holds, Releases int
	Systems                 []ERPSystem
	Exports                 []ERPExportRow
	// Threshold is the over-limit threshold in force; ThresholdValue what
	// was typed, ThresholdError why it was refused.
	Threshold, ThresholdValue, ThresholdError string
	// Manager shows the threshold's form; CanExport the record buttons.
	Manager, CanExport bool
}

// ERPLineRow is one line of the worksheet as the page shows it.
type ERPLineRow struct {
	Account, Name, Limit, Before, Action, Reasons string
	LimitChanged                                  bool
	// URL is the account's review page.
	URL string
}

// ERPSystem is one file shape with its preview link.
type ERPSystem struct {
	Name, Label, Note, Header, PreviewURL string
}

// ERPExportRow is one recorded export.
type ERPExportRow struct {
	System, By, At, Counts, FileURL string
}

// NewERPExportPage shapes the worksheet and the exports for the page.
func NewERPExportPage(lines []erp.Line, exports []store.ERPExport, threshold float64) ERPExportPage {
	p := ERPExportPage{Threshold: strconv.FormatFloat(threshold, 'f', -1, 64) + " %"}
	for i, l := range lines {
		if l.LimitChanged {
			p.Limits++
		}
		switch l.Action {
		case store.ERPHold:
			p.Holds++
		case store.ERPRelease:
			p.Releases++
		}
		if i >= MaxERPLinesShown {
			p.More++
			continue
		}
		r := ERPLineRow{Account: l.Account, Name: l.Name, Limit: Dash, Before: Dash, Action: "—", Reasons: l.ReasonsText(),
			LimitChanged: l.LimitChanged, URL: "/accounts/" + url.PathEscape(l.Account) + "/review"}
		if l.Limit != nil {
			r.Limit = Amount(*l.Limit)
		}
		if l.Before != nil {
			r.Before = Amount(*l.Before)
		}
		switch l.Action {
		case store.ERPHold:
			r.Action = "Hold"
		case store.ERPRelease:
			r.Action = "Release"
		}
		p.Lines = append(p.Lines, r)
	}
	for _, s := range erp.Systems {
		p.Systems = append(p.Systems, ERPSystem{Name: s.Name, Label: s.Label, Note: s.Note, Header: strings.Join(s.Header, ", "),
			PreviewURL: ERPExportPath + ".csv?system=" + s.Name})
	}
	for _, e := range exports {
		label := e.System
		if s, ok := erp.SystemNamed(e.System); ok {
			label = s.Label
		}
		p.Exports = append(p.Exports, ERPExportRow{System: label, By: e.By, At: DateTime(e.At),
			Counts:  Plural(e.Lines, "account") + ": " + Plural(e.Limits, "limit") + ", " + Plural(e.Holds, "hold") + ", " + Plural(e.Releases, "release"),
			FileURL: "/limits/exports/" + strconv.FormatInt(e.ID, 10) + "/file"})
	}
	return p
}
