package views

// DigestBody is one digest as its mail and the preview page show it.
type DigestBody struct {
	Title, Since, Now string
	Sections          []DigestSection
	// Absolute links: the preview, the settings, and (in mails) the
	// unsubscribe link, which works without signing in.
	PreviewURL, SettingsURL, UnsubscribeURL string
}

// DigestSection is one heading of a digest; More counts the lines left
// out to keep it within its bound, None is said when it has nothing.
type DigestSection struct {
	Title string
	Lines []DigestLine
	More  int
	None  string
}

// DigestLine is one line, with the page it leads to ("" none).
type DigestLine struct{ Text, URL string }

// VerifyMail is the verification mail's content.
type VerifyMail struct {
	User, Link string
	Hours      int
}

// DigestSettingsPage is /settings/digest.
type DigestSettingsPage struct {
	Base
	// Email and Frequency are the form's values (the user's own on a 422).
	Email, Frequency string
	// Errors are the form's messages by field.
	EmailError, FrequencyError string
	// Saved is the stored address; Verified whether it is confirmed.
	Saved    string
	Verified bool
	// VerifySent is when the last verification mail was asked for ("").
	VerifySent string
	// LastSent is when the last digest went out (""); Failure the last
	// failed send since, with FailedAt.
	LastSent, Failure, FailedAt string
	// Configured says mail can go out; OutboxDir, in demo mode without
	// SMTP_URL, is where mails are written and Outbox the analyst's.
	Configured bool
	OutboxDir  string
	Outbox     []string
}

// DigestPreviewPage is /digest/preview: the next digest as it stands.
type DigestPreviewPage struct {
	Base
	Body  DigestBody
	Lines int
	Max   int
}

// DigestLinkPage is the page a mail's link opens: verify or unsubscribe,
// confirmed with a button (a GET never changes anything).
type DigestLinkPage struct {
	Base
	Heading, Text, Action, Token, Button string
	// Done is said once the change is made; Error when the link is bad.
	Done, Error string
}
