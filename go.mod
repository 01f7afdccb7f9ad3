module github.com/jinjabox/jinjabox

go 1.26

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/yuin/goldmark v1.8.7
	go.uber.org/multierr v1.11.0
)
