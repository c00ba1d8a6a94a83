// Package rediscache is a fetch.ScrapeCache in Redis, shared by every
// process of a deployment: a page one process fetched answers another
// process's max_age_ms request (of the same cache scope: an account never
// reads another's). Entries expire after Options.TTL whatever max_age_ms
// later asks, and a result larger than Options.MaxEntryBytes is not kept,
// so Redis holds at most the pages of the last TTL; Redis's own maxmemory
// policy bounds the rest. Redis being unreachable makes every lookup a
// miss: the cache only saves fetches.
package rediscache
