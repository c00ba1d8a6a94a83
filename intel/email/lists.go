package email

import (
	_ "embed"
	"strings"
	"sync"
)

// disposableList is the disposable domain list (see the package doc for
// its source and licence), one domain a line.
//
//go:embed disposable_domains.txt
var disposableList string

var disposableSet = sync.OnceValue(func() map[string]bool {
	set := make(map[string]bool, 9000)
	for line := range strings.Lines(disposableList) {
		if d := strings.TrimSpace(line); d != "" && !strings.HasPrefix(d, "#") {
			set[d] = true
		}
	}
	return set
})

// IsDisposable reports whether domain (lower-case A-labels) or a domain
// above it is on the disposable list.
func IsDisposable(domain string) bool {
	set := disposableSet()
	for d := domain; d != ""; {
		if set[d] {
			return true
		}
		_, d, _ = strings.Cut(d, ".")
	}
	return false
}

// roleAccounts are local parts that name a function, not a person: mail
// to them reaches a team or a robot, or no one.
var roleAccounts = setOf(
	"abuse", "accounting", "accounts", "admin", "administrator", "all", "billing", "careers",
	"compliance", "contact", "contactus", "customerservice", "devnull", "dns", "do-not-reply",
	"donotreply", "enquiries", "everyone", "feedback", "finance", "ftp", "hello", "help",
	"helpdesk", "hostmaster", "hr", "info", "inquiries", "it", "jobs", "legal", "list",
	"mail", "mailer-daemon", "marketing", "media", "news", "newsletter", "no-reply", "noc",
	"noreply", "null", "office", "orders", "postmaster", "press", "privacy", "reception",
	"recruiting", "root", "sales", "security", "service", "spam", "support", "sysadmin",
	"team", "tech", "test", "undisclosed-recipients", "unsubscribe", "usenet", "uucp",
	"webmaster", "www",
)

// IsRoleAccount reports whether local (the part before @) names a role:
// case, a +tag and dots are ignored ("No.Reply+x" is "noreply").
func IsRoleAccount(local string) bool {
	local = strings.ToLower(local)
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return roleAccounts[local] || roleAccounts[strings.ReplaceAll(local, ".", "")]
}

// freeProviders are mailbox providers anyone can sign up with.
var freeProviders = setOf(
	"gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "hotmail.co.uk", "hotmail.fr",
	"hotmail.de", "hotmail.it", "hotmail.es", "live.com", "live.co.uk", "live.fr", "msn.com",
	"yahoo.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.it", "yahoo.es", "yahoo.co.jp",
	"yahoo.com.br", "yahoo.co.in", "ymail.com", "rocketmail.com", "aol.com", "icloud.com",
	"me.com", "mac.com", "proton.me", "protonmail.com", "pm.me", "gmx.com", "gmx.de", "gmx.net",
	"gmx.at", "web.de", "mail.com", "yandex.com", "yandex.ru", "ya.ru", "mail.ru", "bk.ru",
	"inbox.ru", "list.ru", "rambler.ru", "zoho.com", "zohomail.com", "fastmail.com", "tutanota.com",
	"tuta.io", "tutamail.com", "qq.com", "163.com", "126.com", "sina.com", "naver.com", "daum.net",
	"hanmail.net", "libero.it", "virgilio.it", "orange.fr", "wanadoo.fr", "free.fr", "laposte.net",
	"sfr.fr", "t-online.de", "freenet.de", "seznam.cz", "wp.pl", "o2.pl", "interia.pl",
	"rediffmail.com", "hushmail.com", "btinternet.com", "comcast.net", "verizon.net", "att.net",
	"sbcglobal.net", "cox.net", "ukr.net", "hey.com", "mailbox.org", "posteo.de", "runbox.com",
)

// IsFreeProvider reports whether domain is a free mailbox provider's.
func IsFreeProvider(domain string) bool { return freeProviders[domain] }

func setOf(items ...string) map[string]bool {
	set := make(map[string]bool, len(items))
	for _, s := range items {
		set[s] = true
	}
	return set
}
