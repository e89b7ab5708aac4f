package handlers

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strconv"

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
		run, err := validation.Validate(ctx, h.store, a, version, policy.StandardDefinition)
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
	page := views.NewPolicyValidationPage(run, policy.StandardDefinition)
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
		var b bytes.Buffer
		name := "validation.csv"
		if scores {
			name = "validation-scores.csv"
			var accounts []string
			if run.History != nil {
				accounts = run.History.Accounts
			}
			err = policy.WriteScores(&b, rep, accounts, store.CSVCell)
		} else {
			err = policy.WriteSummary(&b, rep)
		}
		if err != nil {
			return err
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", b.Bytes())
	}
}
