module github.com/jinjabox/jinjabox

go 1.26

require (
	github.com/yuin/goldmark v1.8.7
	go.uber.org/multierr v1.11.0
)
