package views

import (
	"net/url"
	"strconv"

	"creditdash/internal/upstream"
)

// BusinessTab names one tab of the business report; its value is the last
// segment of the tab's URL ("" for the overview at the bare path).
type BusinessTab string

// The tabs of the business report, in the order they are shown.
const (
	TabOverview   BusinessTab = ""
	TabPayments   BusinessTab = "payments"
	TabFinancials BusinessTab = "financials"
	TabOfficers   BusinessTab = "officers"
)

var businessTabs = [...]struct {
	tab   BusinessTab
	label string
}{
	{TabOverview, "Overview"},
	{TabPayments, "Payments"},
	{TabFinancials, "Financials"},
	{TabOfficers, "Officers"},
}

// Label is the tab's name as people read it.
func (t BusinessTab) Label() string {
	for _, bt := range businessTabs {
		if bt.tab == t {
			return bt.label
		}
	}
	return "Overview"
}

// tabOverviewName is the overview's name where a tab is named in words
// (a form's value, a stored copy), since its path segment is empty.
const tabOverviewName = "overview"

// Name is the tab's name in forms and dated copies: "overview",
// "payments", "financials", "officers".
func (t BusinessTab) Name() string {
	if t == TabOverview {
		return tabOverviewName
	}
	return string(t)
}

// ParseBusinessTab reads a tab's name; ok is false for a name that is not
// one of the report's tabs.
func ParseBusinessTab(name string) (t BusinessTab, ok bool) {
	for _, bt := range businessTabs {
		if bt.tab.Name() == name {
			return bt.tab, true
		}
	}
	return TabOverview, false
}

// BusinessTabNames lists the tabs' names in the order they are shown.
func BusinessTabNames() []string {
	out := make([]string, 0, len(businessTabs))
	for _, bt := range businessTabs {
		out = append(out, bt.tab.Name())
	}
	return out
}

// BusinessPath is the path of a tab of the report on ref. It keeps the kind
// of identifier the user came with, so a supplier's link stays a supplier's
// link when it is shared.
func BusinessPath(ref upstream.BusinessRef, tab BusinessTab) string {
	var p string
	switch ref.Kind() {
	case upstream.RefCustomer:
		p = "/customers/" + url.PathEscape(ref.External())
	case upstream.RefSupplier:
		p = "/suppliers/" + url.PathEscape(ref.External())
	default:
		p = "/businesses/" + strconv.FormatInt(int64(ref.ID()), 10)
	}
	if tab != TabOverview {
		p += "/" + string(tab)
	}
	return p
}

// BusinessHeader is what every tab of the report shows above its content.
type BusinessHeader struct {
	// Name is the business name, or "Business {identifier}" when the
	// service does not offer IdentificationGroup.
	Name string
	// Named is false when Name is only the identifier.
	Named bool
	// Location is "Columbus, OH, US", or "" when unknown.
	Location string
	// Facts are short labels: identifiers, ticker, public or private.
	Facts []string
	NAICS []NAICSItem
	// NAICSProblem replaces the industry codes when their call failed.
	NAICSProblem *Problem
	Tabs         []TabLink
	// ShareURL is this page's absolute address, to paste into an e-mail.
	ShareURL string
	// AlertURL opens the rule form for this business ("Alert me"); ""
	// when the business's id is not known.
	AlertURL string
	// News is the stories naming the business among the news already
	// fetched, with its credit event; nil on a dated copy.
	News *ReportNews
	// Default is the team's default in force for the business, whichever
	// page learned it; nil for none and on a dated copy.
	Default *DefaultBanner
}

// NAICSItem is an industry code and its title.
type NAICSItem struct {
	Code  string
	Title string
}

// TabLink is one tab of the report; Current marks the page being shown.
type TabLink struct {
	Label   string
	URL     string
	Current bool
}

// NewBusinessHeader builds the header. ident is nil when the service does
// not offer IdentificationGroup; naics may be empty.
func NewBusinessHeader(ref upstream.BusinessRef, ident *upstream.Identification, naics []upstream.NAICSCode, tab BusinessTab, shareURL string) BusinessHeader {
	h := BusinessHeader{ShareURL: shareURL, NAICS: NAICSItems(naics)}
	if ident != nil && ident.BusinessName != "" {
		h.Name, h.Named = ident.BusinessName, true
	} else {
		h.Name = "Business " + refText(ref)
	}
	switch ref.Kind() {
	case upstream.RefCustomer:
		h.Facts = append(h.Facts, "Customer id "+ref.External())
	case upstream.RefSupplier:
		h.Facts = append(h.Facts, "Supplier id "+ref.External())
	}
	if ident != nil {
		h.Location = Location(ident.City, ident.State, ident.Country)
		if ident.BusinessID > 0 {
			h.Facts = append(h.Facts, "Business id "+strconv.FormatInt(int64(ident.BusinessID), 10))
		}
		if ident.Ticker != "" {
			h.Facts = append(h.Facts, "Ticker "+ident.Ticker)
		}
		if ident.Public {
			h.Facts = append(h.Facts, "Public company")
		} else {
			h.Facts = append(h.Facts, "Private company")
		}
	} else if ref.Kind() == upstream.RefID {
		h.Facts = append(h.Facts, "Business id "+refText(ref))
	}
	for _, bt := range businessTabs {
		h.Tabs = append(h.Tabs, TabLink{Label: bt.label, URL: BusinessPath(ref, bt.tab), Current: bt.tab == tab})
	}
	return h
}

// refText is the bare identifier: "1001" or "S-1001".
func refText(ref upstream.BusinessRef) string {
	if ref.Kind() == upstream.RefID {
		return strconv.FormatInt(int64(ref.ID()), 10)
	}
	return ref.External()
}

// NAICSItems lists industry codes as the header and officers tab show them.
func NAICSItems(codes []upstream.NAICSCode) []NAICSItem {
	out := make([]NAICSItem, 0, len(codes))
	for _, c := range codes {
		out = append(out, NAICSItem{Code: c.Code, Title: c.Name})
	}
	return out
}
