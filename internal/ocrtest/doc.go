// Package ocrtest draws test images for OCR: lines of text in Go Regular,
// black on white, with each word's region recorded, encoded in any of the
// formats the OCR endpoint accepts, and a word-accuracy measure to judge
// what came back. Tests of convert and of the server share it.
package ocrtest
