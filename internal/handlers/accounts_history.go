package handlers

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/ledger/demohistory"
	"creditdash/internal/store"
	"creditdash/internal/upstream/simulator"
	"creditdash/templates"
)

// demoHistoryPath imports the demo ledger history (demo mode only).
const demoHistoryPath = "/accounts/import/history"

// DemoHistoryLabel is the history's button: it names what it imports.
const DemoHistoryLabel = "Import 36 months of demo ledger history"

// demoSeed is the seed of the demo data the sample ledgers and the
// history are made from, as the stand-in's default.
const demoSeed = 1

// submitDemoHistory imports the demo portfolio's 36 month-end ledgers,
// each through the store's import as a ledger file would be (one
// transaction, audited), oldest first, then shows the validation. The
// ledgers end at the end of last month, the stand-in's latest month, so
// their arrears line up with the score histories it serves.
func (h *Handler) submitDemoHistory(c *echo.Context) error {
	if !h.sampleLedgers {
		return echo.ErrNotFound
	}
	a := h.analyst(c)
	now := h.now().UTC()
	latest := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)
	months := demohistory.Build(simulator.Generate(simulator.GenerateOptions{Seed: demoSeed, AsOf: latest}))
	ctx := c.Request().Context()
	for _, m := range months {
		_, err := h.store.ImportLedger(ctx, a, store.ImportSpec{AsOf: m.AsOf, File: "demo-ledger-history-" + m.AsOf.Format("2006-01") + ".csv", Lines: m.Lines})
		if err != nil {
			var ve *store.ValidationError
			if errors.As(err, &ve) || errors.Is(err, store.ErrAccountsFull) {
				page := h.importPage(c, now.Format(store.DateLayout))
				page.FileError = storeMessage(err)
				return h.render(c, http.StatusUnprocessableEntity, templates.AccountsImport(page))
			}
			return accountsError(err)
		}
	}
	return redirect(c, validationPath)
}
