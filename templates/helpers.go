// Package templates holds the dashboard's templ components: the layout, one
// file per page, and partials. Components only loop and branch over the view
// models of internal/views; they do no I/O.
package templates

import "strconv"

func itoa(n int) string { return strconv.Itoa(n) }
