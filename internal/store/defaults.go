package store

import (
	"context"
	"database/sql"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults named as such (issue 45): a bankruptcy or insolvency filing the
// team has seen for a linked business puts every account linked to it in
// default (PD 1, expected loss = balance × the team's loss given default)
// until a manager clears it. Filings are kept as learned, never changed;
// a clearing is a row of its own beside the filing.

// Audit actions of defaults and the team's settings.
const (
	AuditActionDefault        = "default"
	AuditActionDefaultCleared = "default-cleared"
	AuditActionSetting        = "team-setting"
)

// DefaultLGD is the loss given default until the team sets one: the whole
// balance.
const DefaultLGD = 1.0

// settingLGD names the loss given default in team_settings.
const settingLGD = "lgd"

// maxDefaultsRead bounds the filings a page lists.
const maxDefaultsRead = 1000

// Default is a filing the team has seen for a business, which puts its
// accounts in default while it is not cleared.
type Default struct {
	ID         int64
	BusinessID int32
	// Kind is the event: "Chapter 11 filing", "Insolvency"...
	Kind string
	// Title and URL are the story's; Published when it appeared.
	Title, URL string
	Published  time.Time
	// Source is the page that learned it, in words ("Folder “Review”
	// news"), SourceURL its local path.
	Source, SourceURL string
	// LearnedBy is whose page learned it, LearnedAt when.
	LearnedBy string
	LearnedAt time.Time
	// Cleared is the manager's clearing, nil while in force.
	Cleared *Clearing
	// LGD is the team's loss given default when read (0–1).
	LGD float64
}

// Clearing is a manager's decision that a default no longer holds.
type Clearing struct {
	By   string
	At   time.Time
	Note string
}

// InForce says the default still holds.
func (d *Default) InForce() bool { return d != nil && d.Cleared == nil }

// AccountDefaultedData is account.defaulted's data: the account, its
// business, the filing and the page (its path) that learned it.
type AccountDefaultedData struct {
	Account    string `json:"account"`
	BusinessID int32  `json:"business_id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Published  string `json:"published"`
	Source     string `json:"source"`
	LearnedBy  string `json:"learned_by"`
}

// checkDefault refuses what a page should never send.
func checkDefault(d *Default) error {
	switch {
	case d.BusinessID <= 0:
		return invalid("business", "not a business")
	case d.Kind == "" || utf8.RuneCountInString(d.Kind) > 80 || !cleanText(d.Kind):
		return invalid("kind", "not a kind of filing")
	case utf8.RuneCountInString(d.Title) > 500 || !cleanText(d.Title) || len(d.URL) > 2000 || !cleanText(d.URL):
		return invalid("title", "a story's title and link are text of at most 500 and 2,000 characters")
	case utf8.RuneCountInString(d.Source) > 300 || !cleanText(d.Source) || !strings.HasPrefix(d.SourceURL, "/") || len(d.SourceURL) > 500:
		return invalid("source", "the page that learned a filing is named by its local path")
	case d.Published.IsZero():
		return invalid("published", "a filing needs its story's date")
	}
	return nil
}

// RecordDefaults keeps the filings a page found, learned by a.User: each
// for a business linked to an account of the team, newer than every
// filing kept for it (a cleared filing seen again stays cleared), and
// not while one is in force. Each kept filing is audited once per account
// it puts in default, naming the page that learned it. It returns how
// many were kept; none kept writes nothing.
func (s *Store) RecordDefaults(ctx context.Context, a Analyst, found []Default) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	for i := range found {
		if err := checkDefault(&found[i]); err != nil {
			return 0, err
		}
	}
	kept := 0
	touched := touchNone()
	for _, d := range found {
		touched.Businesses = append(touched.Businesses, d.BusinessID)
	}
	err = s.teamWriteIfOf(ctx, a.Service, "record defaults", touched, func(tx *sql.Tx) (bool, error) {
		kept = 0
		for _, d := range found {
			var newest sql.NullInt64
			var open int
			if err := tx.QueryRowContext(ctx, `SELECT MAX(d.published), COUNT(d.id) - COUNT(c.default_id) FROM team_defaults d
				LEFT JOIN team_default_clearings c ON c.default_id = d.id WHERE d.service = $1 AND d.business_id = $2`,
				a.Service, int64(d.BusinessID)).Scan(&newest, &open); err != nil {
				return false, err
			}
			if open > 0 || newest.Valid && newest.Int64 >= d.Published.UnixMicro() {
				continue
			}
			accounts, err := linkedAccounts(ctx, tx, a.Service, d.BusinessID)
			if err != nil {
				return false, err
			}
			if len(accounts) == 0 {
				continue // a business no account of the team is linked to
			}
			now := s.stamp()
			if _, err := tx.ExecContext(ctx, `INSERT INTO team_defaults (id, service, business_id, kind, title, url, published, source, source_url, learned_by, learned_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`, newID(), a.Service, int64(d.BusinessID), d.Kind, d.Title, d.URL,
				d.Published.UnixMicro(), d.Source, d.SourceURL, a.User, now); err != nil {
				return false, err
			}
			for _, acct := range accounts {
				if _, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionDefault, Account: acct,
					BusinessID: d.BusinessID, NewValue: "in default: " + d.Kind + " reported " + d.Published.UTC().Format(DateLayout),
					Reason: "learned from " + d.Source + " (" + d.SourceURL + "): " + d.Title}); err != nil {
					return false, err
				}
				if err := s.Emit(ctx, tx, a.Service, EventAccountDefaulted, AccountDefaultedData{Account: acct, BusinessID: d.BusinessID,
					Kind: d.Kind, Title: d.Title, Published: d.Published.UTC().Format(time.RFC3339), Source: d.SourceURL, LearnedBy: a.User}); err != nil {
					return false, err
				}
			}
			kept++
		}
		return kept > 0, nil
	})
	return kept, err
}

// linkedAccounts are the team's accounts linked to a business, in order.
func linkedAccounts(ctx context.Context, tx *sql.Tx, service string, business int32) ([]string, error) {
	rows, err := tx.QueryContext(ctx, "SELECT account FROM team_accounts WHERE service = $1 AND business_id = $2 ORDER BY account", service, int64(business))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var acct string
		if err := rows.Scan(&acct); err != nil {
			return nil, err
		}
		out = append(out, acct)
	}
	return out, rows.Err()
}

// ClearDefault is a manager's decision that the default id no longer
// holds, with a note; audited once per account it had put in default.
// ErrNotFound when the team has no such default in force.
func (s *Store) ClearDefault(ctx context.Context, a Analyst, id int64, note string) (Default, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return Default{}, err
	}
	note = strings.TrimSpace(note)
	if note == "" || utf8.RuneCountInString(note) > MaxRequestReasonLen || !cleanText(note) {
		return Default{}, invalid("note", "clearing a default needs a note of at most %s characters", grouped(MaxRequestReasonLen))
	}
	var d Default
	touched := touchNone()
	err = s.teamWriteOf(ctx, a.Service, "clear default", touched, func(tx *sql.Tx) error {
		var err error
		if d, err = scanDefault(tx.QueryRowContext(ctx, "SELECT "+defaultFields+" FROM "+defaultsFrom+
			" WHERE d.service = $1 AND d.id = $2", a.Service, id)); err == sql.ErrNoRows {
			return ErrNotFound
		} else if err != nil {
			return err
		}
		if d.Cleared != nil {
			return ErrNotFound
		}
		now := s.stamp()
		if _, err := tx.ExecContext(ctx, "INSERT INTO team_default_clearings (default_id, service, cleared_by, cleared_at, note) VALUES ($1, $2, $3, $4, $5)",
			id, a.Service, a.User, now, note); err != nil {
			return err
		}
		d.Cleared = &Clearing{By: a.User, At: fromStamp(now), Note: note}
		touched.Businesses = append(touched.Businesses, d.BusinessID)
		accounts, err := linkedAccounts(ctx, tx, a.Service, d.BusinessID)
		if err != nil {
			return err
		}
		for _, acct := range accounts {
			if _, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionDefaultCleared, Account: acct,
				BusinessID: d.BusinessID, OldValue: "in default: " + d.Kind + " reported " + d.Published.Format(DateLayout),
				NewValue: "default cleared", Reason: note}); err != nil {
				return err
			}
		}
		return nil
	})
	return d, err
}

// defaultFields and defaultsFrom read a filing with its clearing.
const (
	defaultFields = `d.id, d.business_id, d.kind, d.title, d.url, d.published, d.source, d.source_url, d.learned_by, d.learned_at,
	c.cleared_by, c.cleared_at, c.note`
	defaultsFrom = "team_defaults d LEFT JOIN team_default_clearings c ON c.default_id = d.id"
)

func scanDefault(r rowScanner) (Default, error) {
	var d Default
	var business, published, learned int64
	var by, note sql.NullString
	var at sql.NullInt64
	if err := r.Scan(&d.ID, &business, &d.Kind, &d.Title, &d.URL, &published, &d.Source, &d.SourceURL, &d.LearnedBy, &learned, &by, &at, &note); err != nil {
		return d, err
	}
	d.BusinessID, d.Published, d.LearnedAt = int32(business), fromStamp(published), fromStamp(learned)
	if at.Valid {
		d.Cleared = &Clearing{By: by.String, At: fromStamp(at.Int64), Note: note.String}
	}
	return d, nil
}

// Defaults are the team's filings, newest learned first (at most a
// thousand), each with the team's loss given default.
func (s *Store) Defaults(ctx context.Context, a Analyst) ([]Default, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	return s.readDefaults(ctx, a.Service, "")
}

// readDefaults reads the team's filings, those in force only with
// where = "c.default_id IS NULL".
func (s *Store) readDefaults(ctx context.Context, service, where string) ([]Default, error) {
	lgd, err := s.lgd(ctx, service)
	if err != nil {
		return nil, err
	}
	q := "SELECT " + defaultFields + " FROM " + defaultsFrom + " WHERE d.service = $1"
	if where != "" {
		q += " AND " + where
	}
	rows, err := s.r.QueryContext(ctx, q+" ORDER BY d.learned_at DESC, d.id LIMIT "+strconv.Itoa(maxDefaultsRead), service)
	if err != nil {
		return nil, wrap("defaults", err)
	}
	defer rows.Close()
	var out []Default
	for rows.Next() {
		d, err := scanDefault(rows)
		if err != nil {
			return nil, wrap("defaults", err)
		}
		d.LGD = lgd
		out = append(out, d)
	}
	return out, wrap("defaults", rows.Err())
}

// attachDefaults sets the default in force on each account whose business
// has one.
func (s *Store) attachDefaults(ctx context.Context, service string, accts []Account) error {
	if len(accts) == 0 {
		return nil
	}
	open, err := s.readDefaults(ctx, service, "c.default_id IS NULL")
	if err != nil || len(open) == 0 {
		return err
	}
	by := make(map[int32]*Default, len(open))
	for i := range open {
		if _, ok := by[open[i].BusinessID]; !ok {
			by[open[i].BusinessID] = &open[i]
		}
	}
	for i := range accts {
		if accts[i].BusinessID != 0 {
			accts[i].Default = by[accts[i].BusinessID]
		}
	}
	return nil
}

// LGD is the team's loss given default (DefaultLGD until set).
func (s *Store) LGD(ctx context.Context, a Analyst) (float64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	return s.lgd(ctx, a.Service)
}

func (s *Store) lgd(ctx context.Context, service string) (float64, error) {
	var v string
	err := s.r.QueryRowContext(ctx, "SELECT value FROM team_settings WHERE service = $1 AND name = $2", service, settingLGD).Scan(&v)
	if err == sql.ErrNoRows {
		return DefaultLGD, nil
	}
	if err != nil {
		return 0, wrap("lgd", err)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1 {
		return DefaultLGD, nil
	}
	return f, nil
}

// SetLGD sets the team's loss given default (0–1), audited with the value
// before it.
func (s *Store) SetLGD(ctx context.Context, a Analyst, lgd float64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	if math.IsNaN(lgd) || lgd < 0 || lgd > 1 {
		return invalid("lgd", "the loss given default is a share from 0 to 100 %%")
	}
	old, err := s.lgd(ctx, a.Service)
	if err != nil {
		return err
	}
	v := strconv.FormatFloat(lgd, 'f', -1, 64)
	return s.teamWrite(ctx, a.Service, "set lgd", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO team_settings (service, name, value, set_by, set_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (service, name) DO UPDATE SET value = excluded.value, set_by = excluded.set_by, set_at = excluded.set_at`,
			a.Service, settingLGD, v, a.User, s.stamp()); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionSetting,
			OldValue: "loss given default " + strconv.FormatFloat(old*100, 'f', -1, 64) + " %",
			NewValue: "loss given default " + strconv.FormatFloat(lgd*100, 'f', -1, 64) + " %"})
		return err
	})
}
