// Package testenv decides what a test does when something it needs from
// the machine (a browser, a binary) is missing: on a developer's machine
// it skips with a message naming what to install; under CI=true, where
// .ci/run installs everything, it fails, so a broken install can never
// pass as a green run that tested nothing. Race says whether the race
// detector is on, for the tests over whole data sets that sample or skip
// under it.
package testenv
