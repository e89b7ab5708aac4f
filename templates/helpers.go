// Package templates holds the dashboard's templ components: the layout, one
// file per page, and partials. Components only loop and branch over the view
// models of internal/views; they do no I/O.
package templates

import (
	"strconv"

	"creditdash/internal/views"
)

func itoa(n int) string { return strconv.Itoa(n) }

// problemRole announces failures at once; a section left unloaded on
// purpose is only status.
func problemRole(p *views.Problem) string {
	if p.Deferred {
		return "status"
	}
	return "alert"
}
