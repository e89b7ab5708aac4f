package views

// CrossSitePage offers, as a button, a request another site sent the
// browser to: a GET that spends the hourly budget or writes the workspace
// is made only from the dashboard's own pages.
type CrossSitePage struct {
	Title  string
	Why    string
	Button string
	// Path is where the button goes (a safe local path, without query).
	Path string
	// Fields are the request's query parameters, sent again by the form.
	Fields []Field
}

// Field is one name and value of a form.
type Field struct {
	Name, Value string
}
