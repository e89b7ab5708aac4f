package app

import (
	"context"
	"log/slog"
	"time"
)

// bootstrapTeam fills an empty team from TEAM_ROLES (or the demo's roles),
// audited as such (once, however many replicas start); a team with members
// keeps them. A database that answers now is filled before the first page;
// one that does not is waited for in the background, as the store itself
// waits, so a degraded start still fills it when it comes.
func (a *App) bootstrapTeam(ctx context.Context, log *slog.Logger) {
	if a.Store.Unavailable() == nil && a.tryBootstrap(ctx, log) {
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
			if a.Store.Unavailable() == nil && a.tryBootstrap(rctx, log) {
				return
			}
			wait = min(2*wait, 30*time.Second)
		}
	}()
}

// tryBootstrap bootstraps the team once, and says whether that worked.
func (a *App) tryBootstrap(ctx context.Context, log *slog.Logger) bool {
	added, err := a.Team.Bootstrap(ctx)
	if err != nil {
		log.Warn("bootstrapping the team's members", "err", err)
		return false
	}
	log.Debug("team members", "bootstrapped", added, "analyst_authority", a.Team.AnalystAuthority())
	return true
}
