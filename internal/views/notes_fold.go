package views

// Notes near the top of the overview stay short: the newest shownNotes
// are listed, older ones folded, and a long note shows its start.
const (
	shownNotes  = 2
	longNote    = 500 // runes
	notePreview = 300 // runes
)

// Shown are the newest notes, listed open.
func (n NotesSection) Shown() []NoteView { return n.Notes[:min(len(n.Notes), shownNotes)] }

// Folded are the older notes, behind "N older notes".
func (n NotesSection) Folded() []NoteView {
	if len(n.Notes) <= shownNotes {
		return nil
	}
	return n.Notes[shownNotes:]
}

// Long reports a note too long to show whole near the top.
func (v NoteView) Long() bool { return len([]rune(v.Text)) > longNote }

// Preview is the start of a long note.
func (v NoteView) Preview() string { return Clip(v.Text, notePreview) }
