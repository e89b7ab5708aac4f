package simulator

// genSector holds what a two-digit NAICS sector implies for the numbers and
// the news: typical balance-sheet shapes, the industry's usual days beyond
// terms, the supplier categories its trade lines come from, and words for
// industry headlines.
type genSector struct {
	title      string  // official NAICS sector title
	crowd      string  // plural noun for headlines ("retailers")
	turnover   float64 // sales / total assets
	grossMgn   float64 // gross profit / sales
	caShare    float64 // current assets / total assets
	avgDBT     float64 // industry days beyond terms, 4-10
	suppliers  []string
	topics     []string
	employeeRv float64 // sales per employee in dollars, for head counts
}

// genSectors is keyed by the first two digits of a NAICS code. Sectors that
// NAICS splits over several codes (31-33, 44-45, 48-49) repeat their values.
var genSectors = map[string]*genSector{
	"21": {"Mining, Quarrying, and Oil and Gas Extraction", "producers", 0.45, 0.38, 0.20, 7,
		[]string{"35", "28", "49", "42", "87"}, []string{"rig counts", "commodity prices", "capital budgets", "royalty disputes"}, 900e3},
	"22": {"Utilities", "utilities", 0.30, 0.42, 0.12, 5,
		[]string{"49", "35", "87", "17", "73"}, []string{"rate cases", "grid upgrades", "fuel costs", "storm recovery"}, 800e3},
	"23": {"Construction", "builders", 1.40, 0.16, 0.55, 9,
		[]string{"50", "17", "33", "34", "42"}, []string{"backlogs", "material costs", "labor shortages", "public works spending"}, 350e3},
	"31": genManufacturing, "32": genManufacturing, "33": genManufacturing,
	"42": {"Wholesale Trade", "distributors", 2.20, 0.16, 0.55, 6,
		[]string{"50", "51", "42", "73", "26"}, []string{"inventory levels", "supplier pricing", "freight costs", "customer credit"}, 1200e3},
	"44": genRetail, "45": genRetail,
	"48": genTransport, "49": genTransport,
	"51": {"Information", "tech and telecom firms", 0.60, 0.55, 0.35, 6,
		[]string{"73", "48", "36", "87", "27"}, []string{"subscriber growth", "spectrum costs", "cloud demand", "software pricing"}, 600e3},
	"53": {"Real Estate and Rental and Leasing", "landlords", 0.15, 0.60, 0.10, 6,
		[]string{"65", "17", "49", "73", "63"}, []string{"office vacancies", "refinancing", "cap rates", "lease renewals"}, 1500e3},
	"54": {"Professional, Scientific, and Technical Services", "professional services firms", 1.30, 0.35, 0.50, 8,
		[]string{"73", "87", "48", "27", "65"}, []string{"billable hours", "consulting demand", "wage inflation", "contract awards"}, 250e3},
	"56": {"Administrative and Support and Waste Management and Remediation Services", "staffing and services firms", 1.60, 0.25, 0.45, 8,
		[]string{"73", "42", "49", "63", "50"}, []string{"temporary hiring", "landfill volumes", "wage costs", "contract renewals"}, 150e3},
	"62": {"Health Care and Social Assistance", "hospitals and care providers", 0.90, 0.30, 0.30, 9,
		[]string{"51", "50", "73", "87", "63"}, []string{"reimbursement rates", "staffing costs", "patient volumes", "payer disputes"}, 200e3},
	"72": {"Accommodation and Food Services", "restaurants and hotels", 1.10, 0.30, 0.15, 4,
		[]string{"20", "51", "65", "49", "73"}, []string{"traffic", "food costs", "occupancy", "franchise fees"}, 90e3},
}

var (
	genManufacturing = &genSector{"Manufacturing", "manufacturers", 0.90, 0.30, 0.40, 7,
		[]string{"33", "28", "35", "42", "30", "34", "36"}, []string{"order books", "input costs", "plant utilization", "tariffs"}, 450e3}
	genRetail = &genSector{"Retail Trade", "retailers", 1.90, 0.32, 0.40, 5,
		[]string{"51", "50", "42", "73", "26"}, []string{"same-store sales", "holiday demand", "store closures", "markdowns"}, 250e3}
	genTransport = &genSector{"Transportation and Warehousing", "carriers", 1.00, 0.25, 0.25, 7,
		[]string{"37", "51", "47", "42", "63"}, []string{"freight rates", "diesel prices", "capacity", "driver pay"}, 300e3}
)

// genSectorOf returns the sector parameters of a NAICS code.
func genSectorOf(code string) *genSector { return genSectors[code[:2]] }

// genSIC is a two-digit SIC major group that trade references report under.
type genSIC struct {
	code   string
	name   string
	avgDBT float64 // the category's usual days beyond terms (industry figure)
}

// genSICs is the supplier-category table, in code order.
var genSICs = []genSIC{
	{"15", "Building Construction - General Contractors and Operative Builders", 9},
	{"17", "Construction - Special Trade Contractors", 9},
	{"20", "Food and Kindred Products", 4},
	{"26", "Paper and Allied Products", 6},
	{"27", "Printing, Publishing, and Allied Industries", 7},
	{"28", "Chemicals and Allied Products", 6},
	{"30", "Rubber and Miscellaneous Plastics Products", 7},
	{"33", "Primary Metal Industries", 6},
	{"34", "Fabricated Metal Products, except Machinery and Transportation Equipment", 7},
	{"35", "Industrial and Commercial Machinery and Computer Equipment", 6},
	{"36", "Electronic and Other Electrical Equipment and Components, except Computer Equipment", 6},
	{"37", "Transportation Equipment", 7},
	{"42", "Motor Freight Transportation and Warehousing", 8},
	{"47", "Transportation Services", 8},
	{"48", "Communications", 5},
	{"49", "Electric, Gas, and Sanitary Services", 4},
	{"50", "Wholesale Trade - Durable Goods", 6},
	{"51", "Wholesale Trade - Nondurable Goods", 5},
	{"63", "Insurance Carriers", 5},
	{"65", "Real Estate", 8},
	{"73", "Business Services", 8},
	{"87", "Engineering, Accounting, Research, Management, and Related Services", 9},
}

// genSICIndex returns the table index of a SIC code; -1 if absent.
func genSICIndex(code string) int {
	for i := range genSICs {
		if genSICs[i].code == code {
			return i
		}
	}
	return -1
}
