package simulator

import "strconv"

// Company names are "<base> <industry word> <suffix>", e.g. "Ironbridge
// Logistics Inc". The base is either a coined compound (first + second part)
// or a family name.
var (
	genNameFirst = []string{"North", "South", "East", "West", "Iron", "Stone", "Silver", "Gold",
		"Red", "Blue", "Green", "Oak", "Pine", "Cedar", "Maple", "Bright", "Clear", "High", "Fair",
		"Lake", "River", "Bay", "Glen", "Sun", "Star", "Frost", "Copper", "Elm"}
	genNameSecond = []string{"field", "bridge", "gate", "wood", "haven", "ridge", "crest", "brook",
		"port", "view", "point", "dale", "ford", "mont", "wick", "vale", "hill", "land", "line",
		"way", "shore", "side", "well", "worth", "mark", "rock", "bank", "wind"}
	genFamilyNames = []string{"Abbott", "Barlow", "Calloway", "Delgado", "Ellison", "Fairbanks",
		"Garrison", "Hollister", "Ingram", "Jessup", "Kendrick", "Lindqvist", "Maddox", "Novak",
		"Okafor", "Pruitt", "Quinlan", "Radcliffe", "Sandoval", "Thorne", "Underwood", "Vance",
		"Whitaker", "Yardley", "Zeller", "Ashford", "Brennan", "Castillo", "Dunmore", "Eastman",
		"Fitzgerald", "Gallagher", "Harrington", "Iverson", "Jansen", "Kowalski", "Langford",
		"Mercer", "Nakamura", "Oduya", "Pemberton", "Ramsey", "Schaefer", "Tolliver", "Upton",
		"Valdez", "Westbrook", "Holcomb", "Beaumont", "Crandall", "Dorsey", "Engstrom", "Fowler",
		"Grady", "Hadley", "Keller", "Lowell", "Montague", "Prescott", "Sterling"}
	genSuffixPublic  = []string{"Inc", "Corp", "Corporation", "Holdings Inc", "Group Inc", "Co"}
	genSuffixPrivate = []string{"Inc", "LLC", "Co", "Group LLC", "Enterprises Inc", "Company"}
)

// genNameBases is how many distinct bases exist.
var genNameBases = len(genNameFirst)*len(genNameSecond) + len(genFamilyNames)

// genNameBase maps a business id to a base. The map n -> (a*n + c) mod N is
// one-to-one on any N consecutive ids when a and N are coprime, so the
// regular dataset never repeats a base (and so never a name) while the base
// still depends only on (seed, id).
func genNameBase(seed int64, id int32) int {
	const a = 331 // prime, and no factor of genNameBases
	n := genNameBases
	c := int(genMix(uint64(seed)^0x51ed270b27e4c3a9) % uint64(n))
	k := (int64(id)%int64(n) + int64(n)) % int64(n) // ids below zero too
	return int((k*a + int64(c)) % int64(n))
}

// genBaseParts returns the base as one or two strings to concatenate.
func genBaseParts(base int) (string, string) {
	k := len(genNameFirst) * len(genNameSecond)
	if base >= k {
		return genFamilyNames[base-k], ""
	}
	return genNameFirst[base/len(genNameSecond)], genNameSecond[base%len(genNameSecond)]
}

// genCompanyName builds the name, optionally after a bulk index prefix, in
// one allocation (BulkListing calls it a million times).
func genCompanyName(bulkIndex int, base int, word, suffix string) string {
	var buf [128]byte
	b := buf[:0]
	if bulkIndex >= 0 {
		b = append(b, "Portfolio Company "...)
		b = genAppendPadded(b, bulkIndex+1, 7)
		b = append(b, ' ')
	}
	p1, p2 := genBaseParts(base)
	b = append(b, p1...)
	b = append(b, p2...)
	b = append(b, ' ')
	b = append(b, word...)
	b = append(b, ' ')
	b = append(b, suffix...)
	return string(b)
}

// genAppendPadded appends n in decimal with leading zeros to width digits.
func genAppendPadded(b []byte, n, width int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for i := len(d); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, d...)
}

// genCity is a head-office location.
type genCity struct{ city, state, country string }

// genCities are real cities with their state or province.
var genCities = []genCity{
	{"New York", "NY", "USA"}, {"Chicago", "IL", "USA"}, {"Houston", "TX", "USA"}, {"Dallas", "TX", "USA"},
	{"Atlanta", "GA", "USA"}, {"Charlotte", "NC", "USA"}, {"Denver", "CO", "USA"}, {"Phoenix", "AZ", "USA"},
	{"Seattle", "WA", "USA"}, {"Minneapolis", "MN", "USA"}, {"Columbus", "OH", "USA"}, {"Cleveland", "OH", "USA"},
	{"Cincinnati", "OH", "USA"}, {"Indianapolis", "IN", "USA"}, {"Detroit", "MI", "USA"}, {"Grand Rapids", "MI", "USA"},
	{"Milwaukee", "WI", "USA"}, {"St. Louis", "MO", "USA"}, {"Kansas City", "MO", "USA"}, {"Omaha", "NE", "USA"},
	{"Nashville", "TN", "USA"}, {"Memphis", "TN", "USA"}, {"Louisville", "KY", "USA"}, {"Birmingham", "AL", "USA"},
	{"New Orleans", "LA", "USA"}, {"Oklahoma City", "OK", "USA"}, {"Tulsa", "OK", "USA"}, {"Salt Lake City", "UT", "USA"},
	{"Boise", "ID", "USA"}, {"Portland", "OR", "USA"}, {"Sacramento", "CA", "USA"}, {"San Jose", "CA", "USA"},
	{"Los Angeles", "CA", "USA"}, {"San Diego", "CA", "USA"}, {"Irvine", "CA", "USA"}, {"Las Vegas", "NV", "USA"},
	{"Albuquerque", "NM", "USA"}, {"Austin", "TX", "USA"}, {"San Antonio", "TX", "USA"}, {"Fort Worth", "TX", "USA"},
	{"Tampa", "FL", "USA"}, {"Orlando", "FL", "USA"}, {"Miami", "FL", "USA"}, {"Jacksonville", "FL", "USA"},
	{"Richmond", "VA", "USA"}, {"Baltimore", "MD", "USA"}, {"Philadelphia", "PA", "USA"}, {"Pittsburgh", "PA", "USA"},
	{"Hartford", "CT", "USA"}, {"Boston", "MA", "USA"}, {"Providence", "RI", "USA"}, {"Newark", "NJ", "USA"},
	{"Buffalo", "NY", "USA"}, {"Raleigh", "NC", "USA"}, {"Greenville", "SC", "USA"}, {"Des Moines", "IA", "USA"},
	{"Toledo", "OH", "USA"}, {"Spokane", "WA", "USA"}, {"Toronto", "ON", "Canada"}, {"Calgary", "AB", "Canada"},
	{"Vancouver", "BC", "Canada"}, {"Montreal", "QC", "Canada"},
}

// genStreets are street names for head-office addresses.
var genStreets = []string{"Commerce Parkway", "Industrial Drive", "Main Street", "Market Street",
	"Enterprise Way", "Corporate Center Drive", "Riverside Avenue", "Technology Boulevard",
	"Lakeview Road", "Harbor Boulevard", "Park Avenue", "Elm Street", "Executive Drive",
	"Gateway Boulevard", "Distribution Way", "Airport Road", "Mill Street", "Franklin Avenue",
	"Washington Street", "Center Street"}

// People's names for officers.
var (
	genFirstNames = []string{"James", "Mary", "Robert", "Patricia", "Michael", "Jennifer", "David",
		"Linda", "William", "Elizabeth", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah",
		"Charles", "Karen", "Daniel", "Lisa", "Matthew", "Nancy", "Anthony", "Sandra", "Mark",
		"Ashley", "Steven", "Emily", "Andrew", "Michelle", "Kevin", "Amanda", "Brian", "Melissa",
		"Priya", "Wei", "Carlos", "Sofia", "Ahmed", "Fatima", "Hiroshi", "Ana", "Olumide", "Ingrid",
		"Rajesh", "Mei", "Diego", "Leah", "Tomasz", "Grace"}
	genLastNames = []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller",
		"Davis", "Rodriguez", "Martinez", "Hernandez", "Lopez", "Wilson", "Anderson", "Taylor",
		"Thomas", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris",
		"Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
		"Scott", "Torres", "Nguyen", "Hill", "Flores", "Adams", "Nelson", "Baker", "Hall",
		"Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Patel", "Chen", "Kim", "Singh",
		"O'Brien", "Murphy", "Schmidt", "Rossi", "Cohen", "Okonkwo", "Larsen", "Dubois", "Ivanova"}
)

// genCityIndex returns the table index of a city name; 0 if absent.
func genCityIndex(city string) int {
	for i := range genCities {
		if genCities[i].city == city {
			return i
		}
	}
	return 0
}
