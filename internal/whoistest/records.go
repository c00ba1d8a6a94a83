package whoistest

import (
	"fmt"
	"strings"
)

// The canned records describe ExampleDomain as a .com registry and a
// registrar would, in the shapes the real ones use (Verisign's RDAP and
// whois, an ICANN-style registrar). Only the registrar is made up.
const (
	// ExampleDomain is the domain every canned record describes.
	ExampleDomain = "example.com"
	// IANAWhoisHost, RegistryWhoisHost and RegistrarWhoisHost are the
	// whois servers of the referral chain, as the answers name them.
	IANAWhoisHost      = "whois.iana.org"
	RegistryWhoisHost  = "whois.verisign-grs.com"
	RegistrarWhoisHost = "whois.example-registrar.test"
	// Base is replaced in RDAP records by the serving RDAP server's base
	// URL (ending in "/"), so that links point back at it.
	Base = "{{base}}"
)

// RegistryRDAP is a registry's RDAP domain object (RFC 9083, Verisign's
// shape) for example.com: status, events, the registrar entity with its
// IANA ID and abuse contact, name servers, secureDNS, and a "related"
// link to the registrar's record at Base + "registrar/domain/example.com"
// (serve RegistrarRDAP there).
const RegistryRDAP = `{
  "objectClassName": "domain",
  "handle": "2336799_DOMAIN_COM-VRSN",
  "ldhName": "EXAMPLE.COM",
  "links": [
    {"value": "{{base}}domain/EXAMPLE.COM", "rel": "self", "href": "{{base}}domain/EXAMPLE.COM", "type": "application/rdap+json"},
    {"value": "{{base}}registrar/domain/example.com", "rel": "related", "href": "{{base}}registrar/domain/example.com", "type": "application/rdap+json"}
  ],
  "status": ["client delete prohibited", "client transfer prohibited", "client update prohibited"],
  "entities": [
    {
      "objectClassName": "entity",
      "handle": "9999",
      "roles": ["registrar"],
      "publicIds": [{"type": "IANA Registrar ID", "identifier": "9999"}],
      "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "Example Registrar, Inc."]]],
      "entities": [
        {
          "objectClassName": "entity",
          "roles": ["abuse"],
          "vcardArray": ["vcard", [
            ["version", {}, "text", "4.0"],
            ["fn", {}, "text", ""],
            ["tel", {"type": "voice"}, "uri", "tel:+1.5555550100"],
            ["email", {}, "text", "abuse@example-registrar.test"]
          ]]
        }
      ]
    }
  ],
  "events": [
    {"eventAction": "registration", "eventDate": "1995-08-14T04:00:00Z"},
    {"eventAction": "expiration", "eventDate": "2026-08-13T04:00:00Z"},
    {"eventAction": "last changed", "eventDate": "2025-08-14T07:01:39Z"},
    {"eventAction": "last update of RDAP database", "eventDate": "2026-06-28T10:00:00Z"}
  ],
  "secureDNS": {
    "delegationSigned": true,
    "dsData": [{"keyTag": 370, "algorithm": 13, "digestType": 2, "digest": "BE74359954660069D5C63D200C39F5603827D7DD02B56F120EE9F3A86764247C"}]
  },
  "nameservers": [
    {"objectClassName": "nameserver", "ldhName": "A.IANA-SERVERS.NET"},
    {"objectClassName": "nameserver", "ldhName": "B.IANA-SERVERS.NET"}
  ],
  "rdapConformance": ["rdap_level_0", "icann_rdap_technical_implementation_guide_1", "icann_rdap_response_profile_1"],
  "notices": [
    {"title": "Terms of Use", "description": ["Service subject to Terms of Use."], "links": [{"href": "https://www.verisign.com/domain-names/registration-data-access-protocol/terms-service/index.xhtml", "type": "text/html"}]},
    {"title": "Status Codes", "description": ["For more information on domain status codes, please visit https://icann.org/epp"], "links": [{"href": "https://icann.org/epp", "type": "text/html"}]}
  ]
}`

// RegistrarRDAP is the registrar's RDAP record for example.com: what the
// registry leaves out, the registrar's URL and the registrant (its
// organization and country published, the rest redacted).
const RegistrarRDAP = `{
  "objectClassName": "domain",
  "ldhName": "example.com",
  "links": [{"value": "{{base}}registrar/domain/example.com", "rel": "self", "href": "{{base}}registrar/domain/example.com", "type": "application/rdap+json"}],
  "status": ["client transfer prohibited"],
  "entities": [
    {
      "objectClassName": "entity",
      "handle": "9999",
      "roles": ["registrar"],
      "publicIds": [{"type": "IANA Registrar ID", "identifier": "9999"}],
      "vcardArray": ["vcard", [
        ["version", {}, "text", "4.0"],
        ["fn", {}, "text", "Example Registrar, Inc."],
        ["url", {}, "uri", "https://www.example-registrar.test/"]
      ]]
    },
    {
      "objectClassName": "entity",
      "roles": ["registrant"],
      "vcardArray": ["vcard", [
        ["version", {}, "text", "4.0"],
        ["fn", {}, "text", "REDACTED FOR PRIVACY"],
        ["org", {}, "text", "Internet Assigned Numbers Authority"],
        ["adr", {"cc": "US"}, "text", ["", "", "", "", "CA", "", ""]]
      ]],
      "remarks": [{"title": "REDACTED FOR PRIVACY", "type": "object redacted due to authorization", "description": ["Some of the data in this object has been removed."]}]
    },
    {
      "objectClassName": "entity",
      "roles": ["technical"],
      "vcardArray": ["vcard", [["version", {}, "text", "4.0"], ["fn", {}, "text", "REDACTED FOR PRIVACY"]]]
    }
  ],
  "events": [
    {"eventAction": "registration", "eventDate": "1995-08-14T04:00:00Z"},
    {"eventAction": "expiration", "eventDate": "2026-08-13T04:00:00Z"}
  ],
  "nameservers": [
    {"objectClassName": "nameserver", "ldhName": "a.iana-servers.net"},
    {"objectClassName": "nameserver", "ldhName": "b.iana-servers.net"}
  ],
  "rdapConformance": ["rdap_level_0", "icann_rdap_response_profile_1"]
}`

// IANAComWhois is whois.iana.org's answer to "com": the registry's whois
// server on its "refer:" and "whois:" lines.
const IANAComWhois = `% IANA WHOIS server
% for more information on IANA, visit http://www.iana.org
% This query returned 1 object

refer:        whois.verisign-grs.com

domain:       COM

organisation: VeriSign Global Registry Services
address:      12061 Bluemont Way
address:      Reston VA 20190
address:      United States of America (the)

contact:      administrative
name:         Registry Customer Service
organisation: VeriSign Global Registry Services
address:      12061 Bluemont Way
address:      Reston VA 20190
address:      United States of America (the)
phone:        +1 703 925-6999
fax-no:       +1 703 948 3978
e-mail:       info@verisign-grs.com

nserver:      A.GTLD-SERVERS.NET 192.5.6.30 2001:503:a83e:0:0:0:2:30
nserver:      B.GTLD-SERVERS.NET 192.33.14.30 2001:503:231d:0:0:0:2:30
ds-rdata:     19718 13 2 8acbb0cd28f41250a80a491389424d341522d946b0da0c0291f2d3d771d7805a

whois:        whois.verisign-grs.com

status:       ACTIVE
remarks:      Registration information: http://www.verisigninc.com

created:      1985-01-01
changed:      2023-12-07
source:       IANA

`

// IANANoMatchWhois is whois.iana.org's answer for a TLD it does not know.
const IANANoMatchWhois = `% IANA WHOIS server
% for more information on IANA, visit http://www.iana.org
%
% This query returned 0 objects.
`

// RegistryWhois is Verisign's thin answer for example.com, referring to
// the registrar's whois server (RegistrarWhoisHost).
const RegistryWhois = `   Domain Name: EXAMPLE.COM
   Registry Domain ID: 2336799_DOMAIN_COM-VRSN
   Registrar WHOIS Server: whois.example-registrar.test
   Registrar URL: http://www.example-registrar.test
   Updated Date: 2025-08-14T07:01:39Z
   Creation Date: 1995-08-14T04:00:00Z
   Registry Expiry Date: 2026-08-13T04:00:00Z
   Registrar: Example Registrar, Inc.
   Registrar IANA ID: 9999
   Registrar Abuse Contact Email: abuse@example-registrar.test
   Registrar Abuse Contact Phone: +1.5555550100
   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited
   Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited
   Domain Status: clientUpdateProhibited https://icann.org/epp#clientUpdateProhibited
   Name Server: A.IANA-SERVERS.NET
   Name Server: B.IANA-SERVERS.NET
   DNSSEC: signedDelegation
   DNSSEC DS Data: 370 13 2 BE74359954660069D5C63D200C39F5603827D7DD02B56F120EE9F3A86764247C
   URL of the ICANN Whois Inaccuracy Complaint Form: https://www.icann.org/wicf/
>>> Last update of whois database: 2026-06-28T10:00:00Z <<<

For more information on Whois status codes, please visit https://icann.org/epp

NOTICE: The expiration date displayed in this record is the date the
registrar's sponsorship of the domain name registration in the registry is
currently set to expire. This date does not necessarily reflect the expiration
date of the domain name registrant's agreement with the sponsoring
registrar.  Users may consult the sponsoring registrar's Whois database to
view the registrar's reported date of expiration for this registration.

` + verisignTerms

// RegistrarWhois is the registrar's full answer for example.com: the
// registrant's organization and country published, the rest redacted.
const RegistrarWhois = `Domain Name: example.com
Registry Domain ID: 2336799_DOMAIN_COM-VRSN
Registrar WHOIS Server: whois.example-registrar.test
Registrar URL: https://www.example-registrar.test/
Updated Date: 2025-08-14T07:01:39+0000
Creation Date: 1995-08-14T04:00:00+0000
Registrar Registration Expiration Date: 2026-08-13T04:00:00+0000
Registrar: Example Registrar, Inc.
Registrar IANA ID: 9999
Registrar Abuse Contact Email: abuse@example-registrar.test
Registrar Abuse Contact Phone: +1.5555550100
Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited
Registry Registrant ID: REDACTED FOR PRIVACY
Registrant Name: REDACTED FOR PRIVACY
Registrant Organization: Internet Assigned Numbers Authority
Registrant Street: REDACTED FOR PRIVACY
Registrant City: REDACTED FOR PRIVACY
Registrant State/Province: CA
Registrant Postal Code: REDACTED FOR PRIVACY
Registrant Country: US
Registrant Phone: REDACTED FOR PRIVACY
Registrant Email: Please query the RDDS service of the Registrar of Record identified in this output for information on how to contact the Registrant of the queried domain name.
Registry Tech ID: REDACTED FOR PRIVACY
Tech Name: REDACTED FOR PRIVACY
Tech Email: Please query the RDDS service of the Registrar of Record identified in this output for information on how to contact the Tech of the queried domain name.
Name Server: a.iana-servers.net
Name Server: b.iana-servers.net
DNSSEC: signedDelegation
URL of the ICANN WHOIS Data Problem Reporting System: http://wdprs.internic.net/
>>> Last update of WHOIS database: 2026-06-28T10:00:00Z <<<
`

// NoMatchWhois is Verisign's answer for a name it does not hold.
func NoMatchWhois(query string) string {
	return fmt.Sprintf("No match for %q.\n>>> Last update of whois database: 2026-06-28T10:00:00Z <<<\n\n", strings.ToUpper(query)) + verisignTerms
}

// GarbageAnswer is what a broken or hostile whois server might send: no
// line of it is whois data.
const GarbageAnswer = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00<<<< 0xDEADBEEF ~~~~ \xff\xfe\xfd >>>>\n" +
	"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"

const verisignTerms = `TERMS OF USE: You are not authorized to access or query our Whois
database through the use of electronic processes that are high-volume and
automated except as reasonably necessary to register domain names or
modify existing registrations; the Data in VeriSign Global Registry
Services' ("VeriSign") Whois database is provided by VeriSign for
information purposes only, and to assist persons in obtaining information
about or related to a domain name registration record. VeriSign does not
guarantee its accuracy. By submitting a Whois query, you agree to abide
by the following terms of use: You agree that you may use this Data only
for lawful purposes and that under no circumstances will you use this Data
to: (1) allow, enable, or otherwise support the transmission of mass
unsolicited, commercial advertising or solicitations via e-mail, telephone,
or facsimile; or (2) enable high volume, automated, electronic processes
that apply to VeriSign (or its computer systems).

The Registry database contains ONLY .COM, .NET, .EDU domains and
Registrars.
`
