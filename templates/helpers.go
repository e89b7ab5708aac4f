// Package templates holds the dashboard's templ components: the layout, one
// file per page, and partials. Components only loop and branch over the view
// models of internal/views; they do no I/O.
package templates

import (
	"strconv"

	"github.com/a-h/templ"

	"creditdash/internal/views"
)

func itoa(n int) string { return strconv.Itoa(n) }

// cellClass is a table cell's class attribute, for tables of hundreds of
// cells: templ's class={ } builds two maps per element (a sixth of all the
// bytes a busy dashboard allocated, by a heap profile under make loadtest),
// while a one-item ordered list writes the same attribute without them.
func cellClass(class string) templ.OrderedAttributes {
	if class == "" {
		return nil
	}
	return templ.OrderedAttributes{{Key: "class", Value: class}}
}

// problemRole announces failures at once; a section left unloaded on
// purpose is only status.
func problemRole(p *views.Problem) string {
	if p.Deferred {
		return "status"
	}
	return "alert"
}
