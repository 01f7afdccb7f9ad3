module github.com/jinjabox/jinjabox/playground/browsertest

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.1
	github.com/jinjabox/jinjabox v0.0.0
)

require (
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/pelletier/go-toml/v2 v2.4.3 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

// The browser test drives the playground of this clone.
replace github.com/jinjabox/jinjabox => ../..
