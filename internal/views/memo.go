package views

// MemoPage is /decisions/{id}/memo: the credit memo of a limit request,
// printed from the request's record (its dated copies and the calculator's
// result) without a service call.
type MemoPage struct {
	Base
	Sheet CreditSheet
	// ID is the request's number; DecisionURL its page.
	ID, DecisionURL                           string
	Account, Amount, OldLimit, Status, Reason string
	// Calculator is the calculator's inputs, caps and result, one line
	// each, as the request kept them; empty when it did not come from it.
	Calculator []string
	Steps      []DecisionStep
	// Approvers names who approved, "" while no one has.
	Approvers string
	// Printed is when the memo was put together.
	Printed, PrintedISO string
	// Application is the credit application the request decides, nil
	// when it came from elsewhere.
	Application *MemoApplication
}

// MemoApplication is a new customer's credit application as the memo
// prints it: the answers signed, the references with their answers and
// the documents with their SHA-256.
type MemoApplication struct {
	Number, Company, URL              string
	Submitted, SignedFrom, SignedHash string
	Answers                           []AnswerRow
	Documents                         []ApplyDocument
	References                        []ReferenceRow
}

// SummaryPage is /businesses/{id}/summary: the credit summary of one
// business from today's report, to print.
type SummaryPage struct {
	Base
	Sheet CreditSheet
	// ReportURL is the business's report.
	ReportURL string
	// Problems are sections the service could not answer, one line each.
	Problems            []string
	Printed, PrintedISO string
}
