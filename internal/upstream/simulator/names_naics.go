package simulator

// genIndustry is one NAICS (2022) industry the generator can assign: the
// real code and title, words that fit a company name in that industry, and a
// phrase for the business summary.
type genIndustry struct {
	code     string
	title    string
	words    []string
	activity string
}

// sector is the two-digit NAICS sector of the industry.
func (i *genIndustry) sector() string { return i.code[:2] }

// genIndustries lists the industries in code order. Indexes into this table
// are stored in the cheap part of a business, so only append to it.
var genIndustries = []genIndustry{
	{"211120", "Crude Petroleum Extraction", []string{"Energy", "Petroleum", "Resources"}, "explores for and produces crude oil"},
	{"212230", "Copper, Nickel, Lead, and Zinc Mining", []string{"Mining", "Minerals", "Metals"}, "mines and concentrates copper and zinc ore"},
	{"213111", "Drilling Oil and Gas Wells", []string{"Drilling", "Energy Services", "Well Services"}, "drills oil and gas wells under contract for producers"},
	{"221112", "Fossil Fuel Electric Power Generation", []string{"Power", "Generation", "Energy"}, "runs natural-gas and coal-fired power plants"},
	{"221122", "Electric Power Distribution", []string{"Electric", "Power & Light", "Utilities"}, "distributes electricity to homes and businesses"},
	{"221210", "Natural Gas Distribution", []string{"Gas", "Gas Utilities", "Energy"}, "distributes natural gas to households and businesses"},
	{"221310", "Water Supply and Irrigation Systems", []string{"Water", "Water Works", "Utilities"}, "supplies drinking water and runs irrigation systems"},
	{"236220", "Commercial and Institutional Building Construction", []string{"Construction", "Builders", "Contracting"}, "builds offices, schools and hospitals as general contractor"},
	{"237310", "Highway, Street, and Bridge Construction", []string{"Paving", "Infrastructure", "Civil Works"}, "builds and repairs highways, streets and bridges"},
	{"238220", "Plumbing, Heating, and Air-Conditioning Contractors", []string{"Mechanical", "Plumbing", "Climate Services"}, "installs plumbing, heating and air-conditioning systems"},
	{"311411", "Frozen Fruit, Juice, and Vegetable Manufacturing", []string{"Foods", "Farms", "Produce"}, "processes and freezes fruit, juices and vegetables"},
	{"311812", "Commercial Bakeries", []string{"Baking", "Bakeries", "Bread"}, "bakes bread and rolls for grocers and food-service customers"},
	{"312111", "Soft Drink Manufacturing", []string{"Beverages", "Bottling", "Drinks"}, "bottles and distributes soft drinks"},
	{"322211", "Corrugated and Solid Fiber Box Manufacturing", []string{"Packaging", "Paperboard", "Containers"}, "makes corrugated boxes and shipping containers"},
	{"324110", "Petroleum Refineries", []string{"Refining", "Petroleum", "Fuels"}, "refines crude oil into gasoline, diesel and jet fuel"},
	{"325110", "Petrochemical Manufacturing", []string{"Chemicals", "Petrochemicals", "Chemical"}, "produces ethylene, propylene and other petrochemicals"},
	{"325211", "Plastics Material and Resin Manufacturing", []string{"Polymers", "Resins", "Chemicals"}, "produces plastic resins and polymers"},
	{"325412", "Pharmaceutical Preparation Manufacturing", []string{"Pharmaceuticals", "Therapeutics", "Labs"}, "develops and manufactures prescription medicines"},
	{"325510", "Paint and Coating Manufacturing", []string{"Coatings", "Paints", "Finishes"}, "makes architectural paints and industrial coatings"},
	{"326199", "All Other Plastics Product Manufacturing", []string{"Plastics", "Molding", "Products"}, "molds plastic parts for industrial and consumer customers"},
	{"331110", "Iron and Steel Mills and Ferroalloy Manufacturing", []string{"Steel", "Metals", "Steel Works"}, "runs steel mills producing flat-rolled and long products"},
	{"332710", "Machine Shops", []string{"Machining", "Precision", "Tool Works"}, "machines precision parts to customer drawings"},
	{"333111", "Farm Machinery and Equipment Manufacturing", []string{"Equipment", "Agri Systems", "Implements"}, "builds tractors, combines and farm implements"},
	{"333120", "Construction Machinery Manufacturing", []string{"Machinery", "Heavy Equipment", "Industries"}, "builds excavators, loaders and other construction machinery"},
	{"334111", "Electronic Computer Manufacturing", []string{"Computing", "Systems", "Technologies"}, "designs and assembles servers and personal computers"},
	{"334413", "Semiconductor and Related Device Manufacturing", []string{"Semiconductor", "Microsystems", "Silicon"}, "designs and fabricates semiconductor devices"},
	{"335312", "Motor and Generator Manufacturing", []string{"Electric", "Motors", "Power Systems"}, "manufactures electric motors and generators"},
	{"336111", "Automobile Manufacturing", []string{"Motors", "Automotive", "Motor Works"}, "designs and assembles passenger cars"},
	{"336390", "Other Motor Vehicle Parts Manufacturing", []string{"Auto Parts", "Components", "Automotive"}, "supplies components to vehicle manufacturers"},
	{"336411", "Aircraft Manufacturing", []string{"Aerospace", "Aviation", "Aircraft"}, "builds commercial and business aircraft"},
	{"339112", "Surgical and Medical Instrument Manufacturing", []string{"Medical", "Surgical", "Instruments"}, "makes surgical and medical instruments"},
	{"423430", "Computer and Computer Peripheral Equipment and Software Merchant Wholesalers", []string{"Tech Distribution", "Computer Supply", "Systems"}, "distributes computers, peripherals and software to resellers"},
	{"423510", "Metal Service Centers and Other Metal Merchant Wholesalers", []string{"Metals", "Steel Supply", "Metal Service"}, "cuts and distributes steel and aluminum products"},
	{"423830", "Industrial Machinery and Equipment Merchant Wholesalers", []string{"Industrial Supply", "Equipment", "Distribution"}, "distributes industrial machinery, parts and equipment"},
	{"424210", "Drugs and Druggists' Sundries Merchant Wholesalers", []string{"Drug Distribution", "Pharma Supply", "Health Supply"}, "distributes medicines to pharmacies and hospitals"},
	{"424410", "General Line Grocery Merchant Wholesalers", []string{"Food Distribution", "Grocers Supply", "Foods"}, "supplies groceries to independent supermarkets"},
	{"424720", "Petroleum and Petroleum Products Merchant Wholesalers (except Bulk Stations and Terminals)", []string{"Fuels", "Petroleum", "Energy Supply"}, "wholesales gasoline, diesel and lubricants"},
	{"441110", "New Car Dealers", []string{"Auto Group", "Motors", "Automotive"}, "runs new-car dealerships"},
	{"444110", "Home Centers", []string{"Home Centers", "Building Supply", "Hardware"}, "runs home-improvement stores"},
	{"445110", "Supermarkets and Other Grocery Retailers (except Convenience Retailers)", []string{"Markets", "Grocers", "Foods"}, "operates supermarkets"},
	{"449110", "Furniture Retailers", []string{"Furniture", "Home Furnishings", "Interiors"}, "sells furniture through showrooms and online"},
	{"455110", "Department Stores", []string{"Stores", "Department Stores", "Retail"}, "operates department stores selling apparel, home goods and cosmetics"},
	{"455211", "Warehouse Clubs and Supercenters", []string{"Wholesale Club", "Supercenters", "Stores"}, "operates membership warehouse clubs and supercenters"},
	{"456110", "Pharmacies and Drug Retailers", []string{"Pharmacy", "Drug Stores", "Drug"}, "runs retail pharmacies"},
	{"458110", "Clothing and Clothing Accessories Retailers", []string{"Apparel", "Outfitters", "Clothing"}, "sells apparel and accessories in stores and online"},
	{"481111", "Scheduled Passenger Air Transportation", []string{"Airlines", "Air", "Airways"}, "flies scheduled passenger routes"},
	{"482111", "Line-Haul Railroads", []string{"Railroad", "Rail", "Railway"}, "operates freight railroads"},
	{"484121", "General Freight Trucking, Long-Distance, Truckload", []string{"Freight", "Trucking", "Transport"}, "hauls full-truckload freight over long distances"},
	{"484122", "General Freight Trucking, Long-Distance, Less Than Truckload", []string{"Freight Lines", "Express", "Transport"}, "carries less-than-truckload freight through a terminal network"},
	{"488510", "Freight Transportation Arrangement", []string{"Logistics", "Freight Solutions", "Shipping"}, "arranges freight shipments for manufacturers and retailers"},
	{"492110", "Couriers and Express Delivery Services", []string{"Express", "Couriers", "Delivery"}, "delivers parcels and documents"},
	{"493110", "General Warehousing and Storage", []string{"Warehousing", "Distribution Centers", "Logistics"}, "runs warehouses and distribution centers"},
	{"513210", "Software Publishers", []string{"Software", "Systems", "Digital"}, "develops and licenses business software"},
	{"517111", "Wired Telecommunications Carriers", []string{"Telecom", "Communications", "Networks"}, "provides broadband, voice and fiber services over its own network"},
	{"517112", "Wireless Telecommunications Carriers (except Satellite)", []string{"Wireless", "Mobile", "Communications"}, "operates a mobile network"},
	{"518210", "Computing Infrastructure Providers, Data Processing, Web Hosting, and Related Services", []string{"Data Centers", "Cloud", "Hosting"}, "runs data centers and cloud hosting services"},
	{"531120", "Lessors of Nonresidential Buildings (except Miniwarehouses)", []string{"Properties", "Realty", "Real Estate"}, "owns and leases office and retail buildings"},
	{"541330", "Engineering Services", []string{"Engineering", "Engineers", "Design Group"}, "provides engineering and design services"},
	{"541511", "Custom Computer Programming Services", []string{"Software Services", "Digital", "Technologies"}, "builds custom software for corporate clients"},
	{"541611", "Administrative Management and General Management Consulting Services", []string{"Consulting", "Advisors", "Partners"}, "advises companies on strategy and operations"},
	{"561320", "Temporary Help Services", []string{"Staffing", "Workforce", "Personnel"}, "places temporary workers with employers"},
	{"562111", "Solid Waste Collection", []string{"Waste Services", "Environmental", "Disposal"}, "collects and hauls municipal and commercial waste"},
	{"621111", "Offices of Physicians (except Mental Health Specialists)", []string{"Medical Group", "Physicians", "Health Partners"}, "runs multi-specialty physician practices"},
	{"622110", "General Medical and Surgical Hospitals", []string{"Health System", "Hospital", "Medical Center"}, "operates general acute-care hospitals"},
	{"623110", "Nursing Care Facilities (Skilled Nursing Facilities)", []string{"Senior Care", "Care Centers", "Health Care"}, "operates skilled nursing facilities"},
	{"721110", "Hotels (except Casino Hotels) and Motels", []string{"Hotels", "Hospitality", "Inns"}, "owns and operates hotels"},
	{"722511", "Full-Service Restaurants", []string{"Restaurants", "Dining", "Grill"}, "operates full-service restaurants"},
	{"722513", "Limited-Service Restaurants", []string{"Eateries", "Restaurant Group", "Kitchens"}, "franchises and runs quick-service restaurants"},
}

// genIndustryIndex returns the table index of a NAICS code; -1 if absent.
func genIndustryIndex(code string) int {
	for i := range genIndustries {
		if genIndustries[i].code == code {
			return i
		}
	}
	return -1
}
