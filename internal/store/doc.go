// Package store keeps the analyst's own workspace: watch list, notes, alert
// rules and triggered alerts, last-seen scores and dated snapshots. It runs
// on SQLite in DATA_DIR/creditdash.db by default and on PostgreSQL when
// DATABASE_URL is set (several replicas sharing one database); both
// engines run the same schema and the same SQL.
//
// # Opening
//
// cmd/web opens one Store at start and closes it on shutdown:
//
//	st, err := store.Open(ctx, store.Config{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: log})
//
// Open migrates the schema before it returns; replicas starting together
// migrate once. Ping suits /readyz.
//
// # Whose data
//
// Every method takes the Analyst it works for: the service's base URL and
// the signed-in user name, from the session. Methods only ever see that
// analyst's rows; another analyst's id is ErrNotFound, exactly like an id
// that never existed, so handlers answer 404 for both and never check
// ownership themselves. Ids are random 63-bit numbers: they reveal nothing
// about other analysts' rows.
//
// # Routes and methods
//
//	POST /businesses/{id}/watch     Watch (name from the report, for the list)
//	POST /businesses/{id}/unwatch   Unwatch
//	report pages                    IsWatched, Notes (newest first)
//	/watchlist, /watchlist.csv      WatchList; WatchCSVHeader, Watch.CSVRecord
//	POST /businesses/{id}/notes     AddNote
//	POST /notes/{id}/edit, delete   Note (to refill the form), EditNote, DeleteNote
//	/notes.csv                      AllNotes; NoteCSVHeader, Note.CSVRecord
//	/alerts                         Rules, Alerts, Glance (the header too)
//	POST /alerts/rules              AddRule (RuleSpec from the form)
//	POST /alerts/rules/{id}/delete  DeleteRule (its alerts go with it)
//	POST /alerts/{id}/read          MarkAlertRead; "mark all read": MarkAllAlertsRead
//	score data arriving             Rules, RuleSpec.AppliesTo, then RecordAlerts
//	home page                       LastSeen, then MarkSeen with what it shows
//	POST /businesses/{id}/snapshots SaveSnapshot (the tab's service data as JSON)
//	/snapshots, /snapshots/{id}     Snapshots (no data), Snapshot, DeleteSnapshot
//	/settings/workspace             DeleteAnalyst (the team's audit trail stays)
//	start-up                        BootstrapMembers (TEAM_ROLES, into an empty team)
//	/team                           Members, MemberChanges, ChangeMember, DecideMember
//	a change to the team's data     AppendAudit (or appendAuditTx in the change's own transaction)
//	/audit                          AuditEntries (filtered, newest first, paged by seq)
//	/audit.csv                      AuditLog (streamed in batches); AuditCSVHeader, AuditEntry.CSVRecord
//	/audit/verify                   VerifyAudit
//
// The audit trail is the team's, not an analyst's: its methods take the
// team (the service, as Analyst.Service names it), and its entries are
// hash-chained and never changed or deleted (see audit.go for the chain's
// definition).
//
// Evaluating a rule is the caller's: it knows the zones (internal/views)
// and has the data. RecordAlerts may be given the same firing again and
// again; each rule, business and month is stored once.
//
// # Errors
//
// Input the store refuses is a *ValidationError whose Field names the form
// field ("text", "threshold", "score", "condition", "scope", "business",
// "folder", "name", "tab", "data", "fetched", "month", "value",
// "analyst"; for the audit trail also "team", "actor", "action",
// "account", "reason", "roles") and whose Message can be shown beside it. A full list is
// ErrWatchListFull, ErrNotesFull, ErrRulesFull or ErrSnapshotsFull: for
// these, re-render the form with the user's input and the message. A
// missing or foreign id is ErrNotFound, a 404. After any of them nothing
// was written. Any other error is the database's (a 500). Strings start
// with "store: ".
//
// # Bounds
//
// A note is at most MaxNoteLen characters (line breaks counted once, as a
// textarea's maxlength counts them); an analyst keeps at most MaxWatches
// watched businesses, MaxNotes notes, MaxRules rules, MaxSnapshots
// snapshots of at most MaxSnapshotBytes each. Triggered alerts (MaxAlerts)
// and last-seen marks (MaxSeen) drop their oldest rows instead of refusing.
package store
