package company

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Reading JSON-LD values, which come as a string, a number, a
// {"@value": ...} object, an object with a name, or a list of these.

// first is v, or its first element when it is a list.
func first(v any) any {
	if list, ok := v.([]any); ok {
		for _, e := range list {
			if e != nil {
				return e
			}
		}
		return nil
	}
	return v
}

// text is v as one string: a string, a number, an @value, or the first of
// a list; "" for anything else.
func text(v any) string {
	switch v := first(v).(type) {
	case string:
		return strings.TrimSpace(v)
	case json.Number:
		return v.String()
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case map[string]any:
		if _, ok := v["@value"]; ok {
			return text(v["@value"])
		}
	}
	return ""
}

// texts is every string of v, in order.
func texts(v any) []string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []string
	for _, e := range list {
		if s := text(e); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// names are the names v gives: strings, or objects' name.
func names(v any) []string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	var out []string
	for _, e := range list {
		s := text(e)
		if m, ok := e.(map[string]any); ok && s == "" {
			s = text(m["name"])
		}
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// imageURL is an image's URL: a string, or an ImageObject's url,
// contentUrl or @id.
func imageURL(v any) string {
	switch v := first(v).(type) {
	case string:
		return strings.TrimSpace(v)
	case map[string]any:
		for _, k := range []string{"url", "contentUrl", "@id"} {
			if s := text(v[k]); s != "" {
				return s
			}
		}
	}
	return ""
}

// types are a node's @type values by their schema.org short names.
func types(n map[string]any) []string {
	var out []string
	for _, t := range texts(n["@type"]) {
		out = append(out, shortName(t))
	}
	return out
}

// shortName writes a schema.org type or property by its name
// ("Organization" for https://schema.org/Organization or
// schema:Organization); others stay as written.
func shortName(t string) string {
	for _, prefix := range []string{"https://schema.org/", "http://schema.org/", "https://www.schema.org/", "http://www.schema.org/", "schema:"} {
		if len(t) > len(prefix) && strings.EqualFold(t[:len(prefix)], prefix) {
			return strings.TrimSuffix(t[len(prefix):], "/")
		}
	}
	return t
}

// Organization types of schema.org: Organization and its subtypes, of
// which LocalBusiness has dozens; names ending in these are taken too.
var (
	organizationTypes = map[string]bool{
		"Organization": true, "Corporation": true, "LocalBusiness": true, "OnlineBusiness": true, "OnlineStore": true,
		"NGO": true, "Airline": true, "Consortium": true, "PerformingGroup": true, "MusicGroup": true, "SportsTeam": true,
		"LibrarySystem": true, "WorkersUnion": true, "Project": true, "FundingScheme": true, "Library": true,
		"Dentist": true, "Physician": true, "Pharmacy": true, "Optician": true, "Attorney": true, "Notary": true,
		"Hotel": true, "Motel": true, "Hostel": true, "Resort": true, "BedAndBreakfast": true, "Bakery": true,
		"BarOrPub": true, "CafeOrCoffeeShop": true, "Brewery": true, "Winery": true, "Distillery": true,
		"Electrician": true, "Plumber": true, "Locksmith": true, "HousePainter": true, "MovingCompany": true,
		"RealEstateAgent": true, "TravelAgency": true, "AutoDealer": true, "AutoRepair": true, "ChildCare": true,
		"RadioStation": true, "TelevisionStation": true, "SelfStorage": true, "ShoppingCenter": true,
		"FinancialService": true, "LegalService": true, "ProfessionalService": true, "EmergencyService": true,
		"AccountingService": true, "BankOrCreditUnion": true, "InsuranceAgency": true, "EmploymentAgency": true,
		"HVACBusiness": true, "RoofingContractor": true, "GeneralContractor": true, "DryCleaningOrLaundry": true,
		"MedicalClinic": true, "Hospital": true, "VeterinaryCare": true, "HealthClub": true, "DaySpa": true,
		"BeautySalon": true, "HairSalon": true, "NailSalon": true, "TattooParlor": true, "Florist": true,
	}
	organizationSuffixes = []string{"Organization", "Business", "Store", "Restaurant", "Agency", "Clinic", "Contractor"}
)

// isOrganization reports whether one of the types is an organization.
func isOrganization(ts []string) bool {
	for _, t := range ts {
		if organizationTypes[t] {
			return true
		}
		for _, s := range organizationSuffixes {
			if len(t) > len(s) && strings.HasSuffix(t, s) {
				return true
			}
		}
	}
	return false
}
