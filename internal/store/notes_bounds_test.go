package store

import (
	"database/sql"
	"strconv"
	"strings"
	"testing"
)

// A business's notes come a page at a time, newest first, and notes.csv's
// rows a batch at a time in their order, however many there are.
func TestNotesInPiecesOfThousands(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		const many = 2500
		bulkNotes(t, s, alice, 1001, many, 100)
		must2 := func(n Note, err error) { must(t, err) }
		must2(s.AddNote(ctx, alice, 1002, "another business"))
		must2(s.AddNote(ctx, bob, 1001, "bob's own"))

		first, more, err := s.NotesPage(ctx, alice, 1001, 1, 20)
		must(t, err)
		if len(first) != 20 || !more || first[0].Text != noteText(many, 100) {
			t.Fatalf("first page: %d notes, more %v, newest %.20q; want 20, more, the newest", len(first), more, first[0].Text)
		}
		last, more, err := s.NotesPage(ctx, alice, 1001, many/20, 20)
		must(t, err)
		if len(last) != 20 || more || last[19].Text != noteText(1, 100) {
			t.Errorf("last page: %d notes, more %v; want 20, no more, ending with the oldest", len(last), more)
		}

		var seen []Note
		must(t, s.EachNote(ctx, alice, func(n Note) error { seen = append(seen, n); return nil }))
		if len(seen) != many+1 {
			t.Fatalf("EachNote gave %d notes, want %d (alice's only)", len(seen), many+1)
		}
		for i := 1; i < len(seen); i++ {
			p, n := seen[i-1], seen[i]
			if p.BusinessID > n.BusinessID || p.BusinessID == n.BusinessID && (p.Created.After(n.Created) || p.Created.Equal(n.Created) && p.ID >= n.ID) {
				t.Fatalf("notes %d and %d out of notes.csv's order", i-1, i)
			}
		}
	})
}

// An analyst's notes hold at most MaxNoteBytes of text: a note or an edit
// past it is refused with a sentence, and nothing is written.
func TestNotesByteBudget(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		small, err := s.AddNote(ctx, alice, 1001, "short")
		must(t, err)
		// One filler note holding nearly all of the budget.
		must(t, s.write(ctx, alice, "fill", func(tx *sql.Tx, id int64) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO notes (id, analyst_id, business_id, author, body, created_at, updated_at, size)
				VALUES ($1, $2, 1001, 'alice', 'big', 1, 1, $3)`, newID(), id, MaxNoteBytes-100)
			return err
		}))
		_, err = s.AddNote(ctx, alice, 1001, strings.Repeat("x", 200))
		wantInvalid(t, "a note past the budget", err, "text")
		wantWorded(t, "a note past the budget", err)
		_, err = s.EditNote(ctx, alice, small.ID, strings.Repeat("y", 200))
		wantInvalid(t, "an edit past the budget", err, "text")
		if _, err := s.AddNote(ctx, alice, 1001, strings.Repeat("z", 50)); err != nil {
			t.Errorf("a note within the budget: %v", err)
		}
		if _, err := s.AddNote(ctx, bob, 1001, strings.Repeat("x", 200)); err != nil {
			t.Errorf("another analyst's budget is their own: %v", err)
		}
	})
}

// bulkNotes inserts n notes of business for a with one statement, times
// 1..n, each text noteText(i, size).
func bulkNotes(t *testing.T, s *Store, a Analyst, business int32, n, size int) {
	t.Helper()
	must(t, s.write(t.Context(), a, "fill", func(tx *sql.Tx, id int64) error {
		stmt, err := tx.PrepareContext(t.Context(), `INSERT INTO notes (id, analyst_id, business_id, author, body, created_at, updated_at, size)
			VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`)
		if err != nil {
			return err
		}
		defer stmt.Close()
		for i := 1; i <= n; i++ {
			text := noteText(i, size)
			if _, err := stmt.ExecContext(t.Context(), newID(), id, business, a.User, text, int64(i), len(text)); err != nil {
				return err
			}
		}
		return nil
	}))
}

// noteText is the i-th filler note, size bytes long.
func noteText(i, size int) string {
	s := "note " + strconv.Itoa(i) + " "
	return s + strings.Repeat("n", max(size-len(s), 0))
}
