package api

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Alert is one of the token holder's triggered alerts: a rule of theirs
// that a business's score set off in a month.
type Alert struct {
	ID           string   `json:"id"`
	BusinessID   int32    `json:"business_id"`
	BusinessName string   `json:"business_name"`
	Month        string   `json:"month"`
	Score        string   `json:"score"`
	Condition    string   `json:"condition"`
	Threshold    float64  `json:"threshold"`
	Previous     *float64 `json:"previous"`
	Value        float64  `json:"value"`
	RaisedAt     string   `json:"raised_at"`
	Read         bool     `json:"read"`
}

// AlertList is the token holder's newest alerts.
type AlertList struct {
	Alerts []Alert `json:"alerts"`
}

// listAlerts is GET /api/v1/alerts: the token holder's newest triggered
// alerts (alerts are each member's own, from their own rules), newest
// first, at most limit (100).
func (a *API) listAlerts(c *echo.Context) error {
	if err := a.may(c, roles.Read); err != nil {
		return err
	}
	var errs []FieldError
	n := pageSize(c, &errs)
	if errs != nil {
		return invalid(errs)
	}
	alerts, err := a.store.Alerts(c.Request().Context(), a.analyst(c), n)
	if err != nil {
		return err
	}
	out := AlertList{Alerts: make([]Alert, 0, len(alerts))}
	for _, al := range alerts {
		out.Alerts = append(out.Alerts, newAlert(al))
	}
	return c.JSON(http.StatusOK, out)
}

// newAlert writes a store alert for the API.
func newAlert(al store.Alert) Alert {
	return Alert{ID: strconv.FormatInt(al.ID, 10), BusinessID: al.BusinessID, BusinessName: al.BusinessName,
		Month: fmt.Sprintf("%04d-%02d", al.Year, int(al.Month)), Score: string(al.Rule.Score), Condition: string(al.Rule.Condition),
		Threshold: al.Rule.Threshold, Previous: al.Old, Value: al.New, RaisedAt: stamp(al.Created), Read: !al.Unread()}
}
