package handlers

import (
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Defaults named as such (issue 45): whichever page receives a story of a
// bankruptcy or insolvency filing naming a business the team's accounts
// are linked to (a folder's news, the industry news, the report's News and
// events) hands it to the store, which puts those accounts in default and
// audits it, attributed to that page and its user. Nothing is asked of the
// service for it, and a failing store loses only the record, never the
// page. A story already known, or older than a filing a manager cleared,
// writes nothing: the check runs on the team's kept filings first.

// teamNames are the team's linked businesses and the names they go by,
// kept per team version (an import or a link moves it).
func (h *Handler) teamNames(ctx context.Context, ts teamState) ([]views.TeamName, error) {
	return keptTeam(ctx, h, ts, "default-names", "", func(ctx context.Context) ([]views.TeamName, int, error) {
		figs, err := h.teamFiguresAt(ctx, ts, "")
		if err != nil {
			return nil, 0, err
		}
		known, err := h.store.TeamBusinesses(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		names := map[int32][]string{}
		for i := range figs {
			if id := figs[i].BusinessID; id != 0 && figs[i].Name != "" && !slices.Contains(names[id], figs[i].Name) {
				names[id] = append(names[id], figs[i].Name)
			}
		}
		out := make([]views.TeamName, 0, len(names))
		n := 0
		for id, ns := range names {
			if b, ok := known[id]; ok && b.Name != "" {
				ns = append(ns, b.Name)
			}
			out = append(out, views.NewTeamName(id, ns...))
			for _, s := range ns {
				n += 2*len(s) + 48
			}
		}
		slices.SortFunc(out, func(x, y views.TeamName) int { return int(x.ID) - int(y.ID) })
		return out, n + 64, nil
	})
}

// teamDefaults are the team's filings (store.Defaults), kept per version.
func (h *Handler) teamDefaults(ctx context.Context, ts teamState) ([]store.Default, error) {
	return keptTeam(ctx, h, ts, "defaults", "", func(ctx context.Context) ([]store.Default, int, error) {
		ds, err := h.store.Defaults(ctx, ts.a)
		n := 0
		for _, d := range ds {
			n += 256 + len(d.Title) + len(d.URL) + len(d.Source)
		}
		return ds, n, err
	})
}

// newFilings leaves out the filings the team already knows: one in force
// for the business, or one at least as new (cleared or not).
func newFilings(found []views.Filing, known []store.Default) []views.Filing {
	return slices.DeleteFunc(found, func(f views.Filing) bool {
		for _, d := range known {
			if d.BusinessID == f.BusinessID && (d.InForce() || !d.Published.Before(f.Published)) {
				return true
			}
		}
		return false
	})
}

// learnDefaults hands the filings a page's news reports of the team's
// businesses to the store, attributed to the page (source, in words, and
// its path) and the signed-in user. It returns how many were kept.
func (h *Handler) learnDefaults(c *echo.Context, ts teamState, source, sourceURL string, items []upstream.NewsItem) int {
	if len(items) == 0 || !ts.keep {
		return 0
	}
	ctx := h.wsCtx(c)
	names, err := h.teamNames(ctx, ts)
	if err != nil || len(names) == 0 {
		h.logWorkspace(c, "defaults: team names", err)
		return 0
	}
	found := views.FilingsIn(items, names, h.now())
	if len(found) == 0 {
		return 0
	}
	return h.recordFilings(c, ts, source, sourceURL, found)
}

// recordFilings keeps the filings the team does not know yet.
func (h *Handler) recordFilings(c *echo.Context, ts teamState, source, sourceURL string, found []views.Filing) int {
	ctx := h.wsCtx(c)
	known, err := h.teamDefaults(ctx, ts)
	if err != nil {
		h.logWorkspace(c, "defaults: read", err)
		return 0
	}
	found = newFilings(found, known)
	if len(found) == 0 {
		return 0
	}
	ds := make([]store.Default, len(found))
	for i, f := range found {
		ds[i] = store.Default{BusinessID: f.BusinessID, Kind: f.Kind, Title: f.Title, URL: f.URL, Published: f.Published,
			Source: source, SourceURL: sourceURL}
	}
	n, err := h.store.RecordDefaults(ctx, ts.a, ds)
	if err != nil {
		h.logWorkspace(c, "defaults: record", err)
	}
	return n
}

// reportDefault learns the filing the report's News and events found, and
// answers the business's default in force, whichever page learned it.
func (h *Handler) reportDefault(c *echo.Context, ld *loaded, id int32, news *views.ReportNews) *views.DefaultBanner {
	if id == 0 {
		return nil
	}
	ts := h.teamOf(c, ld)
	if !ts.keep {
		return nil
	}
	ctx := h.wsCtx(c)
	fresh := false
	if news != nil && news.Event != nil {
		names, err := h.teamNames(ctx, ts)
		if err != nil {
			h.logWorkspace(c, "defaults: team names", err)
		} else if slices.ContainsFunc(names, func(n views.TeamName) bool { return n.ID == id }) {
			e := news.Event
			f := views.Filing{BusinessID: id, Kind: e.Kind, Title: e.Title, URL: e.URL, Published: e.Published}
			fresh = h.recordFilings(c, ts, "the report's News and events (a story from "+e.Source+")", pageURL(c).Path, []views.Filing{f}) > 0
		}
	}
	var known []store.Default
	var err error
	if fresh {
		known, err = h.store.Defaults(ctx, ts.a) // this very page moved the version
	} else {
		known, err = h.teamDefaults(ctx, ts)
	}
	if err != nil {
		h.logWorkspace(c, "defaults: read", err)
		return nil
	}
	for i := range known {
		if known[i].BusinessID == id && known[i].InForce() {
			return views.NewDefaultBanner(&known[i])
		}
	}
	return nil
}

// showDefaults lists the team's filings, in force and cleared, with the
// managers' forms.
func (h *Handler) showDefaults(c *echo.Context) error {
	return h.defaultsPage(c, http.StatusOK, views.DefaultsPage{})
}

// defaultsPage renders the page with what a refused form brings back.
func (h *Handler) defaultsPage(c *echo.Context, status int, page views.DefaultsPage) error {
	ctx, a := c.Request().Context(), h.analyst(c)
	ds, err := h.store.Defaults(ctx, a)
	if err != nil {
		return accountsError(err)
	}
	lgd, err := h.store.LGD(ctx, a)
	if err != nil {
		return accountsError(err)
	}
	page.LGD = views.LGDText(lgd)
	if page.LGDValue == "" {
		page.LGDValue = strconv.FormatFloat(lgd*100, 'f', -1, 64)
	}
	for _, d := range ds {
		if d.InForce() {
			page.InForce = append(page.InForce, views.NewDefaultRow(d))
		} else {
			page.Cleared = append(page.Cleared, views.NewDefaultRow(d))
		}
	}
	page.Manager = h.rolesNow(c).Of(a.User).Role.May(roles.Decide)
	page.Base = h.base(c, nil, "Defaults", views.NavAccounts)
	switch c.QueryParam("done") {
	case "cleared":
		page.Flash = "The default was cleared; the decision is in the audit trail."
	case "lgd":
		page.Flash = "The loss given default was set; the change is in the audit trail."
	}
	return h.render(c, status, templates.Defaults(page))
}

// submitClearDefault is a manager's decision that a default no longer
// holds: a note is required (422 keeping it); the role is checked by
// guardRoles (roles.Decide).
func (h *Handler) submitClearDefault(c *echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return echo.ErrNotFound
	}
	note := strings.TrimSpace(c.FormValue("note"))
	refuse := func(msg string) error {
		if utf8.RuneCountInString(note) > store.MaxRequestReasonLen+100 {
			note = string([]rune(note)[:store.MaxRequestReasonLen+100])
		}
		return h.defaultsPage(c, http.StatusUnprocessableEntity, views.DefaultsPage{ClearID: id, ClearNote: note, ClearError: msg})
	}
	switch {
	case note == "":
		return refuse("Write why the default no longer holds: the note is required and kept in the audit trail.")
	case utf8.RuneCountInString(note) > store.MaxRequestReasonLen:
		return refuse("Keep the note to 2,000 characters.")
	}
	_, err = h.store.ClearDefault(c.Request().Context(), h.analyst(c), id, note)
	var ve *store.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.As(err, &ve):
		return refuse(ve.Message)
	case err != nil:
		return accountsError(err)
	}
	return c.Redirect(http.StatusSeeOther, views.DefaultsPath+"?done=cleared")
}

// submitLGD sets the team's loss given default, a percentage typed as an
// amount (internal/amount); a manager's (roles.SetPolicy).
func (h *Handler) submitLGD(c *echo.Context) error {
	typed := views.Clip(strings.TrimSpace(c.FormValue("lgd")), 40)
	v, ok, err := amount.Typed(strings.TrimSpace(strings.TrimSuffix(typed, "%")))
	problem := ""
	switch {
	case err != nil:
		problem = err.Error() + "."
	case !ok || math.IsNaN(v) || v < 0 || v > 100:
		problem = "Type a percentage from 0 to 100, such as 60 or 45.5."
	}
	if problem != "" {
		return h.defaultsPage(c, http.StatusUnprocessableEntity, views.DefaultsPage{LGDValue: typed, LGDError: problem})
	}
	if err := h.store.SetLGD(c.Request().Context(), h.analyst(c), v/100); err != nil {
		return accountsError(err)
	}
	return c.Redirect(http.StatusSeeOther, views.DefaultsPath+"?done=lgd")
}
