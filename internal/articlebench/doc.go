// Package articlebench loads the article-extraction benchmark (181 real
// pages with ground-truth article bodies, from Zyte's
// article-extraction-benchmark, MIT licence) from the shared test data
// beside the repository, and scores extracted text against it the way the
// benchmark's README describes. Tests and benchmarks of the extract
// packages use it; it is never part of a served request.
package articlebench
