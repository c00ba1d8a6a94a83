// Package sqlrow is what the SQL store drivers (sqlite, postgres) share:
// the column lists and row scanners of the tables they both have, the
// checks of a new key, job or delivery, and the time encoding (unix
// milliseconds, UTC; months as YYYYMM and days as YYYYMMDD). One copy
// keeps the two drivers answering alike.
package sqlrow
