package server

import (
	"path"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/danielgtaylor/huma/v2"

	"github.com/webinfra/webinfra/extract/contacts"
	"github.com/webinfra/webinfra/extract/tables"
)

// specSchemaNames are the OpenAPI names SPEC gives library types that
// serve as request bodies.
var specSchemaNames = map[reflect.Type]string{
	reflect.TypeFor[tables.Input]():   "ExtractTablesRequest",
	reflect.TypeFor[contacts.Input](): "ExtractContactsRequest",
}

// schemaName names a type's schema in the OpenAPI document: SPEC's name
// when it has one; for a type of a capability package (extract/…, seo/…,
// aeo/…, fetch/robots), the package's name before the type's
// ("tables.Result" is TablesResult, "headings.Problem" HeadingsProblem),
// since those packages share short names such as Input, Result and
// Problem; otherwise huma's default.
func schemaName(t reflect.Type, hint string) string {
	if name, ok := specSchemaNames[t]; ok {
		return name
	}
	name := huma.DefaultSchemaNamer(t, hint)
	elem := t
	for elem.Kind() == reflect.Pointer || elem.Kind() == reflect.Slice || elem.Kind() == reflect.Array || elem.Kind() == reflect.Map {
		elem = elem.Elem()
	}
	rel, ok := strings.CutPrefix(elem.PkgPath(), "github.com/webinfra/webinfra/")
	if !ok || elem.Name() == "" || !slices.ContainsFunc(prefixedPackages, func(root string) bool { return strings.HasPrefix(rel, root) }) {
		return name
	}
	pkg := path.Base(rel)
	prefix := string(unicode.ToUpper(rune(pkg[0]))) + pkg[1:]
	if strings.HasPrefix(name, prefix) {
		return name
	}
	return prefix + name
}

// prefixedPackages are the package paths (relative to the module) whose
// schema names carry their package's name.
var prefixedPackages = []string{"extract/", "seo/", "aeo/", "fetch/robots", "intel/"}
