package store

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strconv"
	"time"
)

// The names an import cannot link (issue 43.3): the handlers look them up
// through the service's Business/Search within a budget of requests per
// import and link the one business of exactly that name (ImportSpec.Found);
// the names past the budget wait in name_lookups (ImportSpec.Queue) until a
// signed-in analyst asks for the next ones (ResolveLookups). Jobs hold no
// session key, so nothing works the queue without a member of the team.

// MaxQueuedLookups bounds the names a team's queue holds: one per account.
const MaxQueuedLookups = MaxAccounts

// AuditActionLookup logs names queued for Business/Search, and a queued
// name it found no single business of.
const AuditActionLookup = "name-lookup"

// QueuedLookup is an account whose name waits for Business/Search.
type QueuedLookup struct {
	Account, Name string
	ImportID      int64
	QueuedAt      time.Time
	QueuedBy      string
}

// LookupResult is what Business/Search found for a queued account's name:
// the one business of exactly that name, or BusinessID 0 for none or
// several (the account stays not linked, to be linked by hand).
type LookupResult struct {
	Account      string
	BusinessID   int32
	BusinessName string
}

// queueLookups queues the import's names past its search budget, up to
// the team's bound, and returns how many it queued.
func (s *Store) queueLookups(ctx context.Context, tx *sql.Tx, a Analyst, rec ImportRecord, spec ImportSpec, now int64) (int, error) {
	if len(spec.Queue) == 0 {
		return 0, nil
	}
	names := make(map[string]string, len(spec.Lines))
	for _, l := range spec.Lines {
		names[l.Account] = l.Name
	}
	var held int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM name_lookups WHERE service = $1", a.Service).Scan(&held); err != nil {
		return 0, err
	}
	queued := 0
	for _, acc := range spec.Queue {
		name, ok := names[acc]
		if !ok || held+queued >= MaxQueuedLookups {
			continue
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO name_lookups (service, account, name, import_id, queued_at, queued_by)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (service, account) DO NOTHING`, a.Service, acc, name, rec.ID, now, a.User)
		if err != nil {
			return 0, err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			queued++
		}
	}
	return queued, nil
}

// lookupsText says what the service's search did for an import, for its
// summary: "" when it did nothing. resolved and linked count the queued
// names it looked up with what its own names left of its searches.
func lookupsText(spec ImportSpec, queued, resolved, linked int) string {
	text := ""
	if len(spec.Found) > 0 {
		text = fmt.Sprintf("; %d linked to the one business of their name that the service's search found", len(spec.Found))
	}
	if queued > 0 {
		text += fmt.Sprintf("; %d names queued to be looked up through the service's search by a signed-in analyst", queued)
	}
	if n := len(spec.Queue) - queued; n > 0 {
		text += fmt.Sprintf("; %d names not queued (queued already, or the queue holds %d)", n, MaxQueuedLookups)
	}
	if resolved > 0 {
		text += fmt.Sprintf("; %d names queued before looked up: %d linked to the one business of their name, %d left not linked",
			resolved, linked, resolved-linked)
	}
	return text
}

// lookupChanges are the audit entries of an import's searches: a link for
// each account a search found, and the names queued.
func lookupChanges(rec ImportRecord, spec ImportSpec, queued int) iter.Seq[AuditChange] {
	return func(yield func(AuditChange) bool) {
		for _, l := range spec.Lines {
			name, ok := spec.Found[l.Account]
			if !ok || l.BusinessID <= 0 {
				continue
			}
			if !yield(AuditChange{Actor: rec.By, Action: AuditActionLink, Account: l.Account, BusinessID: l.BusinessID,
				NewValue: strconv.FormatInt(int64(l.BusinessID), 10),
				Reason:   fmt.Sprintf("import %d: the service's Business/Search found one business of exactly this name: %s", rec.ID, tidyName(name))}) {
				return
			}
		}
		if queued > 0 {
			yield(AuditChange{Actor: rec.By, Action: AuditActionLookup, NewValue: fmt.Sprintf("%d queued", queued),
				Reason: fmt.Sprintf("import %d: names it did not look up through Business/Search, queued to be looked up", rec.ID)})
		}
	}
}

// chain yields the entries of each sequence in turn.
func chain(seqs ...iter.Seq[AuditChange]) iter.Seq[AuditChange] {
	return func(yield func(AuditChange) bool) {
		for _, seq := range seqs {
			for c := range seq {
				if !yield(c) {
					return
				}
			}
		}
	}
}

// lookupFields are what scanLookup reads.
const lookupFields = "q.account, q.name, q.import_id, q.queued_at, q.queued_by"

// QueuedLookups are the oldest n (at most MaxPage) names waiting for
// Business/Search whose accounts are still not linked, and how many wait.
func (s *Store) QueuedLookups(ctx context.Context, a Analyst, n int) ([]QueuedLookup, int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, 0, err
	}
	const waiting = ` FROM name_lookups q JOIN team_accounts t ON t.service = q.service AND t.account = q.account
		WHERE q.service = $1 AND t.business_id = 0`
	var total int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*)"+waiting, a.Service).Scan(&total); err != nil {
		return nil, 0, wrap("queued lookups", err)
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+lookupFields+waiting+" ORDER BY q.queued_at, q.account LIMIT $2", a.Service, min(max(n, 0), MaxPage))
	if err != nil {
		return nil, 0, wrap("queued lookups", err)
	}
	defer rows.Close()
	var out []QueuedLookup
	for rows.Next() {
		var q QueuedLookup
		var at int64
		if err := rows.Scan(&q.Account, &q.Name, &q.ImportID, &at, &q.QueuedBy); err != nil {
			return nil, 0, wrap("queued lookups", err)
		}
		q.QueuedAt = fromStamp(at)
		out = append(out, q)
	}
	return out, total, wrap("queued lookups", rows.Err())
}

// ResolveLookups takes the looked-up names off the queue in one
// transaction: an account whose search found one business is linked to it
// (unless linked meanwhile), one that found none stays not linked; each
// outcome is audited. Names of accounts linked otherwise leave the queue
// too. It returns how many it linked.
func (s *Store) ResolveLookups(ctx context.Context, a Analyst, results []LookupResult) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	if err := checkResults(results); err != nil {
		return 0, err
	}
	linked := 0
	err = s.teamWrite(ctx, a.Service, "resolve lookups", func(tx *sql.Tx) error {
		var changes []AuditChange
		var err error
		if linked, changes, err = s.resolveLookupsTx(ctx, tx, a, results); err != nil {
			return err
		}
		for _, c := range changes {
			if _, err := s.appendAuditTx(ctx, tx, a.Service, c); err != nil {
				return err
			}
		}
		return nil
	})
	return linked, err
}

// checkResults refuses look-up results past MaxPage or naming a business
// id that cannot be one.
func checkResults(results []LookupResult) error {
	if len(results) > MaxPage {
		return invalid("results", "at most %d names are looked up at once", MaxPage)
	}
	for _, r := range results {
		if r.BusinessID != 0 {
			if err := checkBusiness(r.BusinessID); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveLookupsTx takes the looked-up names off the queue within tx (a
// press of "look up", or an import that looked up queued names with what
// its own left of its searches), and returns how many it linked and the
// audit entries of every outcome.
func (s *Store) resolveLookupsTx(ctx context.Context, tx *sql.Tx, a Analyst, results []LookupResult) (int, []AuditChange, error) {
	linked := 0
	var changes []AuditChange
	for _, r := range results {
		res, err := tx.ExecContext(ctx, "DELETE FROM name_lookups WHERE service = $1 AND account = $2", a.Service, r.Account)
		if err != nil {
			return 0, nil, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // looked up by someone else meanwhile
		}
		c := AuditChange{Actor: a.User, Action: AuditActionLookup, Account: r.Account, OldValue: "queued",
			NewValue: "not linked", Reason: "the service's Business/Search found no single business of exactly this name"}
		if r.BusinessID > 0 {
			res, err := tx.ExecContext(ctx, `UPDATE team_accounts SET business_id = $3, updated_at = $4, updated_by = $5
				WHERE service = $1 AND account = $2 AND business_id = 0`, a.Service, r.Account, int64(r.BusinessID), s.stamp(), a.User)
			if err != nil {
				return 0, nil, err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // linked otherwise meanwhile, and audited then
			}
			linked++
			c = AuditChange{Actor: a.User, Action: AuditActionLink, Account: r.Account, BusinessID: r.BusinessID,
				NewValue: strconv.FormatInt(int64(r.BusinessID), 10),
				Reason:   "queued name looked up: the service's Business/Search found one business of exactly this name: " + tidyName(r.BusinessName)}
		}
		changes = append(changes, c)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM name_lookups WHERE service = $1 AND account IN
		(SELECT account FROM team_accounts WHERE service = $1 AND business_id <> 0)`, a.Service); err != nil {
		return 0, nil, err
	}
	return linked, changes, nil
}

// LinkedAccounts are the accounts of the team's record linked to a
// business: an import leaves their links as they are, so their names are
// never looked up.
func (s *Store) LinkedAccounts(ctx context.Context, a Analyst) (map[string]bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT account FROM team_accounts WHERE service = $1 AND business_id <> 0", a.Service)
	if err != nil {
		return nil, wrap("linked accounts", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var acc string
		if err := rows.Scan(&acc); err != nil {
			return nil, wrap("linked accounts", err)
		}
		out[acc] = true
	}
	return out, wrap("linked accounts", rows.Err())
}
