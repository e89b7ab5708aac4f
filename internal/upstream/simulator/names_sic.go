package simulator

import "slices"

// sicIndustry is a four-digit SIC code and its title.
type sicIndustry struct {
	code, title string
}

// sicByNAICS maps each NAICS code the generator assigns to the SIC industry
// it came from (the Census concordance, one code each). A business's main
// SIC code is that of its first NAICS code, and its other codes follow its
// other NAICS codes, so the two classifications never disagree.
var sicByNAICS = map[string]sicIndustry{
	"211120": {"1311", "Crude Petroleum and Natural Gas"},
	"212230": {"1021", "Copper Ores"},
	"213111": {"1381", "Drilling Oil and Gas Wells"},
	"221112": {"4911", "Electric Services"},
	"221122": {"4911", "Electric Services"},
	"221210": {"4924", "Natural Gas Distribution"},
	"221310": {"4941", "Water Supply"},
	"236220": {"1542", "General Contractors-Nonresidential Buildings"},
	"237310": {"1611", "Highway and Street Construction"},
	"238220": {"1711", "Plumbing, Heating and Air-Conditioning"},
	"311411": {"2037", "Frozen Fruits, Fruit Juices, and Vegetables"},
	"311812": {"2051", "Bread and Other Bakery Products"},
	"312111": {"2086", "Bottled and Canned Soft Drinks"},
	"322211": {"2653", "Corrugated and Solid Fiber Boxes"},
	"324110": {"2911", "Petroleum Refining"},
	"325110": {"2869", "Industrial Organic Chemicals"},
	"325211": {"2821", "Plastics Materials and Synthetic Resins"},
	"325412": {"2834", "Pharmaceutical Preparations"},
	"325510": {"2851", "Paints, Varnishes, and Allied Products"},
	"326199": {"3089", "Plastics Products"},
	"331110": {"3312", "Steel Works, Blast Furnaces, and Rolling Mills"},
	"332710": {"3599", "Industrial and Commercial Machinery"},
	"333111": {"3523", "Farm Machinery and Equipment"},
	"333120": {"3531", "Construction Machinery and Equipment"},
	"334111": {"3571", "Electronic Computers"},
	"334413": {"3674", "Semiconductors and Related Devices"},
	"335312": {"3621", "Motors and Generators"},
	"336111": {"3711", "Motor Vehicles and Passenger Car Bodies"},
	"336390": {"3714", "Motor Vehicle Parts and Accessories"},
	"336411": {"3721", "Aircraft"},
	"339112": {"3841", "Surgical and Medical Instruments"},
	"423430": {"5045", "Computers, Peripherals, and Software"},
	"423510": {"5051", "Metals Service Centers and Offices"},
	"423830": {"5084", "Industrial Machinery and Equipment"},
	"424210": {"5122", "Drugs, Drug Proprietaries, and Druggists' Sundries"},
	"424410": {"5141", "Groceries, General Line"},
	"424720": {"5172", "Petroleum and Petroleum Products Wholesalers"},
	"441110": {"5511", "Motor Vehicle Dealers (New and Used)"},
	"444110": {"5211", "Lumber and Other Building Materials Dealers"},
	"445110": {"5411", "Grocery Stores"},
	"449110": {"5712", "Furniture Stores"},
	"455110": {"5311", "Department Stores"},
	"455211": {"5399", "Miscellaneous General Merchandise Stores"},
	"456110": {"5912", "Drug Stores and Proprietary Stores"},
	"458110": {"5651", "Family Clothing Stores"},
	"481111": {"4512", "Air Transportation, Scheduled"},
	"482111": {"4011", "Railroads, Line-Haul Operating"},
	"484121": {"4213", "Trucking, Except Local"},
	"484122": {"4213", "Trucking, Except Local"},
	"488510": {"4731", "Arrangement of Transportation of Freight and Cargo"},
	"492110": {"4215", "Courier Services, Except by Air"},
	"493110": {"4225", "General Warehousing and Storage"},
	"513210": {"7372", "Prepackaged Software"},
	"517111": {"4813", "Telephone Communications"},
	"517112": {"4812", "Radiotelephone Communications"},
	"518210": {"7374", "Computer Processing and Data Preparation"},
	"531120": {"6512", "Operators of Nonresidential Buildings"},
	"541330": {"8711", "Engineering Services"},
	"541511": {"7371", "Computer Programming Services"},
	"541611": {"8742", "Management Consulting Services"},
	"561320": {"7363", "Help Supply Services"},
	"562111": {"4953", "Refuse Systems"},
	"621111": {"8011", "Offices and Clinics of Doctors of Medicine"},
	"622110": {"8062", "General Medical and Surgical Hospitals"},
	"623110": {"8051", "Skilled Nursing Care Facilities"},
	"721110": {"7011", "Hotels and Motels"},
	"722511": {"5812", "Eating Places"},
	"722513": {"5812", "Eating Places"},
}

// sicCodes lists a business's SIC codes, main one first, without repeats;
// NAICS codes outside the table (a hand-made dataset's) have none.
func sicCodes(b *Business) []string {
	var out []string
	for _, n := range b.NAICS {
		if s, ok := sicByNAICS[n.Code]; ok && !slices.Contains(out, s.code) {
			out = append(out, s.code)
		}
	}
	return out
}

// sicTitle is the title of a SIC code, "" when the table lacks it.
func sicTitle(code string) string {
	for _, s := range sicByNAICS {
		if s.code == code {
			return s.title
		}
	}
	return ""
}
