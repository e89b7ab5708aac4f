package views

import "strconv"

// PageSizes are the page sizes the scores page offers; the first is the default.
var PageSizes = []int{25, 50, 100}

// Pager is the paging of a list of Total rows, Size at a time; Page counts
// from 1. URLs are "" where the link would lead nowhere (the first page has
// no previous).
type Pager struct {
	Page, Size, Total int
	// Last is the last page, 1 for an empty list.
	Last int
	// FirstRow and LastRow are 1-based and inclusive; both 0 when the page
	// holds no rows.
	FirstRow, LastRow          int
	FirstURL, PrevURL, NextURL string
	LastURL                    string
}

// NewPager pages total rows; pageURL builds the link to a page.
func NewPager(page, size, total int, pageURL func(page int) string) Pager {
	size = max(size, 1)
	total = max(total, 0)
	page = max(page, 1)
	p := Pager{Page: page, Size: size, Total: total, Last: max((total+size-1)/size, 1)}
	if first := (page-1)*size + 1; first <= total {
		p.FirstRow, p.LastRow = first, min(page*size, total)
	}
	if page > 1 {
		p.FirstURL = pageURL(1)
		p.PrevURL = pageURL(min(page-1, p.Last))
	}
	if page < p.Last {
		p.NextURL = pageURL(page + 1)
	}
	if page != p.Last {
		p.LastURL = pageURL(p.Last) // also the way back from past the end
	}
	return p
}

// StartRow and EndRow are the service's row range of the page.
func (p Pager) StartRow() int { return (p.Page-1)*p.Size + 1 }

// EndRow is the last row the page asks the service for.
func (p Pager) EndRow() int { return p.Page * p.Size }

// PastEnd reports whether the page lies beyond the last one.
func (p Pager) PastEnd() bool { return p.Page > p.Last }

// Summary says which rows are shown: "rows 26–50 of 96".
func (p Pager) Summary() string {
	if p.FirstRow == 0 {
		return "no rows of " + Int(int64(p.Total))
	}
	return "rows " + Int(int64(p.FirstRow)) + "–" + Int(int64(p.LastRow)) + " of " + Int(int64(p.Total))
}

// Position says "page 2 of 4".
func (p Pager) Position() string {
	return "page " + strconv.Itoa(p.Page) + " of " + strconv.Itoa(p.Last)
}

// ScoresPage is /portfolio/scores: one page of the portfolio's monthly Pay
// or Z″ scores as a heat map chart and a table.
type ScoresPage struct {
	Base
	Form ScoresForm
	// Notices explain input that was refused and what was used instead.
	Notices []string
	Map     HeatMap
	// Chart is nil when there is nothing to draw (or drawing failed; the
	// table still shows everything).
	Chart *Chart
	Pager Pager
	// PastEnd is set when the page asked for lies beyond the last one.
	PastEnd bool
	Problem *Problem
}

// ScoresForm is what the scores page's form shows.
type ScoresForm struct {
	Score    PortfolioScore
	From, To string // YYYY-MM or ""
	Size     int
	Sizes    []int
	Scores   []ExportOption
	// Folder narrows the map to one folder ("" for all); Worst orders it
	// by the latest score, worst first.
	Folder string
	Worst  bool
}

// NewScoresForm fills the form's choices.
func NewScoresForm(score PortfolioScore, from, to string, size int) ScoresForm {
	return ScoresForm{Score: score, From: from, To: to, Size: size, Sizes: PageSizes,
		Scores: []ExportOption{{string(PortfolioPay), PortfolioPay.Name()}, {string(PortfolioZ), PortfolioZ.Name()}}}
}

// HeatSize is the chart's height class for a page of rows.
func HeatSize(rows int) string {
	switch {
	case rows <= 25:
		return "heat-25"
	case rows <= 50:
		return "heat-50"
	default:
		return "heat-100"
	}
}
