package api

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v5"
)

// Document is the API's OpenAPI 3.1 document: the contract the tests hold
// every answer to and redocly lints.
//
//go:embed openapi.json
var Document []byte

// showDocument is GET /api/v1/openapi.json; it needs no token.
func showDocument(c *echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.Blob(http.StatusOK, "application/json", Document)
}
