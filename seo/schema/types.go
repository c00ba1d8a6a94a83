package schema

import (
	"strings"
)

// parents maps a schema.org type to its parent, for the branches of the
// hierarchy the rules and the AEO audits read (https://schema.org, version
// 29): articles, organizations and local businesses, events, products,
// reviews and ratings, software, web pages, media, how-tos and postings.
// A type missing here has no known parent.
var parents = map[string]string{}

// hierarchy lists, per parent, the children that parents is built from.
var hierarchy = map[string][]string{
	"CreativeWork": {"Article", "Book", "Clip", "Comment", "Course", "Dataset", "HowTo", "MediaObject",
		"Movie", "Question", "Review", "SoftwareApplication", "WebPage", "WebSite",
		"SpecialAnnouncement", "Guide", "Claim"},
	"Article": {"NewsArticle", "TechArticle", "ScholarlyArticle", "Report",
		"SocialMediaPosting", "AdvertiserContentArticle", "SatiricalArticle"},
	"NewsArticle": {"AnalysisNewsArticle", "AskPublicOpinionNewsArticle", "BackgroundNewsArticle",
		"OpinionNewsArticle", "ReportageNewsArticle", "ReviewNewsArticle"},
	"SocialMediaPosting":  {"BlogPosting", "DiscussionForumPosting"},
	"BlogPosting":         {"LiveBlogPosting"},
	"TechArticle":         {"APIReference"},
	"ScholarlyArticle":    {"MedicalScholarlyArticle"},
	"HowTo":               {"Recipe"},
	"Comment":             {"Answer", "CorrectionComment"},
	"MediaObject":         {"ImageObject", "VideoObject", "AudioObject", "3DModel"},
	"ImageObject":         {"Barcode"},
	"Review":              {"ClaimReview", "CriticReview", "EmployerReview", "MediaReview", "Recommendation", "UserReview"},
	"Intangible":          {"Rating", "Offer", "ListItem", "ItemList", "Brand", "SpeakableSpecification", "JobPosting"},
	"Rating":              {"AggregateRating", "EndorsementRating"},
	"AggregateRating":     {"EmployerAggregateRating"},
	"Offer":               {"AggregateOffer", "OfferForLease", "OfferForPurchase"},
	"ItemList":            {"BreadcrumbList", "HowToSection", "HowToStep", "OfferCatalog"},
	"ListItem":            {"HowToDirection", "HowToTip", "HowToSupply", "HowToTool"},
	"SoftwareApplication": {"MobileApplication", "VideoGame", "WebApplication"},
	"WebPage": {"AboutPage", "CheckoutPage", "CollectionPage", "ContactPage", "FAQPage", "ItemPage",
		"MedicalWebPage", "ProfilePage", "QAPage", "RealEstateListing", "SearchResultsPage"},
	"CollectionPage": {"MediaGallery"},
	"MediaGallery":   {"ImageGallery", "VideoGallery"},
	"Thing":          {"CreativeWork", "Event", "Intangible", "Organization", "Person", "Place", "Product"},
	"Product":        {"IndividualProduct", "ProductCollection", "ProductGroup", "ProductModel", "SomeProducts", "Vehicle"},
	"Vehicle":        {"Car", "BusOrCoach", "Motorcycle", "MotorizedBicycle"},
	"Person":         {"Patient"},
	"Event": {"BusinessEvent", "ChildrensEvent", "ComedyEvent", "CourseInstance", "DanceEvent", "DeliveryEvent",
		"EducationEvent", "EventSeries", "ExhibitionEvent", "Festival", "FoodEvent", "Hackathon", "LiteraryEvent",
		"MusicEvent", "PublicationEvent", "SaleEvent", "ScreeningEvent", "SocialEvent", "SportsEvent",
		"TheaterEvent", "VisualArtsEvent"},
	"PublicationEvent": {"BroadcastEvent", "OnDemandEvent"},
	"Organization": {"Airline", "Consortium", "Cooperative", "Corporation", "EducationalOrganization",
		"FundingScheme", "GovernmentOrganization", "LibrarySystem", "LocalBusiness", "MedicalOrganization",
		"NGO", "NewsMediaOrganization", "OnlineBusiness", "PerformingGroup", "PoliticalParty", "Project",
		"ResearchOrganization", "SearchRescueOrganization", "SportsOrganization", "WorkersUnion"},
	"EducationalOrganization": {"CollegeOrUniversity", "ElementarySchool", "HighSchool", "MiddleSchool", "Preschool", "School"},
	"OnlineBusiness":          {"OnlineStore"},
	"SportsOrganization":      {"SportsTeam"},
	"LocalBusiness": {"AnimalShelter", "ArchiveOrganization", "AutomotiveBusiness", "ChildCare", "Dentist",
		"DryCleaningOrLaundry", "EmergencyService", "EmploymentAgency", "EntertainmentBusiness",
		"FinancialService", "FoodEstablishment", "GovernmentOffice", "HealthAndBeautyBusiness",
		"HomeAndConstructionBusiness", "InternetCafe", "LegalService", "Library", "LodgingBusiness",
		"MedicalBusiness", "ProfessionalService", "RadioStation", "RealEstateAgent", "RecyclingCenter",
		"SelfStorage", "ShoppingCenter", "SportsActivityLocation", "Store", "TelevisionStation",
		"TouristInformationCenter", "TravelAgency"},
	"AutomotiveBusiness": {"AutoBodyShop", "AutoDealer", "AutoPartsStore", "AutoRental", "AutoRepair", "AutoWash",
		"GasStation", "MotorcycleDealer", "MotorcycleRepair"},
	"EmergencyService":      {"FireStation", "Hospital", "PoliceStation"},
	"EntertainmentBusiness": {"AdultEntertainment", "AmusementPark", "ArtGallery", "Casino", "ComedyClub", "MovieTheater", "NightClub"},
	"FinancialService":      {"AccountingService", "AutomatedTeller", "BankOrCreditUnion", "InsuranceAgency"},
	"FoodEstablishment": {"Bakery", "BarOrPub", "Brewery", "CafeOrCoffeeShop", "Distillery", "FastFoodRestaurant",
		"IceCreamShop", "Restaurant", "Winery"},
	"GovernmentOffice":        {"PostOffice"},
	"HealthAndBeautyBusiness": {"BeautySalon", "DaySpa", "HairSalon", "HealthClub", "NailSalon", "TattooParlor"},
	"HomeAndConstructionBusiness": {"Electrician", "GeneralContractor", "HVACBusiness", "HousePainter", "Locksmith",
		"MovingCompany", "Plumber", "RoofingContractor"},
	"LegalService":    {"Attorney", "Notary"},
	"LodgingBusiness": {"BedAndBreakfast", "Campground", "Hostel", "Hotel", "Motel", "Resort", "VacationRental"},
	"MedicalBusiness": {"CommunityHealth", "Dermatology", "DietNutrition", "Emergency", "Geriatric", "Gynecologic",
		"MedicalClinic", "Midwifery", "Nursing", "Obstetric", "Oncologic", "Optician", "Optometric",
		"Otolaryngologic", "Pediatric", "Pharmacy", "Physician", "Physiotherapy", "PlasticSurgery", "Podiatric",
		"PrimaryCare", "Psychiatric", "PublicHealth"},
	"SportsActivityLocation": {"BowlingAlley", "ExerciseGym", "GolfCourse", "PublicSwimmingPool", "SkiResort",
		"SportsClub", "StadiumOrArena", "TennisComplex"},
	"Store": {"BikeStore", "BookStore", "ClothingStore", "ComputerStore", "ConvenienceStore", "DepartmentStore",
		"ElectronicsStore", "Florist", "FurnitureStore", "GardenStore", "GroceryStore", "HardwareStore",
		"HobbyShop", "HomeGoodsStore", "JewelryStore", "LiquorStore", "MensClothingStore", "MobilePhoneStore",
		"MovieRentalStore", "MusicStore", "OfficeEquipmentStore", "OutletStore", "PawnShop", "PetStore",
		"ShoeStore", "SportingGoodsStore", "TireShop", "ToyStore", "WholesaleStore"},
}

func init() {
	for parent, children := range hierarchy {
		for _, c := range children {
			if p, ok := parents[c]; ok {
				panic("schema: " + c + " has two parents, " + p + " and " + parent)
			}
			parents[c] = parent
		}
	}
}

// Is reports whether the schema.org type t is ancestor or one of its
// subtypes (Restaurant is a LocalBusiness and an Organization; Recipe is a
// HowTo). Both are short names as ShortType gives them.
func Is(t, ancestor string) bool {
	for range 12 { // deeper than the hierarchy goes
		if t == ancestor {
			return true
		}
		p, ok := parents[t]
		if !ok {
			return false
		}
		t = p
	}
	return false
}

// ShortType is a schema.org type name without its vocabulary:
// "https://schema.org/Product", "http://schema.org/Product/",
// "schema:Product" and "Product" are all "Product". A type from another
// vocabulary (an IRI outside schema.org) is returned trimmed, as written.
func ShortType(t string) string {
	t = strings.TrimSpace(t)
	lower := strings.ToLower(t)
	for _, prefix := range []string{"https://schema.org/", "http://schema.org/", "https://www.schema.org/",
		"http://www.schema.org/", "schema:", "sdo:"} {
		if strings.HasPrefix(lower, prefix) {
			return strings.Trim(t[len(prefix):], "/ ")
		}
	}
	return t
}

// ItemTypes returns the short @type names of a JSON-LD object (a string
// or a list of strings), in order.
func ItemTypes(item map[string]any) []string {
	var out []string
	switch t := item["@type"].(type) {
	case string:
		if s := ShortType(t); s != "" {
			out = append(out, s)
		}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				if s = ShortType(s); s != "" {
					out = append(out, s)
				}
			}
		}
	}
	return out
}
