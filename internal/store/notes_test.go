package store

import (
	"errors"
	"strings"
	"testing"
)

// TestNotes: notes are listed newest first with author and time, edited
// and deleted by id, and kept verbatim, markup included.
func TestNotes(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		first, err := s.AddNote(ctx, alice, 1001, "Risk fell to 4.\r\nCall the CFO.")
		must(t, err)
		hostile := `<script>alert("x")</script> & "quotes" 'ticks' ünïcödé`
		second, err := s.AddNote(ctx, alice, 1001, hostile)
		must(t, err)
		_, err = s.AddNote(ctx, alice, 1002, "other business")
		must(t, err)

		notes, err := s.Notes(ctx, alice, 1001)
		must(t, err)
		if len(notes) != 2 || notes[0].ID != second.ID || notes[1].ID != first.ID {
			t.Fatalf("Notes(1001) = %+v, want the second then the first", notes)
		}
		if notes[1].Text != "Risk fell to 4.\nCall the CFO." {
			t.Errorf("line breaks: %q, want CRLF stored as \\n", notes[1].Text)
		}
		if notes[0].Text != hostile || notes[0].Author != "alice" || notes[0].Created.IsZero() || notes[0].Edited() {
			t.Errorf("note = %+v, want the text verbatim, author alice, a time, not edited", notes[0])
		}

		edited, err := s.EditNote(ctx, alice, first.ID, "Risk fell to 3.")
		must(t, err)
		if edited.Text != "Risk fell to 3." || !edited.Edited() || !edited.Created.Equal(first.Created) || edited.BusinessID != 1001 {
			t.Errorf("EditNote = %+v, want the new text, edited, the first time kept", edited)
		}
		got, err := s.Note(ctx, alice, first.ID)
		must(t, err)
		if got != edited {
			t.Errorf("Note = %+v, want %+v", got, edited)
		}

		must(t, s.DeleteNote(ctx, alice, second.ID))
		wantErr(t, "delete twice", s.DeleteNote(ctx, alice, second.ID), ErrNotFound)
		_, err = s.EditNote(ctx, alice, second.ID, "x")
		wantErr(t, "edit deleted", err, ErrNotFound)
		_, err = s.Note(ctx, alice, second.ID)
		wantErr(t, "read deleted", err, ErrNotFound)

		all, err := s.AllNotes(ctx, alice)
		must(t, err)
		if len(all) != 2 || all[0].BusinessID != 1001 || all[1].BusinessID != 1002 {
			t.Errorf("AllNotes = %+v, want 1001's then 1002's", all)
		}
	})
}

// TestNoteBounds: 10,000 characters fit, counted as characters (not
// bytes) and with CRLF as one; more, empty or broken text is refused and
// nothing changes.
func TestNoteBounds(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		longest := strings.Repeat("é", MaxNoteLen-2) + "\r\n" + "x"
		n, err := s.AddNote(ctx, alice, 1001, longest)
		must(t, err)
		if len([]rune(n.Text)) != MaxNoteLen {
			t.Errorf("stored %d characters, want %d", len([]rune(n.Text)), MaxNoteLen)
		}
		for name, text := range map[string]string{
			"too long":   strings.Repeat("a", MaxNoteLen+1),
			"empty":      "",
			"blank":      " \r\n\t ",
			"NUL":        "a\x00b",
			"bad UTF-8":  "a\xffb",
			"too long 2": strings.Repeat("日本", MaxNoteLen/2) + "!",
		} {
			_, err := s.AddNote(ctx, alice, 1001, text)
			wantInvalid(t, "add "+name, err, "text")
			_, err = s.EditNote(ctx, alice, n.ID, text)
			wantInvalid(t, "edit "+name, err, "text")
		}
		_, err = s.AddNote(ctx, alice, -5, "x")
		wantInvalid(t, "business -5", err, "business")
		got, err := s.Note(ctx, alice, n.ID)
		must(t, err)
		if got.Text != n.Text || rowsOf(t, s, alice, "notes") != 1 {
			t.Error("refused input changed the stored notes")
		}
		_, err = s.AddNote(ctx, alice, 1001, strings.Repeat("a", MaxNoteLen+1))
		var v *ValidationError
		if errors.As(err, &v) && !strings.Contains(v.Message, "10,000") {
			t.Errorf("message %q does not state the bound", v.Message)
		}
	})
}

// TestNotesFull: an analyst keeps at most MaxNotes notes.
func TestNotesFull(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		fill(t, s, alice, "notes", MaxNotes)
		_, err := s.AddNote(t.Context(), alice, 1001, "one more")
		wantErr(t, "note past the bound", err, ErrNotesFull)
		_, err = s.AddNote(t.Context(), bob, 1001, "bob has room")
		must(t, err)
	})
}
