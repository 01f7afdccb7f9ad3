module github.com/jinjabox/jinjabox

go 1.26
