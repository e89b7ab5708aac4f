package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/policy"
	"creditdash/internal/store"
	"creditdash/internal/validation"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Validation on the team's own history (issue 45): internal/validation
// reads the store and validates; here the run is kept per team version
// (every team write moves it), so the page and its two downloads work it
// out once between writes. Nothing here writes.

// validationPath is the page; its two downloads sit beside it.
const validationPath = "/policy/validation"

// validationVersion reads ?version=N: the policy version to validate, 0
// for the one in force.
func validationVersion(c *echo.Context) (int, error) {
	s := c.QueryParam("version")
	if s == "" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return 0, badInput("version is a version number of the team's policy, such as 2")
	}
	return v, nil
}

// validate is the team's validation of version (0: the scorecard in
// force), kept for the team's version.
func (h *Handler) validate(ctx context.Context, a store.Analyst, version int) (*validation.Run, error) {
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return nil, err
	}
	run, err := keptTeam(ctx, h, ts, "validation", strconv.Itoa(version), func(ctx context.Context) (*validation.Run, int, error) {
		h.validations.Add(1)
		run, err := validation.Validate(ctx, h.store, a, version)
		if err != nil {
			return nil, 0, err
		}
		return run, run.Weight(), nil
	})
	if errors.Is(err, validation.ErrNoVersion) {
		return nil, echo.ErrNotFound
	}
	return run, err
}

// validationRun reads the request's version and the kept run.
func (h *Handler) validationRun(c *echo.Context) (*validation.Run, error) {
	version, err := validationVersion(c)
	if err != nil {
		return nil, err
	}
	run, err := h.validate(c.Request().Context(), h.analyst(c), version)
	if err != nil && !errors.Is(err, echo.ErrNotFound) {
		return nil, accountsError(err)
	}
	return run, err
}

// showPolicyValidation shows each model's figures side by side, in
// words.
func (h *Handler) showPolicyValidation(c *echo.Context) error {
	run, err := h.validationRun(c)
	if err != nil {
		return err
	}
	page := views.NewPolicyValidationPage(run)
	page.Demo = h.sampleLedgers
	page.Base = h.base(c, nil, "Policy validation", views.NavAccounts)
	return h.render(c, http.StatusOK, templates.PolicyValidation(page))
}

// exportValidation writes validation.csv, or with scores
// validation/scores.csv; both empty but for the header without a
// history long enough.
func (h *Handler) exportValidation(scores bool) echo.HandlerFunc {
	return func(c *echo.Context) error {
		run, err := h.validationRun(c)
		if err != nil {
			return err
		}
		rep := run.Report
		if rep == nil {
			rep = &policy.Report{}
		}
		name := "validation.csv"
		if scores {
			name = "validation-scores.csv"
		}
		// A row per model, account and month-end: written to the
		// response as it is made (the scores of 50,000 accounts over 36
		// months are millions of rows), never as a whole file.
		hd := c.Response().Header()
		hd.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		hd.Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
		hd.Set("Cache-Control", "no-store")
		w := c.Response()
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(time.Now().Add(h.exportStall))
		w.WriteHeader(http.StatusOK)
		out := io.Writer(w)
		if scores {
			out = &stallWriter{w: w, rc: rc, stall: h.exportStall}
			var accounts []string
			if run.History != nil {
				accounts = run.History.Accounts
			}
			err = policy.WriteScores(out, rep, accounts, store.CSVCell)
		} else {
			err = policy.WriteSummary(out, rep)
		}
		if err != nil {
			h.abortDownload(c, 0, err)
		}
		return nil
	}
}

// stallWriter moves a long download's write deadline on as its bytes go
// out, so only a reader that stops is cut.
type stallWriter struct {
	w     io.Writer
	rc    *http.ResponseController
	stall time.Duration
}

// Write passes p on with the deadline renewed.
func (s *stallWriter) Write(p []byte) (int, error) {
	_ = s.rc.SetWriteDeadline(time.Now().Add(s.stall))
	return s.w.Write(p)
}
