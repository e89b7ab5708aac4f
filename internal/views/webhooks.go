package views

// WebhooksPage is /settings/webhooks: the team's endpoints, the form a
// manager registers one with, and the delivery log.
type WebhooksPage struct {
	Base
	// Manage: the user may register, remove and replay (a manager).
	Manage bool
	// Off: this dashboard runs no webhook deliveries.
	Off bool
	// AllowPrivate: private and loopback addresses are allowed here.
	AllowPrivate bool
	// URL and Events are the form's values (the user's own on a 422);
	// URLError and EventsError its messages.
	URL                   string
	Events                []WebhookEventChoice
	URLError, EventsError string
	// Error is a refusal not of one field (the bound on endpoints).
	Error string
	// Created is the endpoint just registered, with its secret shown
	// this once.
	Created *WebhookRow
	Secret  string
	// Endpoints are the team's; Max their bound.
	Endpoints []WebhookRow
	Max       int
	// Deliveries are the newest deliveries, newest first.
	Deliveries []DeliveryRow
}

// WebhookEventChoice is one event type of the form.
type WebhookEventChoice struct {
	Type    string
	Checked bool
}

// WebhookRow is one registered endpoint.
type WebhookRow struct {
	ID        string
	URL       string
	Events    string
	CreatedAt string
	CreatedBy string
}

// DeliveryRow is one delivery in the log.
type DeliveryRow struct {
	ID        string
	MessageID string
	Type      string
	URL       string
	Status    string
	// Code is the last answer's status ("" for none).
	Code     string
	Attempts int
	Error    string
	// Created and Last are when the event was dispatched and last tried.
	Created, Last string
	// Replays counts replays; Replayable offers the button.
	Replays    int
	Replayable bool
}
