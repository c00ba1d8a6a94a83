// Package docsui serves the API reference page (/docs): Stoplight Elements
// reading /openapi.json, with the viewer's script and styles embedded in
// the binary, so the page works offline, on an intranet, and under a
// Content-Security-Policy that allows nothing but the server itself.
package docsui
