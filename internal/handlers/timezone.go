package handlers

import (
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
)

// tzCookie carries the analyst's time zone, as js/tz.js reads it from the
// browser.
const tzCookie = "creditdash_tz"

// analystZone is the time zone the analyst's browser reported, or nil when
// it did not (or sent a name Go does not know): times are then in UTC
// alone.
func analystZone(c *echo.Context) *time.Location {
	ck, err := c.Cookie(tzCookie)
	if err != nil {
		return nil
	}
	name, err := url.QueryUnescape(ck.Value)
	if err != nil || name == "" || len(name) > 64 || name == "UTC" || strings.ContainsAny(name, ". \\") {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return loc
}
