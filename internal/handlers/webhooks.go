package handlers

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// webhooksPath is the team's webhooks page (issue 46): everyone of the
// team reads where its events go; managers register, remove and replay
// (roles.ManageWebhooks, in postActions).
const webhooksPath = "/settings/webhooks"

// webhookFlashes are the one-time words of ?done= after a change.
var webhookFlashes = map[string]string{
	"removed":  "Endpoint removed; its deliveries not yet made are given up.",
	"replayed": "Delivery queued again, as the same message (same webhook-id).",
}

// webhooksPage fills the page from the team's endpoints and log.
func (h *Handler) webhooksPage(c *echo.Context) (views.WebhooksPage, error) {
	ctx, a := c.Request().Context(), h.analyst(c)
	p := views.WebhooksPage{Manage: h.webhooks != nil && h.rolesNow(c).Of(session.Must(c).User).Role.May(roles.ManageWebhooks),
		Off: h.webhooks == nil, Max: store.MaxWebhooks}
	if h.webhooks != nil {
		p.AllowPrivate = h.webhooks.AllowPrivate()
	}
	ws, err := h.store.Webhooks(ctx, a)
	if err != nil {
		return p, err
	}
	for _, w := range ws {
		p.Endpoints = append(p.Endpoints, webhookRow(w))
	}
	ds, err := h.store.WebhookDeliveries(ctx, a)
	if err != nil {
		return p, err
	}
	for _, d := range ds {
		r := views.DeliveryRow{ID: strconv.FormatInt(d.ID, 10), MessageID: d.MessageID(), Type: d.Type, URL: d.URL,
			Status: d.Status, Attempts: d.Attempts, Error: d.Error, Created: views.DateTime(d.CreatedAt),
			Replays: d.Round, Replayable: d.Done()}
		if d.ResponseCode != 0 {
			r.Code = strconv.Itoa(d.ResponseCode)
		}
		if !d.LastAttemptAt.IsZero() {
			r.Last = views.DateTime(d.LastAttemptAt)
		}
		p.Deliveries = append(p.Deliveries, r)
	}
	p.Events = eventChoices(nil)
	return p, nil
}

// webhookRow is an endpoint as the page lists it.
func webhookRow(w store.Webhook) views.WebhookRow {
	return views.WebhookRow{ID: strconv.FormatInt(w.ID, 10), URL: w.URL, Events: strings.Join(w.Events, ", "),
		CreatedAt: views.DateTime(w.CreatedAt), CreatedBy: w.CreatedBy}
}

// eventChoices are the form's checkboxes, the checked ones ticked.
func eventChoices(checked []string) []views.WebhookEventChoice {
	out := make([]views.WebhookEventChoice, 0, len(store.EventTypes))
	for _, t := range store.EventTypes {
		out = append(out, views.WebhookEventChoice{Type: t, Checked: slices.Contains(checked, t)})
	}
	return out
}

func (h *Handler) renderWebhooks(c *echo.Context, status int, p views.WebhooksPage) error {
	p.Base = h.base(c, nil, "Webhooks", views.NavAccounts)
	p.Flash = webhookFlashes[c.QueryParam("done")]
	return h.render(c, status, templates.Webhooks(p))
}

// showWebhooks is /settings/webhooks; on a dashboard without webhook
// deliveries it says so and offers no form.
func (h *Handler) showWebhooks(c *echo.Context) error {
	p, err := h.webhooksPage(c)
	if err != nil {
		return workspaceError(err)
	}
	return h.renderWebhooks(c, http.StatusOK, p)
}

// submitWebhook registers an endpoint: the page comes back with its
// secret, shown this once (never in a URL, so no redirect). Refused input
// is 422 with what was typed and chosen kept.
func (h *Handler) submitWebhook(c *echo.Context) error {
	if h.webhooks == nil {
		return echo.ErrNotFound
	}
	ctx, a := c.Request().Context(), h.analyst(c)
	if err := c.Request().ParseForm(); err != nil {
		return badInput("The form could not be read.")
	}
	raw := c.Request().PostForm.Get("url")
	var events []string
	for _, e := range c.Request().PostForm["events"] {
		if store.ValidEventType(e) && !slices.Contains(events, e) {
			events = append(events, e)
		}
	}
	w, err := h.webhooks.Add(ctx, a, raw, events)
	var ve *store.ValidationError
	if errors.As(err, &ve) || errors.Is(err, store.ErrWebhooksFull) {
		p, perr := h.webhooksPage(c)
		if perr != nil {
			return workspaceError(perr)
		}
		p.URL, p.Events = views.Clip(raw, store.MaxWebhookURLLen+10), eventChoices(events)
		switch {
		case ve != nil && ve.Field == "url":
			p.URLError = storeMessage(err)
		case ve != nil && ve.Field == "events":
			p.EventsError = storeMessage(err)
		default:
			p.Error = storeMessage(err)
		}
		showAt(c, webhooksPath)
		return h.renderWebhooks(c, http.StatusUnprocessableEntity, p)
	}
	if err != nil {
		return workspaceError(err)
	}
	p, err := h.webhooksPage(c)
	if err != nil {
		return workspaceError(err)
	}
	row := webhookRow(w)
	p.Created, p.Secret = &row, w.Secret
	showAt(c, webhooksPath)
	return h.renderWebhooks(c, http.StatusCreated, p)
}

// submitRemoveWebhook removes one of the team's endpoints.
func (h *Handler) submitRemoveWebhook(c *echo.Context) error {
	if h.webhooks == nil {
		return echo.ErrNotFound
	}
	id, err := rowID(c)
	if err != nil {
		return err
	}
	if err := h.store.RemoveWebhook(c.Request().Context(), h.analyst(c), id); err != nil {
		return workspaceError(err)
	}
	return redirect(c, webhooksPath+"?done=removed")
}

// submitReplayDelivery sends a finished delivery again as the same
// message; one still being tried is refused (400, saying so).
func (h *Handler) submitReplayDelivery(c *echo.Context) error {
	if h.webhooks == nil {
		return echo.ErrNotFound
	}
	id, err := rowID(c)
	if err != nil {
		return err
	}
	if err := h.webhooks.Replay(c.Request().Context(), h.analyst(c), id); err != nil {
		return workspaceError(err)
	}
	return redirect(c, webhooksPath+"?done=replayed")
}
