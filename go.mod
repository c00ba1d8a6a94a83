module github.com/webinfra/webinfra

go 1.26.0

require (
	code.dny.dev/ssrf v0.3.0
	github.com/JohannesKaufmann/html-to-markdown/v2 v2.5.2
	github.com/danielgtaylor/huma/v2 v2.37.2
	github.com/pressly/goose/v3 v3.28.0
	github.com/riverqueue/river v0.47.0
	github.com/riverqueue/river/riverdriver v0.47.0
	github.com/riverqueue/river/riverdriver/riversqlite v0.47.0
	github.com/riverqueue/river/rivertype v0.47.0
	github.com/stripe/stripe-go/v85 v85.0.0
	go.opentelemetry.io/otel v1.47.0
	go.opentelemetry.io/otel/trace v1.47.0
	golang.org/x/crypto v0.58.0
	golang.org/x/net v0.60.0
	golang.org/x/time v0.16.0
	modernc.org/sqlite v1.60.1
)

require (
	github.com/JohannesKaufmann/dom v0.3.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dustin/go-humanize v1.0.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mfridman/interpolate v0.0.2 // indirect
	github.com/ncruces/go-strftime v1.0.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/riverqueue/river/rivershared v0.47.0 // indirect
	github.com/sethvargo/go-retry v0.4.0 // indirect
	github.com/tidwall/gjson v1.19.0 // indirect
	github.com/tidwall/match v1.2.0 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	modernc.org/libc v1.77.1 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
