package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/teamfigures"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// exposureData is what the exposure page and its download count.
type exposureData struct {
	figs    []credit.Figures
	summary credit.Summary
	dates   []string
	// folderNote says how accounts were put in folders.
	folderNote string
	ld         *loaded
	// team is the team's version the figures were read at; set holds
	// the figures and the version since which their lines stood.
	team teamState
	set  *teamfigures.Set
}

// exposure reads the newest ledger and groups it. Folders are the
// analyst's own portfolio's, read through the cache within the hourly
// budget (two calls); an account whose business several folders hold
// counts in the first of them by id, so shares still add up to one.
func (h *Handler) exposure(c *echo.Context) (*exposureData, error) {
	ctx := c.Request().Context()
	a := h.analyst(c)
	d := &exposureData{}
	var err error
	if d.dates, err = h.store.LedgerDates(ctx, a); err != nil {
		return nil, accountsError(err)
	}
	if len(d.dates) == 0 {
		return d, nil
	}
	if d.team, err = h.teamNow(ctx, a); err != nil {
		return nil, accountsError(err)
	}
	// The newest ledger's figures, kept as /accounts keeps them.
	if d.set, err = h.newestSet(ctx, d.team); err != nil {
		return nil, accountsError(err)
	}
	d.figs = d.set.Figs
	biz, err := keptTeam(ctx, h, d.team, "businesses", "", func(ctx context.Context) (map[int32]store.TeamBusiness, int, error) {
		m, err := h.store.TeamBusinesses(ctx, a)
		n := 0
		for _, b := range m {
			n += 64 + len(b.Name) + len(b.NAICS) + len(b.NAICSTitle)
		}
		return m, n, err
	})
	if err != nil {
		return nil, accountsError(err)
	}
	var members []upstream.PortfolioBusiness
	var folders []upstream.Folder
	var mErr, fErr error
	d.ld = h.load(c, section{name: "folders", calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) { members, mErr = src.PortfolioBusinesses(ctx, 0) },
		func(ctx context.Context, src Source) { folders, fErr = src.Folders(ctx) },
	}})
	names := map[int]string{}
	of := map[int32][]int{}
	if mErr == nil && fErr == nil {
		for _, f := range folders {
			names[f.FolderID] = f.FolderName
		}
		of = views.FoldersOf(members)
		d.folderNote = "Folders are those of your own portfolio; an account in several counts in the first of them."
	} else {
		d.folderNote = "Your portfolio's folders could not be read (requests spent this hour, or the service failed), so every account is under “not known”."
	}
	ps := make([]credit.Position, len(d.figs))
	for i, f := range d.figs {
		p := credit.Position{Account: f.Account.Account, Name: f.Name, Balance: f.Balance, Band: f.Band}
		if f.InDefault() {
			p.Default, p.LGD = true, f.Account.Default.LGD
		}
		if f.Z != nil {
			p.ZZone = views.ZScoreZone(f.Z.Value).Label
		}
		if b, ok := biz[f.BusinessID]; ok && b.NAICS != "" {
			p.Industry = b.NAICS + " " + b.NAICSTitle
		}
		if ids := of[f.BusinessID]; len(ids) > 0 && f.Linked() {
			first := slices.Min(ids)
			p.Folder = views.Clip(names[first], 80)
			if p.Folder == "" {
				p.Folder = "Folder " + strconv.Itoa(first)
			}
		}
		ps[i] = p
	}
	d.summary = credit.Summarise(ps)
	return d, nil
}

// showExposure shows the exposure page.
func (h *Handler) showExposure(c *echo.Context) error {
	d, err := h.exposure(c)
	if err != nil {
		return err
	}
	page := views.ExposurePage{Dates: d.dates, PDNote: credit.PDAssumption, FoldersNote: d.folderNote}
	page.Base = h.base(c, d.ld, "Exposure", views.NavAccounts)
	if len(d.dates) == 0 {
		return h.render(c, http.StatusOK, templates.Exposure(page))
	}
	page.Charts = true
	page.AsOf = d.dates[0]
	page.Summary, page.Breakdowns = views.NewExposureSummary(d.summary)
	page.Coverage = h.refreshCoverage(d.figs)
	if page.BandChart, err = views.ExposureBandChart(d.summary); err != nil {
		return err
	}
	status := http.StatusOK
	if err := h.fillBridge(c, &page, d); err != nil {
		return err
	}
	if page.BridgeNote != "" && c.QueryParam("from") != "" {
		status = http.StatusBadRequest
	}
	a := h.analyst(c)
	workOut := func(ctx context.Context) ([2][]views.DriftRow, int, error) {
		var failed error
		atRisk, headroom := credit.NewDrift(d.figs)
		at := views.DriftRows(atRisk, func(b int32) string {
			months, err := h.store.RiskMonths(ctx, a, b)
			if err != nil {
				failed = err
				return ""
			}
			return views.RiskFellIn(months)
		})
		room := views.DriftRows(headroom, nil)
		return [2][]views.DriftRow{at, room}, 256 * (len(at) + len(room)), failed
	}
	drift, err := keptTeam(c.Request().Context(), h, d.team, "drift", "", workOut)
	if err != nil {
		// Not kept: shown without the months not read, and read again next
		// time.
		h.logWorkspace(c, "limit drift", err)
		drift, _, _ = workOut(c.Request().Context())
	}
	page.Drift, page.Headroom = drift[0], drift[1]
	return h.render(c, status, templates.Exposure(page))
}

// fillBridge compares two ledger dates (from and to of the query, the two
// newest by default), each account at its Risk band as of its date, kept
// for the team's version. d holds the newest ledger's accounts, already
// read for the page.
func (h *Handler) fillBridge(c *echo.Context, page *views.ExposurePage, d *exposureData) error {
	dates := page.Dates
	if len(dates) < 2 {
		page.BridgeNote = "The bridge compares two ledger dates: import a second ledger to see it."
		return nil
	}
	page.To, page.From = dates[0], dates[1]
	if q := c.QueryParam("to"); q != "" {
		page.To = q
	}
	if q := c.QueryParam("from"); q != "" {
		page.From = q
	}
	if !slices.Contains(dates, page.From) || !slices.Contains(dates, page.To) || page.From >= page.To {
		page.BridgeNote = "Choose two of the team's ledger dates, the earlier first."
		page.From, page.To = views.Clip(page.From, 20), views.Clip(page.To, 20)
		return nil
	}
	a := h.analyst(c)
	newest := d.figs
	bridge, err := h.keptBridge(c.Request().Context(), d, page.From+" "+page.To, func(ctx context.Context) (*views.BridgeView, error) {
		return h.workOutBridge(ctx, a, dates[0], page.From, page.To, newest)
	})
	if err != nil {
		return accountsError(err)
	}
	page.Bridge = bridge
	return nil
}

// workOutBridge reads the two ledgers and the Risk as of each and splits
// the change; newest are the newest ledger's (of date newestDate) figures.
func (h *Handler) workOutBridge(ctx context.Context, a store.Analyst, newestDate, from, to string, newest []credit.Figures) (*views.BridgeView, error) {
	lines := func(date string) ([]credit.BridgeLine, map[string]string, error) {
		var accts []store.LedgerBalance
		if date == newestDate {
			accts = make([]store.LedgerBalance, len(newest))
			for i, f := range newest {
				accts[i] = store.LedgerBalance{Account: f.Account.Account, Name: f.Name, BusinessID: f.BusinessID, Balance: f.Balance}
			}
		} else {
			var err error
			if accts, err = h.store.LedgerBalances(ctx, a, date); err != nil {
				return nil, nil, err
			}
		}
		risk, err := h.store.RiskAsOf(ctx, a, monthOf(date))
		if err != nil {
			return nil, nil, err
		}
		out := make([]credit.BridgeLine, len(accts))
		names := make(map[string]string, len(accts))
		for i, acc := range accts {
			out[i] = credit.BridgeLine{Account: acc.Account, Name: acc.Name, BusinessID: acc.BusinessID, Balance: acc.Balance}
			if r, ok := risk[acc.BusinessID]; ok && acc.BusinessID != 0 {
				out[i].Band = credit.Band(r)
			}
			names[acc.Account] = acc.Name
		}
		return out, names, nil
	}
	old, oldNames, err := lines(from)
	if err != nil {
		return nil, err
	}
	cur, names, err := lines(to)
	if err != nil {
		return nil, err
	}
	for k, v := range oldNames {
		if _, ok := names[k]; !ok {
			names[k] = v
		}
	}
	return views.NewBridgeView(from, to, credit.NewBridge(old, cur), names), nil
}

// exportExposureCSV downloads the breakdowns.
func (h *Handler) exportExposureCSV(c *echo.Context) error {
	d, err := h.exposure(c)
	if err != nil {
		return err
	}
	return h.sendCSV(c, "exposure", views.ExposureCSVHeader, slices.Values(views.ExposureCSV(d.summary)))
}
