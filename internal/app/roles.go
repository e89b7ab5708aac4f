package app

import (
	"context"
	"log/slog"
	"time"

	"creditdash/internal/roles"
)

// recordRoles logs the roles in force into the team's audit trail when they
// differ from the last ones recorded (once, however many replicas start).
// A database that answers now records them before the first page; one that
// does not is waited for in the background, as the store itself waits, so
// a degraded start still records them when it comes.
func (a *App) recordRoles(ctx context.Context, t *roles.Table, log *slog.Logger) {
	if a.Store.Unavailable() == nil && a.tryRoles(ctx, t, log) {
		return
	}
	rctx, stop := context.WithCancel(context.Background())
	a.closers = append(a.closers, stop)
	go func() {
		wait := time.Second
		for {
			select {
			case <-rctx.Done():
				return
			case <-time.After(wait):
			}
			if a.Store.Unavailable() == nil && a.tryRoles(rctx, t, log) {
				return
			}
			wait = min(2*wait, 30*time.Second)
		}
	}()
}

// tryRoles records the roles once, and says whether that worked.
func (a *App) tryRoles(ctx context.Context, t *roles.Table, log *slog.Logger) bool {
	changed, err := a.Store.RecordRoles(ctx, a.Service, t.InForce())
	if err != nil {
		log.Warn("recording the roles in force", "err", err)
		return false
	}
	log.Debug("roles in force", "named", len(t.Named()), "analyst_authority", t.AnalystAuthority(), "changes_logged", len(changed))
	return true
}
